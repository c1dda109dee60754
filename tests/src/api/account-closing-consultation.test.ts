import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { bookedAppointment } from '../support/held-appointment';
import { typesByStream } from '../support/spec-streams';

/**
 * Closing an account (an erasure, a deactivation) leaves an appointment whose consultation is under way — its start
 * time has come, or someone joined early — to that consultation, on the patient's side as on the doctor's: the call
 * goes on and the doctor still writes its notes and prescription (409 once cancelled). Appointments still to come are
 * closed as before: the closing request's answers name them, and only them.
 */
describe('a closed account leaves a consultation under way to go on', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  const asha = () =>
    spec.given.doctor({ name: 'Dr. Asha Menon', doctor: { registration_number: 'KMC-2015-1234', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
  /** A confirmed appointment two days ahead (its own hour) of `patient` with `doctor`; its id, start and slot. */
  const appointment = async (patient: TestUser, doctor: TestUser) => {
    const booked = await bookedAppointment(t, { doctor, patient, notes: 'Fever', hour: (hour += 1), setNow: (d) => (now = d) });
    const slot = (await t.app.eventStore.readStream(streams.appointment(booked.id)))[0]!.data as { slot_id: number };
    return { ...booked, slot_id: slot.slot_id };
  };
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const join = async (id: string, user: TestUser) => (await spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(user.auth))).expectStatus(200);
  const streamTypes = async (id: string) => (await t.app.eventStore.readStream(streams.appointment(id))).map((e) => e.type);
  const line = { medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days' };

  for (const [what, joinedAt] of [
    ['its start time has come', 5],
    ['the doctor joined before the start time', -10],
  ] as const) {
    it(`an erased patient's consultation goes on when ${what}: the doctor writes its notes and prescription`, async () => {
      const doctor = await asha();
      const patient = await spec.given.patient({ name: 'Ravi Kumar' });
      const inCall = await appointment(patient, doctor);
      const later = await appointment(patient, doctor);
      now = minutes(inCall.start, joinedAt);
      await join(inCall.id, doctor);
      if (joinedAt > 0) await join(inCall.id, patient);

      const erased = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(patient.auth)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.user(patient.user_id), type: 'PersonalDataErased' }]);
      // Only the appointment still to come is closed; the one in its consultation is not touched.
      assert.deepEqual(typesByStream(erased.reactions), { [streams.appointment(later.id)]: ['AppointmentCancelled'], [streams.slot(later.slot_id)]: ['SlotReleased'] });
      assert.deepEqual(await streamTypes(inCall.id), ['AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun'], 'the appointment in its consultation is not cancelled');

      const notes = { patient_name: 'Ravi Kumar', chief_complaint: 'Fever', clinical_assessment: 'Viral fever; fluids and rest.', is_draft: false };
      (await spec.when((http) => http.put(`/api/v1/consultations/${inCall.id}/notes`).set(doctor.auth).send(notes)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.consultationNotes(inCall.id), type: 'ConsultationNotesSaved' }]);
      (await spec.when((http) => http.post(`/api/v1/consultations/${inCall.id}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis: 'Viral fever' })))
        .expectStatus(201)
        .expectEvents([{ type: 'PrescriptionIssued' }]);
      (await spec.when((http) => http.post(`/api/v1/consultations/${inCall.id}/end`).set(doctor.auth)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.consultation(inCall.id), type: 'ConsultationEnded' }])
        // The patient came: completed. The patient never came (erased before joining): left confirmed, for the no-show
        // sweep to close after its grace (issue 35), not completed as a visit that took place.
        .expectReactions(joinedAt > 0 ? [{ stream: streams.appointment(inCall.id), type: 'AppointmentCompleted' }] : []);
    });
  }

  it("a deactivated doctor's consultation joined before its start time goes on; their appointments still to come are closed", async () => {
    const admin = await t.createUser('admin');
    const leaving = await spec.given.doctor({ name: 'Dr. Leaving' });
    const patient = await spec.given.patient();
    const inCall = await appointment(patient, leaving);
    const later = await appointment(patient, leaving);
    now = minutes(inCall.start, -10);
    await join(inCall.id, patient);
    await join(inCall.id, leaving);

    const deactivated = (await spec.when((http) => http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(leaving.user_id), type: 'UserDeactivated' }]);
    // Only the appointment still to come is closed, its slot withdrawn once released; the one in its consultation is not touched.
    assert.deepEqual(typesByStream(deactivated.reactions), {
      [streams.appointment(later.id)]: ['AppointmentCancelled'],
      [streams.slot(later.slot_id)]: ['SlotReleased', 'SlotWithdrawn'],
    });

    assert.deepEqual(await streamTypes(inCall.id), ['AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun'], 'the appointment in its consultation is not cancelled');
    const view = (await spec.read((http) => http.get(`/api/v1/consultations/${inCall.id}`).set(patient.auth).expect(200))).body as { status: string };
    assert.equal(view.status, 'active', 'the patient is still in the call');
  });
});
