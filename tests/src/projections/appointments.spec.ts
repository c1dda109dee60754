import { describe, it } from 'node:test';
import { API_TEXTS, ERASED_VALUE } from '@telemed/contracts';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { appointmentRequested, consultationStarted, doctorRegistered, erased, people, registered } from '../support/spec-events';

const appointments = projectionSpec('appointments');
const REQUESTED_AT = '2026-03-03T12:00:00.000Z';
const LATER = '2026-03-04T09:15:00.000Z';
/** What a closed appointment's document says of an offer of other times: none. */
const NO_OFFER_LEFT = { proposal: null, proposal_expires_at: null };
const doctorActs = (user_id: string) => ({ actor: { user_id, role: 'doctor' as const }, at: LATER });

/** A patient and a doctor as the appointments know them, and a fresh appointment id. */
function booking() {
  const { patient, doctor } = people();
  const appointment = freshId('appointment');
  const known = [registered({ user_id: patient, name: 'Asha Rao' }), registered({ user_id: doctor, name: 'Dr. Vikram Shah', account_type: 'doctor', phone_number: null }), doctorRegistered({ doctor_id: doctor })];
  const request = appointmentRequested({ appointment_id: appointment, doctor_id: doctor, patient_id: patient }, { at: REQUESTED_AT, actor: { user_id: patient, role: 'patient' } });
  /** The appointment's document as its request made it. */
  const requested = (log: Log) => ({
    _id: appointment,
    appointment_id: appointment,
    slot_id: 101,
    doctor_id: doctor,
    patient_id: patient,
    start: '2026-03-10T04:30:00Z',
    end: '2026-03-10T05:00:00Z',
    notes: 'Chest pain after climbing stairs',
    status: 'requested',
    status_reason: null,
    rejection_reason: null,
    cancellation_reason: null,
    created_at: REQUESTED_AT,
    updated_at: REQUESTED_AT,
    requested_position: log.positionOf(request),
    consultation_held: false,
    patient_name: 'Asha Rao',
    patient_phone: '+919800000001',
    doctor_name: 'Dr. Vikram Shah',
    doctor_specialty: 'Cardiology',
    consultation_fee: 500,
    proposal: null,
    proposal_expires_at: null,
  });
  const patientDoc = { _id: patient, name: 'Asha Rao', phone_number: '+919800000001', specialty: null, consultation_fee: null };
  const doctorDoc = { _id: doctor, name: 'Dr. Vikram Shah', phone_number: null, specialty: 'Cardiology', consultation_fee: 500 };
  return { patient, doctor, appointment, known, request, requested, people: [patientDoc, doctorDoc] };
}

/** The given events, then one event, then the appointment as `change` says on top of its request. */
function afterRequest(b: ReturnType<typeof booking>, when: SpecEvent[], change: Record<string, unknown>) {
  return appointments
    .given(...b.known, b.request)
    .when(...when)
    .then((log) => ({ appointments: [{ ...b.requested(log), ...change }] }), { untouched: ['appointment_people'] });
}

