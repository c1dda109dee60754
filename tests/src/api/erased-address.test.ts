import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { streams } from '@telemed/contracts';
import { ciphertextLog, keyIdOf, privateDigest } from '@telemed/platform';
import { findUserIdByEmail, registerUser } from '@telemed/command';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * The privacy audit (issue 12): an address's claim stream is named by a keyed digest, so whoever holds the server's
 * keys can test an address and find it. After the account's erasure nothing left there may lead to the account: not
 * the claim's data (read with every key the server still has), not its metadata, not the key id its ciphertexts carry
 * (shared with the account's events, it would name them), not the key store's tombstone of that key. And the address
 * is free again (Google sign-in: google-signin.test.ts).
 */
describe("an erased account's e-mail address", () => {
  let t: TestApp;
  let spec: ApiSpec;
  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Every key-store row (tombstones included) by key id, read from the file as anyone holding it could. */
  async function keyStoreRows(): Promise<Map<string, { subject_id: string; destroyed_at: string | null }>> {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(t.dataDir, 'keys.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT key_id, subject_id, destroyed_at FROM data_keys').all() as Array<{ key_id: string; subject_id: string; destroyed_at: string | null }>;
      return new Map(rows.map((r) => [r.key_id, r]));
    } finally {
      db.close();
    }
  }

  const keyIdsIn = (data: object) => Object.values(data).flatMap((v) => (typeof v === 'string' && keyIdOf(v) ? [keyIdOf(v)!] : []));

  it('cannot be linked to the account through what remains, and registers a new account', async () => {
    const email = 'Kavya.Erased@clinic.in';
    const correlation_id = randomUUID();
    const institutionAdmin = await spec.given.patient();
    // As an institution creates a member's account: its admin as actor, the request's correlation id.
    const context = { actor: { user_id: institutionAdmin.user_id, role: 'patient' as const }, now: new Date(), correlation_id, causation_id: null };
    const { user_id } = await registerUser(t.app.eventStore, { email, name: 'Kavya Rao', account_type: 'patient', phone_number: '+91 90000 12345' }, context);
    assert.equal(await findUserIdByEmail(t.app.eventStore, email), user_id, 'the address finds its account');
    const token = await t.app.tokens.issue({ user_id, account_type: 'patient' });
    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set({ Authorization: `Bearer ${token}` })))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(user_id), type: 'PersonalDataErased', data: { requested_by: 'self' } }])
      .expectReactions([]);

    // With the server's keys: the address's claim stream, read decrypted and as stored.
    const digest = await privateDigest(t.app.eventStore, 'email claim', email.toLowerCase());
    assert.ok(digest, 'the store keeps keys');
    const stream = streams.email(digest);
    const claims = await t.app.eventStore.readStream(stream);
    assert.ok(claims.length >= 1, 'the claim is still in the log (events are never deleted)');
    for (const claim of claims) {
      const text = JSON.stringify({ data: claim.data, metadata: claim.metadata });
      assert.ok(!text.includes(user_id), `the claim names the erased account nowhere: ${text}`);
      assert.ok(!text.includes(correlation_id), "nor the request's correlation id, which the account's events carry");
      assert.ok(!text.includes(institutionAdmin.user_id), 'nor who created the account');
      assert.ok(!text.includes('kavya'), 'nor the address');
    }
    const stored = await ciphertextLog(t.app.eventStore).readStream(stream);
    const claimKeyIds = new Set(stored.flatMap((e) => keyIdsIn(e.data as object)));
    assert.ok(claimKeyIds.size > 0, 'the claim is sealed');
    const accountKeyIds = new Set((await ciphertextLog(t.app.eventStore).readStream(streams.user(user_id))).flatMap((e) => keyIdsIn(e.data as object)));
    assert.ok(accountKeyIds.size > 0, "the account's own events are sealed");
    for (const keyId of claimKeyIds) assert.ok(!accountKeyIds.has(keyId), "the claim's key id is none of the account's");
    const rows = await keyStoreRows();
    for (const keyId of claimKeyIds) {
      const row = rows.get(keyId);
      assert.ok(row, "the claim's key is in the key store");
      assert.ok(row.destroyed_at, "the claim's key was destroyed with the account");
      assert.ok(!row.subject_id.includes(user_id), "its tombstone's subject is not the account's");
    }

    // The address is free again, here as on every path (all register through registerUser).
    assert.equal(await findUserIdByEmail(t.app.eventStore, email), null, 'no account holds the address');
    const again = await registerUser(t.app.eventStore, { email, name: 'Kavya R', account_type: 'patient' }, { ...context, now: new Date(), correlation_id: randomUUID() });
    assert.notEqual(again.user_id, user_id);
    assert.equal(await findUserIdByEmail(t.app.eventStore, email), again.user_id, 'the address finds the new account');
    await assert.rejects(
      registerUser(t.app.eventStore, { email, name: 'Someone else', account_type: 'patient' }, { ...context, now: new Date(), correlation_id: randomUUID() }),
      /already exists/,
      'and keeps it to that one',
    );
  });
});
