import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSENT_NOTICE_VERSION, streams } from '@telemed/contracts';
import { hashPassword } from '@telemed/platform';
import { handleCommand, systemContext, userDecider } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

/**
 * A user stream gains an event with every profile edit, subscription, consent and password. Signing in, editing the
 * profile, agreeing or withdrawing, subscribing, an admin's (de)activation and the erasure read the events since the
 * last look and the few events that hold the account's personal fields, not everything the account ever did.
 */
describe("a user's requests do not read the user's whole history", () => {
  let t: TestApp;
  let staff: TestUser;
  let patient: TestUser;
  let doctor: TestUser;
  let operator: TestUser;
  const password = 'correct horse battery staple';
  let staffEmail: string;

  before(async () => {
    t = await startTestApp();
    staff = await t.createUser('admin', { name: 'Support Lead' });
    operator = await t.createUser('admin');
    doctor = await t.createUser('doctor', { name: 'Dr. Kavya' });
    patient = await t.createUser('patient', { name: 'Asha 0', phone_number: '+91 90000 00000' });
    await handleCommand(t.app.eventStore, streams.user(staff.user_id), userDecider, { type: 'SetPassword', data: { password_hash: await hashPassword(password) } }, systemContext(new Date(), null));
    staffEmail = (await t.http.get('/api/v1/users/me').set(staff.auth).expect(200)).body.email as string;
    // Years of edits on both accounts.
    for (let i = 1; i <= 35; i += 1) {
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ name: `Asha ${i}`, phone_number: `+91 90000 ${String(i).padStart(5, '0')}` }).expect(200);
      await t.http.put('/api/v1/users/me').set(staff.auth).send({ name: `Support Lead ${i}` }).expect(200);
    }
    // Each kept fold folds a stream whole at its first look in a process, then only what is new: the first sign-in,
    // consent change and deactivation here make those first looks, so the requests below show the steady cost.
    await t.http.post('/api/v1/auth/support').send({ email: staffEmail, password }).expect(200);
    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).send({ is_active: false }).expect(200);
    await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).send({ is_active: true }).expect(200);
    await t.settle();
    patient = await t.signInAgain(patient, 'patient'); // what was signed in before the deactivation stays ended
  });
  after(() => t.close());

  it('reads the events since the last look and one event per personal field it needs, and answers the account as it is', async () => {
    for (const user of [patient, staff]) assert.ok((await t.app.eventStore.readStream(streams.user(user.user_id))).length > 35, 'a long history');
    const patientReads = eventsReadFrom(t.app.eventStore, streams.user(patient.user_id));
    const staffReads = eventsReadFrom(t.app.eventStore, streams.user(staff.user_id));
    try {
      const signedIn = await t.http.post('/api/v1/auth/support').send({ email: staffEmail, password }).expect(200);
      assert.equal(signedIn.body.user.name, 'Support Lead 35', 'the name as last set');
      await t.http.post('/api/v1/auth/support').send({ email: staffEmail, password: 'wrong password' }).expect(401);

      await t.http.put('/api/v1/users/me').set(patient.auth).send({ name: 'Asha Rao' }).expect(200);
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ name: 'Asha Rao' }).expect(200);
      await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: doctor.user_id }).expect(200);
      await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
      await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);

      const off = await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).send({ is_active: false }).expect(200);
      assert.deepEqual([off.body.name, off.body.phone_number, off.body.is_active], ['Asha Rao', '+91 90000 00035', false], 'the account as it is, deactivated');
      const on = await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).send({ is_active: true }).expect(200);
      assert.equal(on.body.is_active, true);

      // Signed in again since the deactivation (what was signed in before it stays ended).
      const erased = await t.http.post('/api/v1/users/me/erasure').set((await t.signInAgain(patient, 'patient')).auth).expect(200);
      assert.ok(erased.body.erased_at, 'the erasure answers when');
      const again = await t.http.post(`/api/v1/admin/users/${patient.user_id}/erasure`).set(operator.auth).expect(200);
      assert.equal(again.body.erased_at, erased.body.erased_at, 'again: the first erasure, read from its one event');
    } finally {
      patientReads.stop();
      staffReads.stop();
    }
    for (const [who, reads] of [['patient', patientReads], ['staff', staffReads]] as const) {
      assert.ok(reads.counts.length > 0, `the requests read the ${who}'s stream`);
      assert.ok(
        reads.counts.every((n) => n <= 8),
        `each read of the ${who}'s stream (over 35 events) returns the few events since its fold last looked, or one event (read: ${reads.counts.join(', ')})`,
      );
    }
  });
});
