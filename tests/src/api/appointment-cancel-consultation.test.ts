import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, ERROR_CODES, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment } from '../support/held-appointment';
import { eventually } from '../support/eventually';
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
  let now = new Date();
  let hour = 6;
  let doctor: TestUser;
  let patient: TestUser;
  let otherPatient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Asha Menon', doctor: { registration_number: 'KMC-2015-1234', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
    patient = await t.createUser('patient', { name: 'Ravi Kumar' });
    otherPatient = await t.createUser('patient', { name: 'Meera Iyer' });
  });
  after(() => t.close());

  const appointment = () => bookedAppointment(t, { doctor, patient, notes: 'Fever', hour: (hour += 1), setNow: (d) => (now = d) });
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const join = (id: string, user: TestUser) => t.http.post(`/api/v1/consultations/${id}/join`).set(user.auth);
  const cancel = (id: string, user: TestUser) => t.http.post(`/api/v1/appointments/${id}/cancel`).set(user.auth).send({ reason: 'Something came up' });
  const types = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);
  const slotOf = async (id: string) => ((await t.app.eventStore.readStream(streams.appointment(id)))[0]!.data as { slot_id: number }).slot_id;
  const line = { medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days' };

  it('refuses either party during the call (409, consultation_begun); the slot stays taken, the records writable, and the limit completes it', async () => {
    const { id, start } = await appointment();
    now = minutes(start, -5);
    await join(id, patient).expect(200);
    await join(id, doctor).expect(200);
    await t.settle();
    const head = await t.app.eventStore.headPosition();
    for (const party of [patient, doctor]) {
      const refused = await cancel(id, party).expect(409);
      assert.deepEqual(refused.body, { detail: API_TEXTS.consultationBegunNoCancel, code: ERROR_CODES.consultationBegun });
    }
    now = minutes(start, 5);
    assert.equal((await cancel(id, patient).expect(409)).body.code, ERROR_CODES.consultationBegun, 'after the start time too');
    assert.equal(await t.app.eventStore.headPosition(), head, 'a refused cancel writes nothing');

    // The slot is still this appointment's: nobody else is offered it or can book it while the call goes on.
    await t.settle();
    const mine = (await t.http.get('/api/v1/appointments/me').set(patient.auth).expect(200)).body as Array<{ appointment_id: string; consultation_held: boolean }>;
    assert.equal(mine.find((a) => a.appointment_id === id)?.consultation_held, true, "the patient's list says the consultation has begun (the app offers no Cancel)");
    const slot = await slotOf(id);
    const offered = (await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(otherPatient.auth).expect(200)).body as { slots: Array<{ slot_id: number }> };
    assert.ok(!offered.slots.some((s) => s.slot_id === slot), 'the slot is not offered again');
    await t.http.post('/api/v1/appointments').set(otherPatient.auth).send({ slot_id: slot, notes: 'Headache' }).expect(409);

    await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'Still here' }).expect(201);
    await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ patient_name: 'Ravi Kumar', chief_complaint: 'Fever', is_draft: true }).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis: 'Viral fever' }).expect(201);

    // The limit (30 minutes from the first join) ends the call by the system: the visit took place.
    now = minutes(start, 26);
    await t.app.runSweepsNow();
    assert.ok((await types(streams.consultation(id))).includes('ConsultationAutoEnded'), 'auto-ended at the limit');
    await eventually(async () => assert.equal((await types(streams.appointment(id))).at(-1), 'AppointmentCompleted'), 8000);
    assert.ok(!(await types(streams.appointment(id))).includes('AppointmentCancelled'));
    assert.equal((await cancel(id, patient).expect(409)).body.detail, 'This appointment is completed and cannot be cancelled');

    // Its records stay writable once it is completed.
    await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ clinical_assessment: 'Viral fever; fluids and rest.', is_draft: false }).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis: 'Viral fever, review' }).expect(201);
  });

  it('keeps the notes, the prescription and its file writable for a consultation the log shows cancelled during the call (before the rule)', async () => {
    const { id, start } = await appointment();
    now = minutes(start, 2);
    await join(id, patient).expect(200);
    await join(id, doctor).expect(200);
    // Written as the cancel route wrote it before a begun consultation refused it: such cancels are in the log for good.
    await t.app.eventStore.appendToStream(streams.appointment(id), [
      {
        event_id: randomUUID(),
        type: 'AppointmentCancelled',
        data: { appointment_id: id, cancelled_by: 'patient', reason: null },
        metadata: { actor: { user_id: patient.user_id, role: 'patient' }, correlation_id: randomUUID(), causation_id: null, occurred_at: now.toISOString() },
      },
    ]);
    await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ patient_name: 'Ravi Kumar', chief_complaint: 'Fever', is_draft: false }).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis: 'Viral fever' }).expect(201);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    await t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Ravi Kumar').field('medication_summary', 'Paracetamol').attach('file', pdf, 'rx.pdf').expect(201);

    // A cancelled appointment whose consultation never began stays closed to records (409 with a code).
    const closed = await appointment();
    await cancel(closed.id, patient).expect(200);
    const refused = await t.http.put(`/api/v1/consultations/${closed.id}/notes`).set(doctor.auth).send({ chief_complaint: 'Fever', is_draft: true }).expect(409);
    assert.equal(refused.body.code, ERROR_CODES.appointmentNotConfirmed);
  });

  it('still cancels an appointment nobody has joined, also after its start time, and offers the slot again', async () => {
    const { id, start } = await appointment();
    now = minutes(start, 5);
    const res = await cancel(id, doctor).expect(200);
    assert.equal(res.body.status, 'cancelled');
    const slot = await slotOf(id);
    await eventually(async () => assert.ok((await types(streams.slot(slot))).includes('SlotReleased'), 'the slot is released'), 8000);
    const refused = await join(id, patient).expect(409);
    assert.equal(refused.body.code, ERROR_CODES.appointmentNotConfirmed, 'no consultation for a cancelled appointment');
  });

  it('a join that lands between a cancel deciding and appending wins: the cancel decides again and is refused (409, consultation_begun)', async () => {
    const { id, start } = await appointment();
    now = minutes(start, -5);
    let joined = 0;
    const hold = holdAppend(
      t.app.eventStore,
      (stream, eventTypes) => stream === streams.appointment(id) && eventTypes.includes('AppointmentCancelled'),
      async () => {
        joined = (await join(id, doctor)).status;
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
    assert.deepEqual(await types(streams.appointment(id)), ['AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun']);
    await join(id, patient).expect(200);
  });

  it('a cancel that lands between a join deciding and appending wins: the join decides again and is refused (409, appointment_not_confirmed)', async () => {
    const { id, start } = await appointment();
    now = minutes(start, -5);
    let cancelled = 0;
    const hold = holdAppend(
      t.app.eventStore,
      (stream, eventTypes) => stream === streams.appointment(id) && eventTypes.includes('AppointmentConsultationBegun'),
      async () => {
        cancelled = (await cancel(id, patient)).status;
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
    assert.deepEqual(await types(streams.consultation(id)), [], 'no consultation of a cancelled appointment');
  });
});
