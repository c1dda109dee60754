import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, ERROR_CODES, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { holdAppend } from '../support/held-append';

/**
 * Once an appointment's consultation has begun (someone joined, perhaps before the start time), neither party can
 * cancel it (409, code consultation_begun): the slot stays theirs, the doctor keeps writing the notes and the
 * prescription, and the call's end (End Call or the limit) completes the appointment. Before anyone joins, a cancel
 * is answered as always. A cancel and a join at once are decided on the appointment's stream: the second loses with a
 * 409 and a code.
 */
describe('cancelling an appointment whose consultation has begun', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a doctor and a patient of this case and their confirmed appointment two days ahead. */
  async function appointment(people?: { doctor: TestUser; patient: TestUser }) {
    now = new Date();
    const doctor = people?.doctor ?? (await spec.given.doctor({ name: 'Dr. Asha Menon', doctor: { registration_number: 'KMC-2015-1234', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } }));
    const patient = people?.patient ?? (await spec.given.patient({ name: 'Ravi Kumar' }));
    const { appointment_id: id, slot } = await spec.given.appointment({ doctor, patient, notes: 'Fever', confirmed: true });
    return { id, start: slot.start, slot: slot.slot_id, doctor, patient };
  }
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const join = (id: string, user: TestUser) => spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(user.auth));
  const cancel = (id: string, user: TestUser) => spec.when((http) => http.post(`/api/v1/appointments/${id}/cancel`).set(user.auth).send({ reason: 'Something came up' }));
  const types = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);
  const line = { medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days' };
  const notes = (id: string, doctor: TestUser, body: object) => spec.when((http) => http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send(body));
  const prescribe = (id: string, doctor: TestUser, diagnosis: string) => spec.when((http) => http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis }));

  it('refuses either party during the call (409, consultation_begun); the slot stays taken, the records writable, and the limit completes it', async () => {
    const { id, start, slot, doctor, patient } = await appointment();
    const otherPatient = await spec.given.patient({ name: 'Meera Iyer' });
    now = minutes(start, -5);
    (await join(id, patient)).expectStatus(200);
    (await join(id, doctor)).expectStatus(200);
    for (const party of [patient, doctor]) {
      const refused = (await cancel(id, party)).expectStatus(409).expectNoEvents();
      assert.deepEqual(refused.body, { detail: API_TEXTS.consultationBegunNoCancel, code: ERROR_CODES.consultationBegun });
    }
    now = minutes(start, 5);
    const late = (await cancel(id, patient)).expectStatus(409);
    assert.equal(late.body.code, ERROR_CODES.consultationBegun, 'after the start time too');
    late.expectNoEvents(); // a refused cancel writes nothing

    // The slot is still this appointment's: nobody else is offered it or can book it while the call goes on.
    const mine = (await spec.read((http) => http.get('/api/v1/appointments/me').set(patient.auth).expect(200))).body as Array<{ appointment_id: string; consultation_held: boolean }>;
    assert.equal(mine.find((a) => a.appointment_id === id)?.consultation_held, true, "the patient's list says the consultation has begun (the app offers no Cancel)");
    const offered = (await spec.read((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(otherPatient.auth).expect(200))).body as { slots: Array<{ slot_id: number }> };
    assert.ok(!offered.slots.some((s) => s.slot_id === slot), 'the slot is not offered again');
    (await spec.when((http) => http.post('/api/v1/appointments').set(otherPatient.auth).send({ slot_id: slot, notes: 'Headache' }))).expectStatus(409).expectNoEvents();

    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'Still here' }))).expectStatus(201);
    (await notes(id, doctor, { patient_name: 'Ravi Kumar', chief_complaint: 'Fever', is_draft: true })).expectStatus(200);
    (await prescribe(id, doctor, 'Viral fever')).expectStatus(201);

    // The limit (30 minutes from the first join) ends the call by the system: the visit took place.
    now = minutes(start, 26);
    await t.app.runSweepsNow();
    assert.ok((await types(streams.consultation(id))).includes('ConsultationAutoEnded'), 'auto-ended at the limit');
    await t.settle(); // the closer completes the appointment in answer to the auto-end
    assert.equal((await types(streams.appointment(id))).at(-1), 'AppointmentCompleted');
    assert.ok(!(await types(streams.appointment(id))).includes('AppointmentCancelled'));
    assert.equal((await cancel(id, patient)).expectStatus(409).expectNoEvents().body.detail, 'This appointment is completed and cannot be cancelled');

    // Its records stay writable once it is completed.
    (await notes(id, doctor, { clinical_assessment: 'Viral fever; fluids and rest.', is_draft: false })).expectStatus(200);
    (await prescribe(id, doctor, 'Viral fever, review')).expectStatus(201);
  });

  it('keeps the notes, the prescription and its file writable for a consultation the log shows cancelled during the call (before the rule)', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, 2);
    (await join(id, patient)).expectStatus(200);
    (await join(id, doctor)).expectStatus(200);
    // Written as the cancel route wrote it before a begun consultation refused it: such cancels are in the log for good.
    await spec.given.events(streams.appointment(id), [
      { type: 'AppointmentCancelled', data: { appointment_id: id, cancelled_by: 'patient', reason: null }, actor: { user_id: patient.user_id, role: 'patient' }, occurred_at: now },
    ]);
    (await notes(id, doctor, { patient_name: 'Ravi Kumar', chief_complaint: 'Fever', is_draft: false })).expectStatus(200);
    (await prescribe(id, doctor, 'Viral fever')).expectStatus(201);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Ravi Kumar').field('medication_summary', 'Paracetamol').attach('file', pdf, 'rx.pdf'))).expectStatus(201);

    // A cancelled appointment whose consultation never began stays closed to records (409 with a code).
    const closed = await appointment({ doctor, patient });
    (await cancel(closed.id, patient)).expectStatus(200);
    const refused = (await notes(closed.id, doctor, { chief_complaint: 'Fever', is_draft: true })).expectStatus(409).expectNoEvents();
    assert.equal(refused.body.code, ERROR_CODES.appointmentNotConfirmed);
  });

  it('still cancels an appointment nobody has joined, also after its start time, and offers the slot again', async () => {
    const { id, start, slot, doctor, patient } = await appointment();
    now = minutes(start, 5);
    const res = (await cancel(id, doctor))
      .expectStatus(200)
      .expectEvents([{ stream: streams.appointment(id), type: 'AppointmentCancelled' }])
      .expectReactions([{ stream: streams.slot(slot), type: 'SlotReleased' }]);
    assert.equal(res.body.status, 'cancelled');
    assert.ok((await types(streams.slot(slot))).includes('SlotReleased'), 'the slot is released');
    const refused = (await join(id, patient)).expectStatus(409).expectNoEvents();
    assert.equal(refused.body.code, ERROR_CODES.appointmentNotConfirmed, 'no consultation for a cancelled appointment');
  });

  it('a join that lands between a cancel deciding and appending wins: the cancel decides again and is refused (409, consultation_begun)', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, -5);
    let joined = 0;
    const hold = holdAppend(
      t.app.eventStore,
      (stream, eventTypes) => stream === streams.appointment(id) && eventTypes.includes('AppointmentCancelled'),
      async () => {
        joined = (await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth)).status;
      },
    );
    let refused;
    try {
      refused = await cancel(id, patient);
      await hold.done;
    } finally {
      hold.release();
    }
    assert.equal(joined, 200, 'the join went through while the cancel was held');
    assert.deepEqual([refused.status, refused.body.code], [409, ERROR_CODES.consultationBegun]);
    refused.expectNoEvents();
    assert.deepEqual(await types(streams.appointment(id)), ['AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun']);
    (await join(id, patient)).expectStatus(200);
  });

  it('a cancel that lands between a join deciding and appending wins: the join decides again and is refused (409, appointment_not_confirmed)', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, -5);
    let cancelled = 0;
    const hold = holdAppend(
      t.app.eventStore,
      (stream, eventTypes) => stream === streams.appointment(id) && eventTypes.includes('AppointmentConsultationBegun'),
      async () => {
        cancelled = (await t.http.post(`/api/v1/appointments/${id}/cancel`).set(patient.auth).send({ reason: 'Something came up' })).status;
      },
    );
    let refused;
    try {
      refused = await join(id, doctor);
      await hold.done;
    } finally {
      hold.release();
    }
    assert.equal(cancelled, 200, 'the cancel went through while the join was held');
    assert.deepEqual([refused.status, refused.body.code], [409, ERROR_CODES.appointmentNotConfirmed]);
    refused.expectNoEvents();
    assert.deepEqual(await types(streams.consultation(id)), [], 'no consultation of a cancelled appointment');
  });
});
