import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { API_TEXTS, ERASED_VALUE, ERASURE_TEXTS, PATIENT_ERASURE_LEGAL_HOLD, erasureResponseSchema, isEventType, streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext, keyRingOf, MemoryReadStore } from '@telemed/platform';
import { loadUser } from '@telemed/command';
import { ProjectionRunner, allProjections, readModelsChecksum } from '@telemed/query';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/** The bytes of the SQLite event store as they sit on disk (the file and its write-ahead log). */
function eventStoreBytes(dataDir: string): Buffer {
  return Buffer.concat(['events.db', 'events.db-wal'].map((f) => join(dataDir, f)).filter(existsSync).map((f) => readFileSync(f)));
}

describe('per-person encryption and erasure', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a doctor of this case and a patient with values found nowhere else, who booked one of their slots with a reason for the visit. */
  async function patientWithBooking(tag: string) {
    const doctor = await spec.given.doctor({ name: 'Dr. Kavya Menon' });
    const name = `Ishaan ${tag} Verma`;
    const phone = `+91 98${tag.length}${String(Date.now()).slice(-7)}`;
    const patient = await spec.given.patient({ name, phone_number: phone });
    const email = (await spec.read((http) => http.get('/api/v1/users/me').set(patient.auth).expect(200))).body.email as string;
    const notes = `Recurring ${tag} headaches after a fall`;
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, notes });
    return { doctor, patient, name, phone, email, notes, appointmentId: appointment_id, slotId: slot.slot_id };
  }
  /** The account closer's answer to an erasure: the patient's requested appointment is cancelled and its slot released. */
  function closed(p: { appointmentId: string; slotId: number }) {
    return [
      { stream: streams.appointment(p.appointmentId), type: 'AppointmentCancelled' },
      { stream: streams.slot(p.slotId), type: 'SlotReleased' },
    ];
  }
  const erasedBy = (user: TestUser) => spec.when((http) => http.post('/api/v1/users/me/erasure').set(user.auth));
  const erasedByAdmin = (admin: TestUser, userId: string) => spec.when((http) => http.post(`/api/v1/admin/users/${userId}/erasure`).set(admin.auth));

  it('encrypts personal fields on append: the log and its file hold ciphertext, readers get plain values', async () => {
    const p = await patientWithBooking('Cipher');
    (await spec.when((http) => http.post(`/api/v1/appointments/${p.appointmentId}/reject`).set(p.doctor.auth).send({ reason: 'Please see a neurologist in person' })))
      .expectStatus(200)
      .expectEvents([{ stream: streams.appointment(p.appointmentId), type: 'AppointmentRejected' }])
      .expectReactions([{ stream: streams.slot(p.slotId), type: 'SlotReleased' }]);

    const raw = await ciphertextLog(t.app.eventStore).readAll({ fromPosition: 0, limit: 10_000 });
    const registered = raw.find((e) => e.type === 'UserRegistered' && (e.data as { user_id: string }).user_id === p.patient.user_id)!;
    const { name, email, phone_number } = registered.data as { name: string; email: string; phone_number: string };
    for (const value of [name, email, phone_number]) assert.ok(isCiphertext(value), `stored as ciphertext: ${value.slice(0, 12)}…`);
    const requested = raw.find((e) => e.type === 'AppointmentRequested' && (e.data as { appointment_id: string }).appointment_id === p.appointmentId)!;
    assert.ok(isCiphertext((requested.data as { notes: string }).notes));
    const rejected = raw.find((e) => e.type === 'AppointmentRejected' && (e.data as { appointment_id: string }).appointment_id === p.appointmentId)!;
    assert.ok(isCiphertext((rejected.data as { reason: string }).reason), "the rejection reason, under the stream's patient");

    const bytes = eventStoreBytes(t.dataDir);
    for (const value of [p.name, p.email, p.phone, p.notes, 'Please see a neurologist', 'Kavya Menon']) {
      assert.equal(bytes.indexOf(value), -1, `the event store file holds no "${value}"`);
    }

    // Decrypted on load: the decider's fold and the read models see plain values.
    const user = await loadUser(t.app.eventStore, p.patient.user_id);
    assert.ok(user.status === 'registered');
    assert.deepEqual([user.name, user.email, user.phone_number], [p.name, p.email, p.phone]);
    const mine = await spec.read((http) => http.get('/api/v1/appointments/me?status=rejected&include_past=true').set(p.patient.auth).expect(200));
    const seen = (mine.body as Array<{ appointment_id: string; notes: string; rejection_reason: string; patient: { name: string } }>).find((a) => a.appointment_id === p.appointmentId)!;
    assert.deepEqual([seen.notes, seen.rejection_reason, seen.patient.name], [p.notes, 'Please see a neurologist in person', p.name]);
  });

  it('a person erases themselves: PersonalDataErased, the key is destroyed, the answer lists what is kept and why', async () => {
    const p = await patientWithBooking('Self');
    const admin = await t.createUser('admin');
    const res = (await erasedBy(p.patient)).expectStatus(200);
    const answer = erasureResponseSchema.parse(res.body);
    assert.deepEqual(Object.keys(res.body).sort(), ['erased_at', 'kept']);
    assert.ok(!Number.isNaN(Date.parse(answer.erased_at)));
    assert.deepEqual(answer.kept, PATIENT_ERASURE_LEGAL_HOLD);
    assert.ok(answer.kept.every((k) => k.what.length > 0 && k.why.length > 0));
    const retainedUntil = new Date(answer.erased_at);
    retainedUntil.setUTCFullYear(retainedUntil.getUTCFullYear() + 3);
    res.expectEvents([
      {
        stream: streams.user(p.patient.user_id),
        type: 'PersonalDataErased',
        data: { user_id: p.patient.user_id, requested_by: 'self', kept: answer.kept, clinical_records_retained_until: retainedUntil.toISOString() },
      },
    ]).expectReactions(closed(p));
    const [erased] = res.writtenOf('PersonalDataErased');
    assert.deepEqual(Object.keys(erased!.data as object).sort(), ['clinical_records_retained_until', 'kept', 'requested_by', 'user_id'], 'nothing else in the event');
    assert.deepEqual((erased!.metadata as { actor: unknown }).actor, { user_id: p.patient.user_id, role: 'patient' });
    assert.equal((erased!.metadata as { occurred_at: string }).occurred_at, answer.erased_at);
    assert.equal(await keyRingOf(t.app.eventStore)!.store.get(p.patient.user_id), null, 'the data key is gone');
    const registered = (await t.app.eventStore.readStream(streams.user(p.patient.user_id))).find((e) => e.type === 'UserRegistered')!;
    assert.deepEqual(registered.data, { user_id: p.patient.user_id, email: ERASED_VALUE, name: ERASED_VALUE, account_type: 'patient', phone_number: ERASED_VALUE });

    // The read models: the account is erased and inactive, the doctor's list shows the visit without the person.
    await spec.read((http) => http.get('/api/v1/users/me').set(p.patient.auth).expect(401));
    const users = await t.app.readStore.collection<{ _id: string } & Record<string, unknown>>('users').get(p.patient.user_id);
    assert.deepEqual([users?.name, users?.email, users?.phone_number, users?.active, users?.erased_at], [ERASED_VALUE, null, null, false, answer.erased_at]);
    // cancelled in the erased patient's name by the account closer (its answer above)
    const list = await spec.read((http) => http.get('/api/v1/appointments/me?status=requested,cancelled&include_past=true').set(p.doctor.auth).expect(200));
    const visit = (list.body as Array<{ appointment_id: string; patient_name: string; notes: string; slot_date?: string }>).find((a) => a.appointment_id === p.appointmentId)!;
    assert.deepEqual([visit.patient_name, visit.notes], [ERASED_VALUE, ERASED_VALUE], 'the appointment facts are kept, the person is not');
    const history = await spec.read((http) => http.get(`/api/v1/appointments/${p.appointmentId}/history`).set(p.doctor.auth).expect(200));
    assert.ok(!JSON.stringify(history.body).includes(p.notes));

    // Again (a retry): nothing new is recorded, the same answer; and the account cannot be signed in to.
    const again = (await erasedByAdmin(admin, p.patient.user_id)).expectStatus(200).expectBody(res.body).expectNoEvents();
    assert.equal(again.headers['x-event-position'], undefined);
  });

  it('a platform admin erases a person at their request; the record says so', async () => {
    const p = await patientWithBooking('Admin');
    const admin = await t.createUser('admin');
    const res = (await erasedByAdmin(admin, p.patient.user_id)).expectStatus(200);
    erasureResponseSchema.parse(res.body);
    res.expectEvents([{ stream: streams.user(p.patient.user_id), type: 'PersonalDataErased', data: { user_id: p.patient.user_id, requested_by: 'platform_admin' } }]).expectReactions(closed(p));
    assert.deepEqual((res.writtenOf('PersonalDataErased')[0]!.metadata as { actor: unknown }).actor, { user_id: admin.user_id, role: 'admin' });
    await t.http.get('/api/v1/users/me').set(p.patient.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(401);
    (await erasedByAdmin(admin, 'no-such-user')).expectStatus(404).expectNoEvents();
  });

  it("an operator cannot erase an operator's account, their own included: an admin's erasure is at their own request", async () => {
    const admin = await t.createUser('admin');
    const other = await t.createUser('admin');
    const refused = (await erasedByAdmin(admin, other.user_id)).expectStatus(409).expectNoEvents();
    assert.equal(refused.body.detail, ERASURE_TEXTS.adminOnOwnRequest);
    const own = (await erasedByAdmin(admin, admin.user_id)).expectStatus(409).expectNoEvents();
    assert.equal(own.body.detail, ERASURE_TEXTS.ownAccountViaAdmin);
    for (const id of [other.user_id, admin.user_id]) assert.equal((await loadUser(t.app.eventStore, id)).status, 'registered', 'nothing was erased');
    await t.http.get('/api/v1/users/me').set(other.auth).expect(200);
  });

  it("nobody else can erase a person: patients and doctors get 403, and the person's data stays readable", async () => {
    const p = await patientWithBooking('Other');
    const other = await spec.given.patient();
    for (const caller of [other, p.doctor]) {
      const res = (await erasedByAdmin(caller, p.patient.user_id)).expectStatus(403).expectNoEvents();
      assert.equal(typeof res.body.detail, 'string');
    }
    (await spec.when((http) => http.post(`/api/v1/admin/users/${p.patient.user_id}/erasure`))).expectStatus(401).expectNoEvents();
    (await spec.when((http) => http.post('/api/v1/users/me/erasure'))).expectStatus(401).expectNoEvents();
    const user = await loadUser(t.app.eventStore, p.patient.user_id);
    assert.ok(user.status === 'registered' && user.name === p.name);
    assert.notEqual(await keyRingOf(t.app.eventStore)!.store.get(p.patient.user_id), null);
  });

  it('a missing key reads as erased, never a crash: deciders fold, projections rebuild', async () => {
    const p = await patientWithBooking('Missing');
    // The key goes without the erasure event (as after a failure between the two, or a key store restored without it).
    await keyRingOf(t.app.eventStore)!.destroy(p.patient.user_id);
    const user = await loadUser(t.app.eventStore, p.patient.user_id);
    assert.ok(user.status === 'registered');
    assert.deepEqual([user.name, user.email, user.phone_number], [ERASED_VALUE, ERASED_VALUE, ERASED_VALUE]);
    const events = await t.app.eventStore.readStream(streams.appointment(p.appointmentId));
    assert.equal((events[0]!.data as { notes: string }).notes, ERASED_VALUE);
    // A doctor's answer still works on the appointment; a reason, which could only be sealed under the destroyed key,
    // is refused with 410 (erasure-writes.test.ts) rather than stored as erased.
    const reject = (body: object) => spec.when((http) => http.post(`/api/v1/appointments/${p.appointmentId}/reject`).set(p.doctor.auth).send(body));
    (await reject({ reason: 'Not available' })).expectStatus(410).expectNoEvents();
    (await reject({}))
      .expectStatus(200)
      .expectEvents([{ stream: streams.appointment(p.appointmentId), type: 'AppointmentRejected' }])
      .expectReactions([{ stream: streams.slot(p.slotId), type: 'SlotReleased' }]);
    const raw = await ciphertextLog(t.app.eventStore).readStream(streams.appointment(p.appointmentId));
    assert.equal(raw.at(-1)!.type, 'AppointmentRejected');
    const store = new MemoryReadStore();
    const count = await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: store, projections: allProjections }).catchUp();
    assert.ok(count > 0);
    assert.match(await readModelsChecksum(store, allProjections), /^[0-9a-f]+$/);
  });

  it('events written before encryption (plain values) read as they are', async () => {
    const log = ciphertextLog(t.app.eventStore);
    const userId = `legacy-${randomUUID()}`;
    const metadata = { actor: { user_id: 'system', role: 'system' }, correlation_id: 'c', causation_id: null, occurred_at: new Date().toISOString() };
    await log.appendToStream(streams.user(userId), [
      { event_id: randomUUID(), type: 'UserRegistered', data: { user_id: userId, email: 'old@x.in', name: 'Old Plain', account_type: 'patient', phone_number: null }, metadata },
    ]);
    const user = await loadUser(t.app.eventStore, userId);
    assert.ok(user.status === 'registered' && user.name === 'Old Plain' && user.email === 'old@x.in');
    assert.ok(isEventType('PersonalDataErased'));
  });

  it('an erased account cannot sign in with a password either (401, as every failed sign-in)', async () => {
    const p = await patientWithBooking('Refresh');
    (await erasedBy(p.patient)).expectStatus(200);
    (await spec.when((http) => http.post('/api/v1/auth/support').send({ email: p.email, password: 'whatever-it-was-123' })))
      .expectStatus(401)
      .expectBody({ detail: API_TEXTS.loginFailed, code: 'login_failed' })
      .expectNoEvents();
  });
});
