import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CREDIT_PACKS, STARTING_CREDITS, streams } from '@telemed/contracts';
import { handleCommand, systemContext, walletDecider } from '@telemed/command';
import { startTestApp, type TestApp } from '../support/test-app';

/** A patient's credits on the server (issue 36): the balance and the statement, each patient's own. */
describe('wallet', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { STARTING_CREDITS: String(STARTING_CREDITS) } });
  });
  after(() => t.close());

  it('a new patient has the starting grant and an empty statement; their changes show on their own wallet only', async () => {
    const [patient, other] = [await t.createUser('patient'), await t.createUser('patient')];
    const fresh = await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200);
    assert.deepEqual(fresh.body, { balance: STARTING_CREDITS, held: 0, rupees_per_credit: 1, packs: CREDIT_PACKS.map((p) => ({ ...p })) });
    assert.deepEqual((await t.http.get('/api/v1/wallet/me/entries').set(patient.auth).expect(200)).body, []);

    // The write side's own decisions (booking holds and purchases come with their routes): a hold, then a return.
    const decide = (command: Parameters<typeof walletDecider.decide>[0]) => handleCommand(t.app.eventStore, streams.wallet(patient.user_id), walletDecider, command, systemContext(new Date(), null));
    await decide({ type: 'HoldFee', data: { patient_id: patient.user_id, appointment_id: 'a-1', credits: 60 } });
    await decide({ type: 'ReturnFee', data: { patient_id: patient.user_id, appointment_id: 'a-1', reason: 'rejected' } });
    await decide({ type: 'HoldFee', data: { patient_id: patient.user_id, appointment_id: 'a-2', credits: 30 } });
    await t.settle();

    assert.deepEqual((await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200)).body.held, 30);
    assert.equal((await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200)).body.balance, STARTING_CREDITS - 30);
    const statement = (await t.http.get('/api/v1/wallet/me/entries?limit=2').set(patient.auth).expect(200)).body as Array<{ entry_id: string; kind: string; credits: number }>;
    assert.deepEqual(statement.map((e) => [e.kind, e.credits]), [['held', -30], ['returned', 60]]);
    const rest = (await t.http.get(`/api/v1/wallet/me/entries?limit=10&before=${statement[1]!.entry_id}`).set(patient.auth).expect(200)).body as Array<{ kind: string; credits: number }>;
    assert.deepEqual(rest.map((e) => [e.kind, e.credits]), [['held', -60], ['opened', STARTING_CREDITS]]);

    // Another patient's wallet is untouched, and their cursor cannot page through this one's statement.
    assert.equal((await t.http.get('/api/v1/wallet/me').set(other.auth).expect(200)).body.balance, STARTING_CREDITS);
    assert.deepEqual((await t.http.get(`/api/v1/wallet/me/entries?before=${statement[0]!.entry_id}`).set(other.auth).expect(200)).body, []);
  });

  it("a platform admin corrects a patient's credits with a reason; never below zero, never anyone but a platform admin", async () => {
    const [admin, patient, doctor] = [await t.createUser('admin'), await t.createUser('patient'), await t.createUser('doctor')];
    const adjust = (by: { auth: Record<string, string> }, who: string, body: object) => t.http.post(`/api/v1/admin/wallets/${who}/adjustments`).set(by.auth).send(body);
    const added = await adjust(admin, patient.user_id, { credits: 250, reason: 'Goodwill after a dropped call' }).expect(201);
    assert.deepEqual(added.body, { patient_id: patient.user_id, credits: 250, reason: 'Goodwill after a dropped call' });
    await t.settle();
    assert.equal((await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200)).body.balance, STARTING_CREDITS + 250);
    const below = await adjust(admin, patient.user_id, { credits: -(STARTING_CREDITS + 251), reason: 'Too much' }).expect(409);
    assert.equal(below.body.code, 'adjustment_below_zero');
    for (const body of [{ credits: 0, reason: 'Nothing' }, { credits: 10, reason: '' }, { credits: 1.5, reason: 'Half' }, { credits: 100_001, reason: 'Huge' }]) {
      assert.equal((await adjust(admin, patient.user_id, body).expect(422)).body.code, 'validation_failed', JSON.stringify(body));
    }
    await adjust(patient, patient.user_id, { credits: 10, reason: 'Myself' }).expect(403);
    await adjust(doctor, patient.user_id, { credits: 10, reason: 'A doctor' }).expect(403);
    await adjust(admin, doctor.user_id, { credits: 10, reason: 'Not a patient' }).expect(404);
    await adjust(admin, 'no-such-user', { credits: 10, reason: 'Nobody' }).expect(404);
    await t.settle();
    const entries = (await t.http.get('/api/v1/wallet/me/entries').set(patient.auth).expect(200)).body as Array<{ kind: string; credits: number }>;
    assert.deepEqual(entries.map((e) => [e.kind, e.credits]), [['adjusted', 250], ['opened', STARTING_CREDITS]]);
  });

  it('refuses bad paging with 422', async () => {
    const patient = await t.createUser('patient');
    const res = await t.http.get('/api/v1/wallet/me/entries?limit=0').set(patient.auth).expect(422);
    assert.equal(res.body.code, 'validation_failed');
  });
});
