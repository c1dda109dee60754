import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, NO_SHOW_DOCTOR_WAIT_MINUTES, NO_SHOW_GRACE_MINUTES, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { bookedAppointment } from '../support/held-appointment';

/**
 * No-shows (issue 35): a doctor marks an absent patient after waiting; the system closes a confirmed appointment a
 * party never came to once its end and the grace have passed, naming who; one both came to is completed by its call.
 */
describe('no-shows', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  let hour = 6;
  const setNow = (at: Date) => (now = at);
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);

  before(async () => {
    // The sweeps run when the test says (runSweepsNow), not on their timer.
    t = await startTestApp({ clock: () => now, env: { SWEEP_INTERVAL_MS: '3600000', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  const booked = (doctor: TestUser, patient: TestUser, options: { join?: boolean } = {}) => bookedAppointment(t, { doctor, patient, hour: (hour += 1), setNow, ...options });
  const mark = (id: string, user: TestUser) => spec.when((http) => http.post(`/api/v1/appointments/${id}/no-show`).set(user.auth));
  const mine = async (user: TestUser, id: string) => {
    const list = await spec.read((http) => http.get('/api/v1/appointments/me?status=no_show,completed,confirmed&include_past=true').set(user.auth));
    assert.equal(list.status, 200, list.text);
    return (list.body as Array<{ appointment_id: string; status: string; status_reason: string | null }>).find((a) => a.appointment_id === id);
  };

  it('the doctor marks the patient absent after waiting, not before, and only their own appointment', async () => {
    const doctor = await spec.given.doctor();
    const other = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { id, start } = await booked(doctor, patient, { join: true });

    setNow(minutes(start, NO_SHOW_DOCTOR_WAIT_MINUTES - 1));
    (await mark(id, doctor))
      .expectStatus(409)
      .expectBody({ detail: API_TEXTS.noShowTooEarly(String(NO_SHOW_DOCTOR_WAIT_MINUTES)), code: 'no_show_too_early', values: [String(NO_SHOW_DOCTOR_WAIT_MINUTES)] })
      .expectNoEvents();
    setNow(minutes(start, NO_SHOW_DOCTOR_WAIT_MINUTES));
    (await mark(id, other)).expectStatus(404).expectNoEvents();
    (await mark(id, patient)).expectStatus(403).expectNoEvents();
    (await mark(id, doctor))
      .expectStatus(200)
      .expectBody({ appointment_id: id, status: 'no_show' })
      .expectEvents([{ stream: streams.appointment(id), type: 'AppointmentNoShow', data: { absent: 'patient', marked_by: 'doctor' } }]);
    (await mark(id, doctor)).expectStatus(200).expectNoEvents();

    assert.deepEqual(await mine(patient, id).then((a) => a && { status: a.status, reason: a.status_reason }), { status: 'no_show', reason: 'patient_absent' });
    // Closed: the patient can no longer join or cancel it.
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(patient.auth))).expectStatus(409).expectNoEvents();
    (await spec.when((http) => http.post(`/api/v1/appointments/${id}/cancel`).set(patient.auth).send({}))).expectStatus(409).expectNoEvents();
  });

  it('a patient who joined cannot be marked absent', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { id, start } = await booked(doctor, patient, { join: true });
    setNow(minutes(start, 1));
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(patient.auth))).expectStatus(200);
    setNow(minutes(start, NO_SHOW_DOCTOR_WAIT_MINUTES + 1));
    (await mark(id, doctor)).expectStatus(409).expectBody({ detail: API_TEXTS.noShowPatientJoined, code: 'no_show_patient_joined' }).expectNoEvents();
  });

  it('the sweep closes what a party never came to after the end and the grace, and tells the patient of their doctor\'s absence', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const nobody = await booked(doctor, patient);
    const doctorAbsent = await booked(doctor, patient);
    const attended = await booked(doctor, patient);

    setNow(minutes(doctorAbsent.start, 1));
    (await spec.when((http) => http.post(`/api/v1/consultations/${doctorAbsent.id}/join`).set(patient.auth))).expectStatus(200);
    setNow(minutes(attended.start, 1));
    (await spec.when((http) => http.post(`/api/v1/consultations/${attended.id}/join`).set(patient.auth))).expectStatus(200);
    (await spec.when((http) => http.post(`/api/v1/consultations/${attended.id}/join`).set(doctor.auth))).expectStatus(200);

    // Before the grace has passed: nothing.
    setNow(minutes(nobody.start, 30 + NO_SHOW_GRACE_MINUTES - 1));
    await t.app.runSweepsNow();
    await t.settle();
    assert.equal((await mine(patient, nobody.id))?.status, 'confirmed');

    setNow(minutes(attended.start, 30 + NO_SHOW_GRACE_MINUTES));
    await t.app.runSweepsNow();
    await t.settle();
    assert.deepEqual(await mine(patient, nobody.id).then((a) => a && [a.status, a.status_reason]), ['no_show', 'both_absent']);
    assert.deepEqual(await mine(patient, doctorAbsent.id).then((a) => a && [a.status, a.status_reason]), ['no_show', 'doctor_absent']);
    // Both came: left to its call, which its limit ends and completes.
    assert.notEqual((await mine(patient, attended.id))?.status, 'no_show');
    const typesOf = async (id: string) => (await t.app.eventStore.readStream(streams.appointment(id))).map((e) => e.type);
    assert.ok(!(await typesOf(attended.id)).includes('AppointmentNoShow'));
    // Once only, however often the sweep runs.
    await t.app.runSweepsNow();
    assert.equal((await typesOf(nobody.id)).filter((type) => type === 'AppointmentNoShow').length, 1);

    // The patient is sent an apology for the doctor's absence (a message of its own kind), and nothing for the others.
    await t.settle();
    const queued = (await t.app.eventStore.readAll({ fromPosition: 0, limit: 100_000 }))
      .filter((e) => e.type === 'MessageQueued')
      .map((e) => e.data as { kind: string; appointment_id: string | null; recipient_id: string });
    assert.deepEqual(
      queued.filter((m) => m.kind === 'doctor_no_show').map((m) => [m.appointment_id, m.recipient_id]),
      [[doctorAbsent.id, patient.user_id]],
    );

    // The history says who did not come, in the console's and the participants' audit trail.
    const history = await spec.read((http) => http.get(`/api/v1/appointments/${doctorAbsent.id}/history`).set(patient.auth));
    assert.equal(history.status, 200, history.text);
    assert.ok((history.body.events as Array<{ type: string }>).some((entry) => entry.type === 'AppointmentNoShow'));
  });
});
