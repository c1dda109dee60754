import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { appointmentRequested, people, staffAdded } from '../support/spec-events';

const spec = projectionSpec('institution_appointments');

/** A doctor of an institution (a DOCTOR staff entry), a patient and a fresh appointment id. */
function practice() {
  const { patient, doctor } = people();
  const institution = freshId('institution');
  const staff = freshId('staff');
  const appointment = freshId('appointment');
  const joined = staffAdded({ institution_id: institution, staff_id: staff, user_id: doctor });
  const request = appointmentRequested({ appointment_id: appointment, doctor_id: doctor, patient_id: patient });
  /** The institution's entry of the appointment. */
  const row = (status: string, institution_id = institution, readers_key = institution) => ({
    _id: `${institution_id}~${appointment}`,
    institution_id,
    appointment_id: appointment,
    doctor_id: doctor,
    patient_id: patient,
    start: '2026-03-10T04:30:00Z',
    status,
    readers_key,
  });
  return { patient, doctor, institution, staff, appointment, joined, request, row };
}

describe('institution_appointments projection (what each institution may read)', () => {
  it("a request of the institution's doctor is the institution's, with its status", () => {
    const p = practice();
    return spec
      .given(p.joined)
      .when(p.request)
      .then({
        institution_appointments: [p.row('requested')],
        institution_reader_sets: [{ _id: p.institution, keys: [p.institution] }],
        institution_appointment_readers: [{ _id: p.appointment, institutions: [p.institution] }],
      });
  });

  it('later decisions move the status in the entry (approved, then completed)', () => {
    const p = practice();
    return spec
      .given(p.joined, p.request)
      .when(event('AppointmentApproved', { appointment_id: p.appointment, doctor_id: p.doctor }), event('AppointmentCompleted', { appointment_id: p.appointment, ended_at: '2026-03-10T05:00:00.000Z', auto_ended: false }))
      .then({ institution_appointments: [p.row('completed')] }, { untouched: ['institution_reader_sets', 'institution_appointment_readers'] });
  });

  it('an expired request reads as cancelled', () => {
    const p = practice();
    return spec.given(p.joined, p.request).when(event('AppointmentExpired', { appointment_id: p.appointment })).then({ institution_appointments: [p.row('cancelled')] });
  });

  it('a request made after the doctor left opens nothing; one made before stays readable after', async () => {
    const before = practice();
    const left = event('InstitutionStaffRemoved', { institution_id: before.institution, staff_id: before.staff, user_id: before.doctor });
    await spec.given(before.joined, before.request).when(left).then({ institution_appointments: [before.row('requested')], institution_appointment_doctors: [] });
    const after = practice();
    await spec
      .given(after.joined, event('InstitutionStaffRemoved', { institution_id: after.institution, staff_id: after.staff, user_id: after.doctor }))
      .when(after.request)
      .then({ institution_appointments: [], institution_appointment_readers: [], institution_reader_sets: [] });
  });

  it("a staff member who is no doctor makes no membership: their patients' requests are not the institution's", () => {
    const p = practice();
    return spec
      .given(staffAdded({ institution_id: p.institution, staff_id: p.staff, user_id: p.doctor, role: 'ADMIN' }))
      .when(p.request)
      .then({ institution_appointments: [], institution_appointment_doctors: [] });
  });

  it('a member who becomes a doctor reads the requests made from then on', () => {
    const p = practice();
    return spec
      .given(
        staffAdded({ institution_id: p.institution, staff_id: p.staff, user_id: p.doctor, role: 'STAFF' }),
        event('InstitutionStaffRoleChanged', { institution_id: p.institution, staff_id: p.staff, user_id: p.doctor, role: 'DOCTOR', previous_role: 'STAFF', is_institution_admin: false }),
      )
      .when(p.request)
      .then({ institution_appointments: [p.row('requested')], institution_appointment_doctors: [{ _id: p.doctor, staff: { [p.staff]: p.institution } }] });
  });

  it('a doctor of two institutions at once: each reads the appointment, under one readers key for both', () => {
    const p = practice();
    const second = freshId('institution');
    const key = [p.institution, second].sort().join(' ');
    return spec
      .given(p.joined, staffAdded({ institution_id: second, staff_id: freshId('staff'), user_id: p.doctor }))
      .when(p.request, event('AppointmentRejected', { appointment_id: p.appointment, doctor_id: p.doctor, reason: null }))
      .then({
        institution_appointments: [p.row('rejected', p.institution, key), p.row('rejected', second, key)],
        institution_reader_sets: [
          { _id: p.institution, keys: [key] },
          { _id: second, keys: [key] },
        ],
      });
  });

  it('a membership delivered again after the doctor left does not open the requests made since', () => {
    const p = practice();
    return spec
      .given(p.joined)
      .when(event('InstitutionStaffRemoved', { institution_id: p.institution, staff_id: p.staff, user_id: p.doctor }), p.request)
      .deliveredAgain('given')
      .then({ institution_appointments: [], institution_appointment_doctors: [] });
  });

  it("a decision on an appointment no institution reads, and the institution's other events, change nothing", () => {
    const p = practice();
    const { patient, doctor } = people();
    const elsewhere = freshId('appointment');
    return spec
      .given(p.joined, p.request, appointmentRequested({ appointment_id: elsewhere, doctor_id: doctor, patient_id: patient }))
      .when(
        event('AppointmentApproved', { appointment_id: elsewhere, doctor_id: doctor }),
        event('InstitutionDoctorDeactivated', { institution_id: p.institution, staff_id: p.staff, user_id: p.doctor }),
        event('InstitutionDisbanded', { institution_id: p.institution }),
        event('AppointmentConsultationBegun', { appointment_id: p.appointment, begun_at: '2026-03-10T04:31:00.000Z' }),
      )
      .thenUnchanged();
  });
});
