import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { runNpm } from '../support/processes';
import { eventually } from '../support/eventually';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** How the names were made before they were keyed: what anyone holding the log could compute. */
const plainEmailDigest = (email: string) => sha256(email.trim().toLowerCase());
const plainViewDigest = (postId: string, reader: string) => sha256(`${postId}\n${reader}`).slice(0, 32);

/** The event store's file with its write-ahead log, as they sit on disk. */
function eventStoreBytes(dir: string): Buffer {
  return Buffer.concat(['events.db', 'events.db-wal'].map((f) => join(dir, f)).filter(existsSync).map((f) => readFileSync(f)));
}

const metadata = () => ({ actor: { user_id: 'system', role: 'system' as const }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() });

/**
 * Issue 12's review: stream names are not encrypted, so those standing for personal values (an account's e-mail
 * address, what a signed-in reader read) are keyed digests, which the log alone can neither test nor link.
 */
describe('stream names (and a password hash) carry no plain digest of personal data', () => {
  let t: TestApp;
  // A sign-in retried while the CLI's write reaches the app must not run into the sign-in limits.
  before(async () => (t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: '1000', LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000', LOGIN_RATE_LIMIT_PER_ADDRESS: '1000' } })));
  after(() => t.close());

  const adminCreate = (email: string, password: string) => runNpm(['cli', '--', 'admin:create', '--email', email, '--name', 'Ops'], { DATA_DIR: t.dataDir }, `${password}\n`);
  const supportLogin = (email: string, password: string) => t.http.post('/api/v1/auth/support').send({ email, password });
  /** Signs in once the CLI's write (another process) has reached the app. */
  const signIn = (email: string, password: string) => eventually(() => supportLogin(email, password).expect(200), 5000);

  it("an address's claim is not named by its plain SHA-256; it still keeps the address to one account, old claims included, until erasure", async () => {
    const password = 'a very long passphrase';
    const created = await adminCreate('Keyed.Claim@clinic.in', password);
    assert.equal(created.code, 0, created.stderr);
    const { user_id } = JSON.parse(created.stdout) as { user_id: string };
    const signedIn = await signIn('keyed.claim@clinic.in', password);
    assert.equal(signedIn.body.user.user_id, user_id, 'the address finds its account');

    const passwordSet = (await ciphertextLog(t.app.eventStore).readStream(streams.user(user_id))).find((e) => e.type === 'PasswordSet');
    assert.ok(passwordSet && isCiphertext((passwordSet.data as { password_hash: string }).password_hash), "the password's hash is ciphertext under the account's key");
    assert.ok(!eventStoreBytes(t.dataDir).includes('$argon2'), 'no password hash in the event store file');

    const duplicate = await adminCreate('KEYED.CLAIM@clinic.in', 'another long passphrase');
    assert.equal(duplicate.code, 1, 'a second account with the address is refused');
    assert.match(duplicate.stderr, /already exists/, 'says why');

    // The same account's other address, claimed before names were keyed: straight into the log, the old way (a claim
    // then had no key of its own: its user_id in clear, as claims before encryption had their address too).
    const oldAddress = 'old.claim@clinic.in';
    await ciphertextLog(t.app.eventStore).appendToStream(streams.email(plainEmailDigest(oldAddress)), [{ event_id: randomUUID(), type: 'EmailClaimed', data: { email: oldAddress, user_id }, metadata: metadata() }], { expectedRevision: 'no_stream' });
    const bytes = eventStoreBytes(t.dataDir);
    assert.ok(bytes.includes(plainEmailDigest(oldAddress)), 'the search finds a plain digest where one was written');
    assert.ok(!bytes.includes(plainEmailDigest('keyed.claim@clinic.in')), 'no plain digest of the address in the event store file');

    const old = await supportLogin('Old.Claim@clinic.in', password).expect(200);
    assert.equal(old.body.user.user_id, user_id, 'an old claim still finds its account');
    const oldDuplicate = await adminCreate(oldAddress, 'another long passphrase');
    assert.equal(oldDuplicate.code, 1, 'an old claim still refuses a second account');
    assert.match(oldDuplicate.stderr, /already exists/, 'says why');

    await t.http.post('/api/v1/users/me/erasure').set({ Authorization: `Bearer ${signedIn.body.access_token as string}` }).expect(200);
    await supportLogin('keyed.claim@clinic.in', password).expect(401);
    for (const address of ['keyed.claim@clinic.in', oldAddress]) {
      const again = await adminCreate(address, 'a new long passphrase');
      assert.equal(again.code, 0, `erasure released ${address}: ${again.stderr}`);
      const newcomer = (JSON.parse(again.stdout) as { user_id: string }).user_id;
      assert.notEqual(newcomer, user_id, 'a new account');
      assert.equal((await signIn(address, 'a new long passphrase')).body.user.user_id, newcomer, `${address} now finds the new account`);
    }
    const after = eventStoreBytes(t.dataDir);
    assert.ok(!after.includes(plainEmailDigest('keyed.claim@clinic.in')), 'the new claim has no plain digest either');
    assert.equal((await t.app.eventStore.readStream(streams.email(plainEmailDigest(oldAddress)))).length, 1, 'the old claim stream was not written again');
  });

  describe('views of a post', () => {
    let author: TestUser;
    let reader: TestUser;
    let earlyReader: TestUser;
    let postId: string;
    before(async () => {
      author = await t.createUser('doctor');
      reader = await t.createUser('patient');
      earlyReader = await t.createUser('patient');
      const body = { title: 'Monsoon fevers', description: 'Dengue, malaria, typhoid', content: { time: 0, blocks: [{ type: 'paragraph', data: { text: 'Drink boiled water.' } }], version: '2.28.0' } };
      postId = (await t.http.post('/api/v1/blogs/').set(author.auth).send(body).expect(201)).body.id as string;
      await t.http.post(`/api/v1/blogs/${postId}/publish`).set(author.auth).expect(200);
    });

    const view = (session: string, who?: TestUser) => {
      const req = t.http.post(`/api/v1/blogs/${postId}/views`).send({ reader_session: session });
      return (who ? req.set(who.auth) : req).expect(200).then((r) => r.body.counted as boolean);
    };
    const views = async () => {
      await t.settle();
      return (await t.http.get(`/api/v1/blogs/${postId}`).set(author.auth).expect(200)).body.views as number;
    };

    it('are counted once per reader session and never for the author, under names the log alone cannot link to a reader', async () => {
      assert.equal(await view('session-aaaaaaaaaaaaaaaa', author), false, 'the author');
      assert.equal(await view('session-bbbbbbbbbbbbbbbb', reader), true, 'a signed-in reader');
      assert.equal(await view('session-cccccccccccccccc', reader), false, 'a signed-in reader is one session');
      assert.equal(await view('session-dddddddddddddddd'), true, 'a reader not signed in');
      assert.equal(await view('session-dddddddddddddddd'), false, 'the same session');
      assert.equal(await views(), 2, 'two readers');
      const bytes = eventStoreBytes(t.dataDir);
      assert.ok(!bytes.includes(plainViewDigest(postId, `user:${reader.user_id}`)), "no plain digest of the reader's account");
      assert.ok(!bytes.includes(plainViewDigest(postId, 'session:session-dddddddddddddddd')), 'no plain digest of the session');
    });

    it('a view counted before the names were keyed still counts once', async () => {
      const before = await views();
      const old = plainViewDigest(postId, `user:${earlyReader.user_id}`);
      await t.app.eventStore.appendToStream(streams.blogView(postId, old), [{ event_id: randomUUID(), type: 'BlogPostViewed', data: { post_id: postId, author_id: author.user_id, reader: old }, metadata: metadata() }], { expectedRevision: 'no_stream' });
      assert.equal(await views(), before + 1, 'the old view counts');
      assert.equal(await view('session-eeeeeeeeeeeeeeee', earlyReader), false, 'the same reader again');
      assert.equal(await views(), before + 1, 'still once');
      const oldSession = plainViewDigest(postId, 'session:session-ffffffffffffffff');
      await t.app.eventStore.appendToStream(streams.blogView(postId, oldSession), [{ event_id: randomUUID(), type: 'BlogPostViewed', data: { post_id: postId, author_id: author.user_id, reader: oldSession }, metadata: metadata() }], { expectedRevision: 'no_stream' });
      assert.equal(await view('session-ffffffffffffffff'), false, 'the same session again');
      assert.equal(await views(), before + 2, 'each old view once');
    });
  });
});