describe('appointments projection', () => {
  it("a request is an appointment with its people's names, phone, specialty and fee as they are", () => {
    const b = booking();
    return appointments
      .given(...b.known)
      .when(b.request)
      .then((log) => ({ appointments: [b.requested(log)], appointment_people: b.people }));
  });

  it('a request of people the read model does not know yet names them as unknown', () => {
    const b = booking();
    return appointments
      .given()
      .when(b.request)
      .then((log) => ({
        appointments: [{ ...b.requested(log), patient_name: 'Unknown patient', patient_phone: null, doctor_name: 'Unknown doctor', doctor_specialty: '', consultation_fee: 0 }],
        appointment_people: [],
      }));
  });

  it('the doctor approves: confirmed, at the time of the approval', () => {
    const b = booking();
    return afterRequest(b, [event('AppointmentApproved', { appointment_id: b.appointment, doctor_id: b.doctor }, doctorActs(b.doctor))], { status: 'confirmed', updated_at: LATER });
  });

  it('the doctor rejects with a reason: rejected, the reason kept, no status reason', () => {
    const b = booking();
    return afterRequest(b, [event('AppointmentRejected', { appointment_id: b.appointment, doctor_id: b.doctor, reason: 'Please see a pulmonologist' }, doctorActs(b.doctor))], {
      status: 'rejected',
      status_reason: null,
      rejection_reason: 'Please see a pulmonologist',
      updated_at: LATER,
    });
  });

  it("a request closed because the patient withdrew consent says so, whether the event names the cause or (older) only the system's reason", async () => {
    const named = booking();
    await afterRequest(named, [event('AppointmentRejected', { appointment_id: named.appointment, doctor_id: named.doctor, reason: API_TEXTS.consentWithdrawn, cause: 'consent_withdrawn' }, { at: LATER })], {
      status: 'rejected',
      status_reason: 'consent_withdrawn',
      rejection_reason: API_TEXTS.consentWithdrawn,
      updated_at: LATER,
    });
    const older = booking();
    await afterRequest(older, [event('AppointmentRejected', { appointment_id: older.appointment, doctor_id: older.doctor, reason: API_TEXTS.consentWithdrawn }, { at: LATER })], {
      status: 'rejected',
      status_reason: 'consent_withdrawn',
      rejection_reason: API_TEXTS.consentWithdrawn,
      updated_at: LATER,
    });
  });

  it('a doctor who happens to write the consent text is still a doctor declining', () => {
    const b = booking();
    return afterRequest(b, [event('AppointmentRejected', { appointment_id: b.appointment, doctor_id: b.doctor, reason: API_TEXTS.consentWithdrawn }, doctorActs(b.doctor))], {
      status: 'rejected',
      status_reason: null,
      rejection_reason: API_TEXTS.consentWithdrawn,
      updated_at: LATER,
    });
  });

  it('a confirmed appointment cancelled by the patient is cancelled, by whom and why', () => {
    const b = booking();
    return afterRequest(
      b,
      [
        event('AppointmentApproved', { appointment_id: b.appointment, doctor_id: b.doctor }, doctorActs(b.doctor)),
        event('AppointmentCancelled', { appointment_id: b.appointment, cancelled_by: 'patient', reason: 'Feeling better' }, { at: '2026-03-05T07:00:00.000Z', actor: { user_id: b.patient, role: 'patient' } }),
      ],
      { status: 'cancelled', status_reason: 'cancelled_by_patient', cancellation_reason: 'Feeling better', updated_at: '2026-03-05T07:00:00.000Z' },
    );
  });

  it("a confirmed appointment the patient moves takes its new slot and times, waits for the doctor again, counts the move and keeps where it was", () => {
    const b = booking();
    const movedAt = '2026-03-05T08:00:00.000Z';
    return afterRequest(
      b,
      [
        event('AppointmentApproved', { appointment_id: b.appointment, doctor_id: b.doctor }, doctorActs(b.doctor)),
        event(
          'AppointmentRescheduled',
          {
            appointment_id: b.appointment,
            doctor_id: b.doctor,
            patient_id: b.patient,
            from_slot_id: 101,
            from_start: '2026-03-10T04:30:00.000Z',
            to_slot_id: 205,
            start: '2026-03-12T06:00:00.000Z',
            end: '2026-03-12T06:30:00.000Z',
            rescheduled_by: 'patient',
            needs_approval: true,
            move: 1,
          },
          { at: movedAt, actor: { user_id: b.patient, role: 'patient' } },
        ),
      ],
      // Instants in the one stored format, whatever the event's (a text comparison is a time comparison).
      { status: 'requested', slot_id: 205, start: '2026-03-12T06:00:00Z', end: '2026-03-12T06:30:00Z', reschedules: 1, moved_from: '2026-03-10T04:30:00Z', moved_by: 'patient', updated_at: movedAt },
    );
  });

  it('a request nobody answered before its start expires: cancelled, because expired', () => {
    const b = booking();
    return afterRequest(b, [event('AppointmentExpired', { appointment_id: b.appointment }, { at: LATER })], { status: 'cancelled', status_reason: 'expired', updated_at: LATER });
  });

  it('a follow-up offered and booked (issue 35): the earlier keeps the offer and the booking, the follow-up its link and agreed fee; closed, it frees the offer', () => {
    const b = booking();
    const followUp = freshId('appointment');
    const offered = event('AppointmentFollowUpOffered', { appointment_id: b.appointment, doctor_id: b.doctor, patient_id: b.patient, within_days: 7, until: '2026-03-17T05:00:00.000Z', fee: 0 }, doctorActs(b.doctor));
    const booked = event('AppointmentFollowUpBooked', { appointment_id: b.appointment, follow_up_appointment_id: followUp, slot_id: 102 }, { at: LATER, stream: `appointment-${b.appointment}` });
    const request = appointmentRequested(
      { appointment_id: followUp, doctor_id: b.doctor, patient_id: b.patient, slot_id: 102, start: '2026-03-15T04:30:00.000Z', end: '2026-03-15T05:00:00.000Z', notes: 'Review', follow_up_of: { appointment_id: b.appointment, start: '2026-03-10T04:30:00.000Z' }, fee: 0 },
      { at: LATER, actor: { user_id: b.patient, role: 'patient' } },
    );
    const followUpDoc = (log: Log, change: Record<string, unknown> = {}) => ({
      ...b.requested(log),
      _id: followUp,
      appointment_id: followUp,
      slot_id: 102,
      start: '2026-03-15T04:30:00Z',
      end: '2026-03-15T05:00:00Z',
      notes: 'Review',
      created_at: LATER,
      updated_at: LATER,
      requested_position: log.positionOf(request),
      consultation_fee: 0,
      agreed_fee: 0,
      follow_up_of: b.appointment,
      follow_up_of_start: '2026-03-10T04:30:00Z',
      ...change,
    });
    const earlier = (log: Log, booked_id: string | null) => ({ ...b.requested(log), follow_up_until: '2026-03-17T05:00:00Z', follow_up_fee: 0, follow_up_booked: booked_id, updated_at: LATER });
    const rejected = event('AppointmentRejected', { appointment_id: followUp, doctor_id: b.doctor, reason: null }, doctorActs(b.doctor));
    return appointments
      .given(...b.known, b.request)
      .when(offered, booked, request, rejected)
      .then((log) => ({ appointments: [earlier(log, null), followUpDoc(log, { status: 'rejected', ...NO_OFFER_LEFT })] }), { untouched: ['appointment_people'] });
  });

  it('its consultation starting marks it held, not updated (updated_at stays the approval)', () => {
    const b = booking();
    return afterRequest(
      b,
      [
        event('AppointmentApproved', { appointment_id: b.appointment, doctor_id: b.doctor }, doctorActs(b.doctor)),
        consultationStarted({ appointment_id: b.appointment, patient_id: b.patient, doctor_id: b.doctor }, { at: '2026-03-10T04:31:00.000Z' }),
      ],
      { status: 'confirmed', consultation_held: true, updated_at: LATER },
    );
  });

  it('a consultation ended at its limit completes the appointment as auto-ended; one ended by a participant, without a reason', async () => {
    for (const auto_ended of [true, false]) {
      const b = booking();
      await afterRequest(
        b,
        [
          event('AppointmentApproved', { appointment_id: b.appointment, doctor_id: b.doctor }, doctorActs(b.doctor)),
          event('AppointmentCompleted', { appointment_id: b.appointment, ended_at: '2026-03-10T05:00:00.000Z', auto_ended }, { at: '2026-03-10T05:00:02.000Z' }),
        ],
        { status: 'completed', status_reason: auto_ended ? 'auto_ended' : null, updated_at: '2026-03-10T05:00:02.000Z' },
      );
    }
  });

  it("a profile change after the request changes the person, not the appointment (readers overlay the person)", () => {
    const b = booking();
    return appointments
      .given(...b.known, b.request)
      .when(event('UserProfileUpdated', { user_id: b.patient, name: 'Asha Kulkarni', phone_number: null }), event('DoctorProfileUpdated', { doctor_id: b.doctor, consultation_fee: 900 }))
      .then(
        { appointment_people: [{ ...b.people[0]!, name: 'Asha Kulkarni', phone_number: null }, { ...b.people[1]!, consultation_fee: 900 }] },
        { untouched: ['appointments'] },
      );
  });

  it("the patient's erasure blanks their name, phone, notes and the reasons given, and keeps the facts", () => {
    const b = booking();
    return appointments
      .given(...b.known, b.request, event('AppointmentRejected', { appointment_id: b.appointment, doctor_id: b.doctor, reason: 'Fully booked' }, doctorActs(b.doctor)))
      .when(erased(b.patient))
      .then((log) => ({
        appointments: [
          {
            ...b.requested(log),
            status: 'rejected',
            rejection_reason: ERASED_VALUE,
            updated_at: LATER,
            patient_name: ERASED_VALUE,
            patient_phone: null,
            notes: ERASED_VALUE,
          },
        ],
        appointment_people: [{ ...b.people[0]!, name: ERASED_VALUE, phone_number: null }, b.people[1]!],
      }));
  });

  it("the doctor's erasure blanks their name on their appointments", () => {
    const b = booking();
    return appointments
      .given(...b.known, b.request)
      .when(erased(b.doctor))
      .then((log) => ({
        appointments: [{ ...b.requested(log), doctor_name: ERASED_VALUE }],
        appointment_people: [b.people[0]!, { ...b.people[1]!, name: ERASED_VALUE, phone_number: null }],
      }));
  });

  it('a request delivered again does not undo the approval recorded after it', () => {
    const b = booking();
    return appointments
      .given(...b.known, b.request)
      .when(event('AppointmentApproved', { appointment_id: b.appointment, doctor_id: b.doctor }, doctorActs(b.doctor)))
      .deliveredAgain('given')
      .then((log) => ({ appointments: [{ ...b.requested(log), status: 'confirmed', updated_at: LATER }] }));
  });

  it("voiding, the consultation's beginning, joins and chat leave the appointment as it was", () => {
    const b = booking();
    return appointments
      .given(...b.known, b.request)
      .when(
        event('AppointmentVoided', { appointment_id: freshId('appointment'), slot_id: 102 }),
        event('AppointmentConsultationBegun', { appointment_id: b.appointment, begun_at: '2026-03-10T04:31:00.000Z' }),
        event('ConsultationJoined', { appointment_id: b.appointment, user_id: b.patient, role: 'patient', connection_id: 'c1', replaced_connection_id: null }),
        event('ConsultationMessagePosted', { appointment_id: b.appointment, message_id: freshId('message'), sender_id: b.patient, text: 'Hello doctor' }),
      )
      .thenUnchanged();
  });
});
