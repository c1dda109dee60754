import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, ERASED_VALUE, clinicalRecordsSubject, streams } from '@telemed/contracts';
import { ciphertextLog, keyRingOf, type EventStore } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

/**
 * A write whose personal field must be encrypted under a key that is gone (its person erased just before, or while
 * the write was on its way) is refused with a clear 410 and writes nothing: it is never stored as '[erased]' behind
 * an answer of success, and never leaves a reservation without its appointment.
 */
describe('writes that meet a destroyed key', () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let admin: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Neha Rao' });
    admin = await t.createUser('admin');
  });
  after(() => t.close());

  const nextSlot = async (days = 2) => {
    hour += 1;
    const date = indiaDate(days);
    const time = `${String(hour).padStart(2, '0')}:00`;
    const [slot] = await t.openSlots(doctor, [{ date, time }]);
    return { slot: slot!, start: DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE }).toJSDate() };
  };
  const streamTypes = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);

  /** Runs `between` once just before the first append `when` picks, then lets that append go on. */
  function holdAppend(when: (stream: string, types: string[]) => boolean, between: () => Promise<void>) {
    const store = t.app.eventStore as EventStore;
    const original = store.appendToStream;
    let fired = false;
    store.appendToStream = async function (this: EventStore, stream, events, options) {
      if (!fired && when(stream, events.map((e) => e.type))) {
        fired = true;
        await between();
      }
      return original.call(this, stream, events, options);
    };
    return () => void (store.appendToStream = original);
  }

  const assertClosedAnswer = (res: { status: number; body: { detail?: unknown } }, what: string) => {
    assert.equal(res.status, 410, `${what}: 410, not ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(typeof res.body.detail, 'string', `${what}: a detail`);
    assert.match(res.body.detail as string, /closed/i, `${what}: the detail says the account is closed`);
  };

  it("a booking whose request is appended after its patient's erasure completed: 410, no appointment, the slot free again", async () => {
    const patient = await t.createUser('patient', { name: 'Kiran Das' });
    const { slot } = await nextSlot();
    let appointmentStream = '';
    const release = holdAppend(
      (stream, types) => types.includes('AppointmentRequested') && Boolean((appointmentStream = stream)),
      async () => void (await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200)),
    );
    let res;
    try {
      res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Chest pain at night' });
    } finally {
      release();
    }
    assertClosedAnswer(res, 'the booking');
    assert.deepEqual(await streamTypes(appointmentStream), [], 'no appointment was written');
    const slotTypes = await streamTypes(streams.slot(slot));
    assert.equal(slotTypes.at(-1), 'SlotReleased', `the reservation is released at once: ${slotTypes.join(', ')}`);
    const other = await t.createUser('patient', { name: 'Lata Shah' });
    await t.settle();
    await t.http.post('/api/v1/appointments').set(other.auth).send({ slot_id: slot, notes: 'Checkup' }).expect(201);
  });

  it("a doctor's chat message in a consultation whose patient erased themselves during it: 410, nothing stored as '[erased]'", async () => {
    const patient = await t.createUser('patient', { name: 'Sunil Joshi' });
    now = new Date();
    const { slot, start } = await nextSlot();
    const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Rash' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    now = new Date(start.getTime() + 60_000);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'Hello' }).expect(201);
    await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
    const before = await streamTypes(streams.consultation(id));
    const res = await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'Are you still there?' });
    assertClosedAnswer(res, "the doctor's message");
    assert.deepEqual(await streamTypes(streams.consultation(id)), before, 'nothing was written');
    now = new Date();
  });

  it("a doctor's rejection reason for a patient whose key is gone: 410; without a reason the rejection goes through", async () => {
    const patient = await t.createUser('patient', { name: 'Gita Pillai' });
    const { slot } = await nextSlot();
    const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Cough' }).expect(201)).body.appointment_id as string;
    // The key goes without the erasure event (a failure between the two, or an erasure this process has not read yet).
    await keyRingOf(t.app.eventStore)!.destroy(patient.user_id);
    const res = await t.http.post(`/api/v1/appointments/${id}/reject`).set(doctor.auth).send({ reason: 'Please see Ms. Pillai in person' });
    assertClosedAnswer(res, 'the rejection with a reason');
    assert.deepEqual(await streamTypes(streams.appointment(id)), ['AppointmentRequested'], 'nothing was written');
    await t.http.post(`/api/v1/appointments/${id}/reject`).set(doctor.auth).send({}).expect(200);
    const raw = await ciphertextLog(t.app.eventStore).readStream(streams.appointment(id));
    assert.notEqual((raw.at(-1)!.data as { reason: string | null }).reason, ERASED_VALUE, 'no reason stored as erased');
  });

  it("notes for an erased patient: kept under the legal hold while their clinical key lives, refused (410) once it is destroyed", async () => {
    const patient = await t.createUser('patient', { name: 'Farah Khan' });
    hour += 1;
    const id = await heldAppointment(t, { doctor, patient, hour, setNow: (d) => (now = d) });
    const notes = (complaint: string) => t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: true, chief_complaint: complaint });
    await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
    await notes('Headache').expect(200);
    const before = await streamTypes(streams.consultationNotes(id));
    // The retention period's end destroys the clinical key (ClinicalRecordsDestroyed); a key is never made again.
    await keyRingOf(t.app.eventStore)!.destroy(clinicalRecordsSubject(patient.user_id));
    assertClosedAnswer(await notes('Headache, worse at night'), 'notes after the clinical key is gone');
    assert.equal(before.length > 0, true, 'the notes kept under the legal hold were written');
    assert.deepEqual(await streamTypes(streams.consultationNotes(id)), before, 'nothing was written');
    assert.equal(await keyRingOf(t.app.eventStore)!.store.get(clinicalRecordsSubject(patient.user_id)), null, 'no clinical key was made again');
    now = new Date();
  });

  it('a profile update decided before its person was erased, appended after: a 4xx, nothing written after the erasure', async () => {
    const patient = await t.createUser('patient', { name: 'Arjun Mehta' });
    const release = holdAppend(
      (stream, types) => stream === streams.user(patient.user_id) && types.includes('UserProfileUpdated'),
      async () => void (await t.http.post(`/api/v1/admin/users/${patient.user_id}/erasure`).set(admin.auth).expect(200)),
    );
    let res;
    try {
      res = await t.http.put('/api/v1/users/me').set(patient.auth).send({ name: 'Arjun K. Mehta' });
    } finally {
      release();
    }
    assert.ok(res.status >= 400 && res.status < 500, `a 4xx, not ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(typeof res.body.detail, 'string', 'with a detail');
    const types = await streamTypes(streams.user(patient.user_id));
    assert.equal(types.at(-1), 'PersonalDataErased', `nothing after the erasure: ${types.join(', ')}`);
  });
});
