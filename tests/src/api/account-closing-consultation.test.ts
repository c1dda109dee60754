import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment } from '../support/held-appointment';
import { eventually } from '../support/eventually';

/**
 * Closing an account (an erasure, a deactivation) leaves an appointment whose consultation is under way — its start
 * time has come, or someone joined early — to that consultation, on the patient's side as on the doctor's: the call
 * goes on and the doctor still writes its notes and prescription (409 once cancelled). Appointments still to come are
 * closed as before; they show the closer has handled the event.
 */
describe('a closed account leaves a consultation under way to go on', () => {
  let t: TestApp;
  let now = new Date();
  let hour = 7;
  let doctor: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Asha Menon', doctor: { registration_number: 'KMC-2015-1234', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
  });
  after(() => t.close());

  /** A confirmed appointment two days ahead (its own hour) of `patient` with `withDoctor`; its id and start. */
  const appointment = (patient: TestUser, withDoctor = doctor) =>
    bookedAppointment(t, { doctor: withDoctor, patient, notes: 'Fever', hour: (hour += 1), setNow: (d) => (now = d) });
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const join = (id: string, user: TestUser) => t.http.post(`/api/v1/consultations/${id}/join`).set(user.auth).expect(200);
  const streamTypes = async (id: string) => (await t.app.eventStore.readStream(`appointment-${id}`)).map((e) => e.type);
  /** Waits until the closer has cancelled `id` (an appointment still to come): it has handled the closing event. */
  const closerDone = (id: string) =>
    eventually(async () => {
      await t.settle();
      assert.ok((await streamTypes(id)).includes('AppointmentCancelled'), `${id} is cancelled`);
    }, 8000);
  const line = { medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days' };

  for (const [what, joinedAt] of [
    ['its start time has come', 5],
    ['the doctor joined before the start time', -10],
  ] as const) {
    it(`an erased patient's consultation goes on when ${what}: the doctor writes its notes and prescription`, async () => {
      const patient = await t.createUser('patient', { name: 'Ravi Kumar' });
      const inCall = await appointment(patient);
      const later = await appointment(patient);
      now = minutes(inCall.start, joinedAt);
      await join(inCall.id, doctor);
      if (joinedAt > 0) await join(inCall.id, patient);

      await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
      await closerDone(later.id);

      assert.deepEqual(await streamTypes(inCall.id), ['AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun'], 'the appointment in its consultation is not cancelled');
      await t.http.put(`/api/v1/consultations/${inCall.id}/notes`).set(doctor.auth).send({ patient_name: 'Ravi Kumar', chief_complaint: 'Fever', clinical_assessment: 'Viral fever; fluids and rest.', is_draft: false }).expect(200);
      await t.http.post(`/api/v1/consultations/${inCall.id}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis: 'Viral fever' }).expect(201);
      await t.http.post(`/api/v1/consultations/${inCall.id}/end`).set(doctor.auth).expect(200);
      await eventually(async () => assert.equal((await streamTypes(inCall.id)).at(-1), 'AppointmentCompleted'), 8000);
    });
  }

  it("a deactivated doctor's consultation joined before its start time goes on; their appointments still to come are closed", async () => {
    const admin = await t.createUser('admin');
    const leaving = await t.createUser('doctor', { name: 'Dr. Leaving' });
    const patient = await t.createUser('patient');
    const inCall = await appointment(patient, leaving);
    const later = await appointment(patient, leaving);
    now = minutes(inCall.start, -10);
    await join(inCall.id, patient);
    await join(inCall.id, leaving);

    await t.http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth).expect(200);
    await closerDone(later.id);

    assert.deepEqual(await streamTypes(inCall.id), ['AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun'], 'the appointment in its consultation is not cancelled');
    const view = (await t.http.get(`/api/v1/consultations/${inCall.id}`).set(patient.auth).expect(200)).body as { status: string };
    assert.equal(view.status, 'active', 'the patient is still in the call');
  });
});
