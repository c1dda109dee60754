import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERASED_VALUE, clinicalRecordsSubject, streams } from '@telemed/contracts';
import { ciphertextLog, keyRingOf, type EventStore } from '@telemed/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';
import { moreGiven, type MoreGiven } from '../support/api-spec-extra';

/**
 * A write whose personal field must be encrypted under a key that is gone (its person erased just before, or while
 * the write was on its way) is refused with a clear 410 and writes nothing: it is never stored as '[erased]' behind
 * an answer of success, and never leaves a reservation without its appointment.
 */
describe('writes that meet a destroyed key', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

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

  const assertClosedAnswer = (res: Then, what: string) => {
    res.expectStatus(410);
    assert.equal(typeof res.body.detail, 'string', `${what}: a detail`);
    assert.match(res.body.detail as string, /closed/i, `${what}: the detail says the account is closed`);
    return res;
  };

  it("a booking whose request is appended after its patient's erasure completed: 410, no appointment, the slot free again", async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Neha Rao' });
    const patient = await spec.given.patient({ name: 'Kiran Das' });
    const { slot_id: slot } = await spec.given.slot(doctor);
    let appointmentStream = '';
    // The erasure is made meanwhile, as its own request (its own correlation id): none of the booking's writes.
    const release = holdAppend(
      (stream, types) => types.includes('AppointmentRequested') && Boolean((appointmentStream = stream)),
      async () => void (await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200)),
    );
    let res: Then;
    try {
      res = await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Chest pain at night' }));
    } finally {
      release();
    }
    // Its reservation is its only write, released by the request itself: no appointment.
    assertClosedAnswer(res, 'the booking')
      .expectEvents([
        { stream: streams.slot(slot), type: 'SlotReserved' },
        { stream: streams.slot(slot), type: 'SlotReleased' },
      ])
      .expectReactions([]);
    assert.deepEqual(await streamTypes(appointmentStream), [], 'no appointment was written');
    const slotTypes = await streamTypes(streams.slot(slot));
    assert.equal(slotTypes.at(-1), 'SlotReleased', `the reservation is released at once: ${slotTypes.join(', ')}`);
    const other = await spec.given.patient({ name: 'Lata Shah' });
    (await spec.when((http) => http.post('/api/v1/appointments').set(other.auth).send({ slot_id: slot, notes: 'Checkup' }))).expectStatus(201);
  });

  it("a doctor's chat message in a consultation whose patient erased themselves during it: 410, nothing stored as '[erased]'", async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Neha Rao' });
    const patient = await spec.given.patient({ name: 'Sunil Joshi' });
    const { appointment_id: id } = await more.consultation({ doctor, patient, notes: 'Rash', setNow: (d) => (now = d) });
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'Hello' }).expect(201);
    await more.erasure(patient);
    const before = await streamTypes(streams.consultation(id));
    const res = await spec.when((http) => http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'Are you still there?' }));
    assertClosedAnswer(res, "the doctor's message").expectNoEvents();
    assert.deepEqual(await streamTypes(streams.consultation(id)), before, 'nothing was written');
    now = new Date();
  });

  it("a doctor's rejection reason for a patient whose key is gone: 410; without a reason the rejection goes through", async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Neha Rao' });
    const patient = await spec.given.patient({ name: 'Gita Pillai' });
    const { appointment_id: id, slot } = await spec.given.appointment({ doctor, patient, notes: 'Cough' });
    // The key goes without the erasure event (a failure between the two, or an erasure this process has not read yet).
    await keyRingOf(t.app.eventStore)!.destroy(patient.user_id);
    const reject = (body: object) => spec.when((http) => http.post(`/api/v1/appointments/${id}/reject`).set(doctor.auth).send(body));
    assertClosedAnswer(await reject({ reason: 'Please see Ms. Pillai in person' }), 'the rejection with a reason').expectNoEvents();
    assert.deepEqual(await streamTypes(streams.appointment(id)), ['AppointmentRequested'], 'nothing was written');
    (await reject({}))
      .expectStatus(200)
      .expectEvents([{ stream: streams.appointment(id), type: 'AppointmentRejected' }])
      .expectReactions([{ stream: streams.slot(slot.slot_id), type: 'SlotReleased' }]);
    const raw = await ciphertextLog(t.app.eventStore).readStream(streams.appointment(id));
    assert.notEqual((raw.at(-1)!.data as { reason: string | null }).reason, ERASED_VALUE, 'no reason stored as erased');
  });

  it("notes for an erased patient: kept under the legal hold while their clinical key lives, refused (410) once it is destroyed", async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Neha Rao' });
    const patient = await spec.given.patient({ name: 'Farah Khan' });
    const { appointment_id: id } = await more.consultation({ doctor, patient, setNow: (d) => (now = d) });
    const notes = (complaint: string) => spec.when((http) => http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: true, chief_complaint: complaint }));
    await more.erasure(patient);
    (await notes('Headache')).expectStatus(200).expectEvents([{ stream: streams.consultationNotes(id), type: 'ConsultationNotesSaved' }]);
    const before = await streamTypes(streams.consultationNotes(id));
    // The retention period's end destroys the clinical key (ClinicalRecordsDestroyed); a key is never made again.
    await keyRingOf(t.app.eventStore)!.destroy(clinicalRecordsSubject(patient.user_id));
    assertClosedAnswer(await notes('Headache, worse at night'), 'notes after the clinical key is gone').expectNoEvents();
    assert.equal(before.length > 0, true, 'the notes kept under the legal hold were written');
    assert.deepEqual(await streamTypes(streams.consultationNotes(id)), before, 'nothing was written');
    assert.equal(await keyRingOf(t.app.eventStore)!.store.get(clinicalRecordsSubject(patient.user_id)), null, 'no clinical key was made again');
    now = new Date();
  });

  it('a profile update decided before its person was erased, appended after: a 4xx, nothing written after the erasure', async () => {
    const admin = await t.createUser('admin');
    const patient = await spec.given.patient({ name: 'Arjun Mehta' });
    // The erasure is made meanwhile, as its own request (its own correlation id): none of the update's writes.
    const release = holdAppend(
      (stream, types) => stream === streams.user(patient.user_id) && types.includes('UserProfileUpdated'),
      async () => void (await t.http.post(`/api/v1/admin/users/${patient.user_id}/erasure`).set(admin.auth).expect(200)),
    );
    let res: Then;
    try {
      res = await spec.when((http) => http.put('/api/v1/users/me').set(patient.auth).send({ name: 'Arjun K. Mehta' }));
    } finally {
      release();
    }
    assert.ok(res.status >= 400 && res.status < 500, `a 4xx, not ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(typeof res.body.detail, 'string', 'with a detail');
    res.expectEvents([]).expectReactions([]);
    const types = await streamTypes(streams.user(patient.user_id));
    assert.equal(types.at(-1), 'PersonalDataErased', `nothing after the erasure: ${types.join(', ')}`);
  });
});
