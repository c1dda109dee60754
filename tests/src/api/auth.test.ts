import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { API_TEXTS, streams } from '@telemed/contracts';
import { TokenService, hashPassword, loadTokenSecret } from '@telemed/platform';
import { handleCommand, systemContext, userDecider } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { runNpm } from '../support/processes';

const password = 'correct horse battery staple';
type Tokens = { access_token: string; refresh_token: string };
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An operator whose password is `password`: their account and their e-mail. */
async function givenSupportAdmin(spec: ApiSpec, name?: string): Promise<TestUser & { email: string }> {
  const admin = await spec.t.createUser('admin', { name });
  await handleCommand(spec.t.app.eventStore, streams.user(admin.user_id), userDecider, { type: 'SetPassword', data: { password_hash: await hashPassword(password) } }, systemContext(new Date(), null));
  const email = (await spec.read((http) => http.get('/api/v1/users/me').set(admin.auth).expect(200))).body.email as string;
  return { ...admin, email };
}
const signIn = (spec: ApiSpec, email: string, pw = password) => spec.when((http) => http.post('/api/v1/auth/support').send({ email, password: pw }));

describe('sign-in, sessions and tokens', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: '3', LOGIN_RATE_LIMIT_PER_ADDRESS: '12', ACCESS_TOKEN_TTL_SECONDS: '3600' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  describe('support sign-in', () => {
    it('answers tokens and the user with its role', async () => {
      const admin = await givenSupportAdmin(spec, 'Support Lead');
      const res = (await signIn(spec, admin.email.toUpperCase())).expectStatus(200).expectEvents([{ type: 'SessionStarted' }]);
      assert.equal(res.body.status, 'success');
      assert.equal(res.body.token_type, 'bearer');
      assert.equal(res.body.expires_in, 3600);
      assert.deepEqual(res.body.user, { id: admin.user_id, user_id: admin.user_id, name: 'Support Lead', email: admin.email, account_type: 'admin', role: 'admin' });
      await spec.read((http) => http.get('/api/v1/admin/projections').set(bearer(res.body.access_token)).expect(200));
    });

    it('a wrong password and an unknown e-mail get the same 401', async () => {
      const admin = await givenSupportAdmin(spec);
      const wrong = (await signIn(spec, admin.email, 'not the password')).expectStatus(401).expectNoEvents();
      const unknown = (await signIn(spec, 'nobody@example.in')).expectStatus(401).expectNoEvents();
      assert.equal(wrong.body.detail, API_TEXTS.loginFailed);
      assert.equal(unknown.body.detail, API_TEXTS.loginFailed);
    });

    it('missing fields are 422', async () => {
      (await spec.when((http) => http.post('/api/v1/auth/support').send({ email: 'a@b.in' }))).expectStatus(422).expectNoEvents();
      (await spec.when((http) => http.post('/api/v1/auth/support').send({ email: 'not-an-email', password: 'x' }))).expectStatus(422).expectNoEvents();
    });

    it('slows guessing: after 3 failures from one address that pair answers 429 with Retry-After, even to the right password', async () => {
      const victim = await givenSupportAdmin(spec);
      for (let i = 0; i < 3; i += 1) (await signIn(spec, victim.email, `guess ${i}`)).expectStatus(401).expectNoEvents();
      const blocked = (await signIn(spec, victim.email, 'guess 4')).expectStatus(429).expectNoEvents();
      assert.ok(Number(blocked.headers['retry-after']) > 0);
      (await signIn(spec, victim.email)).expectStatus(429).expectNoEvents();
    });

    it('limits attempts per address across accounts', async () => {
      // An app of its own: the address's budget spent here would refuse every other case's sign-in from it.
      const own = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: '3', LOGIN_RATE_LIMIT_PER_ADDRESS: '12' } });
      try {
        const ownSpec = apiSpec(own);
        let last = 0;
        for (let i = 0; i < 14; i += 1) last = (await signIn(ownSpec, `random${i}@example.in`, 'x')).expectNoEvents().status;
        assert.equal(last, 429);
      } finally {
        await own.close();
      }
    });
  });

  describe('sessions', () => {
    let fresh: TestApp;
    let freshSpec: ApiSpec;
    before(async () => {
      fresh = await startTestApp();
      freshSpec = apiSpec(fresh);
    });
    after(() => fresh.close());

    /** An operator with a password, signed in: their e-mail and the session's tokens. */
    const givenSession = async () => {
      const admin = await givenSupportAdmin(freshSpec);
      const res = await fresh.http.post('/api/v1/auth/support').send({ email: admin.email, password });
      assert.equal(res.status, 200, `given: signed in (${res.text})`);
      return { admin, session: res.body as Tokens };
    };
    const refresh = (body: object) => freshSpec.when((http) => http.post('/api/v1/auth/refresh').send(body));
    const me = (token: string, status: number) => freshSpec.read((http) => http.get('/api/v1/users/me').set(bearer(token)).expect(status));

    it('refresh rotates the refresh token; reusing an old one ends the session', async () => {
      const { admin, session } = await givenSession();
      const sessionStream = streams.session(session.refresh_token.split('.')[0]!);
      const first = (await refresh({ refresh_token: session.refresh_token })).expectStatus(200).expectEvents([{ stream: sessionStream, type: 'SessionRefreshed' }]);
      assert.notEqual(first.body.refresh_token, session.refresh_token);
      // Tokens are never kept by a cache (RFC 6749 §5.1), as no answer to a command is.
      assert.match(String(first.headers['cache-control']), /no-store/);
      const again = (await signIn(freshSpec, admin.email)).expectStatus(200).expectEvents([{ type: 'SessionStarted' }]);
      assert.match(String(again.headers['cache-control']), /no-store/);
      await me(first.body.access_token, 200);
      const reused = (await refresh({ refresh_token: session.refresh_token }))
        .expectStatus(401)
        .expectEvents([{ stream: sessionStream, type: 'SessionEnded', data: { reason: 'refresh_token_reused' } }]);
      assert.equal(reused.body.detail, API_TEXTS.sessionExpired);
      (await refresh({ refresh_token: first.body.refresh_token })).expectStatus(401).expectNoEvents();
      const ended = await me(first.body.access_token, 401);
      assert.equal(ended.body.detail, API_TEXTS.sessionEnded);
    });

    it('logout ends the session: its access and refresh tokens stop working', async () => {
      const { session } = await givenSession();
      const auth = bearer(session.access_token);
      await freshSpec.read((http) => http.get('/api/v1/doctors/').set(auth).expect(200));
      (await freshSpec.when((http) => http.post('/api/v1/auth/logout').set(auth)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.session(session.refresh_token.split('.')[0]!), type: 'SessionEnded', data: { reason: 'logout' } }]);
      await freshSpec.read((http) => http.get('/api/v1/doctors/').set(auth).expect(401));
      (await refresh({ refresh_token: session.refresh_token })).expectStatus(401).expectNoEvents();
    });

    it('deactivation ends what was signed in before it: a reactivation brings back neither the access nor the refresh token, only a new sign-in', async () => {
      const { admin, session } = await givenSession();
      const other = await fresh.createUser('admin');
      const setActive = (is_active: boolean) => freshSpec.when((http) => http.put(`/api/v1/admin/users/${admin.user_id}`).set(other.auth).send({ is_active }));
      // The operator's answer shows the account: a read on their access log.
      const audited = { stream: streams.accessAudit(other.user_id), type: 'PersonalDataAccessed' };
      (await setActive(false)).expectStatus(200).expectEvents([audited, { stream: streams.user(admin.user_id), type: 'UserDeactivated' }]);
      (await setActive(true)).expectStatus(200).expectEvents([audited, { stream: streams.user(admin.user_id), type: 'UserReactivated' }]);
      const refused = await me(session.access_token, 401);
      assert.equal(refused.body.detail, API_TEXTS.sessionEnded);
      (await refresh({ refresh_token: session.refresh_token })).expectStatus(401).expectNoEvents();
      const again = (await signIn(freshSpec, admin.email)).expectStatus(200).body as Tokens;
      await me(again.access_token, 200);
      (await refresh({ refresh_token: again.refresh_token })).expectStatus(200).expectEvents([{ type: 'SessionRefreshed' }]);
    });

    it('garbage refresh tokens are 401 or 422, never 500', async () => {
      (await refresh({ refresh_token: 'x' })).expectStatus(401).expectNoEvents();
      (await refresh({ refresh_token: '00000000-0000-0000-0000-000000000000.abc' })).expectStatus(401).expectNoEvents();
      (await refresh({})).expectStatus(422).expectNoEvents();
      // A real refresh token with anything after it is not that token.
      const { session } = await givenSession();
      (await refresh({ refresh_token: `${session.refresh_token}.extra` })).expectStatus(401).expectNoEvents();
      (await refresh({ refresh_token: session.refresh_token })).expectStatus(200).expectEvents([{ type: 'SessionRefreshed' }]);
    });

    it("a validly signed token must agree with what is stored: the account's type and the session's owner", async () => {
      const { session } = await givenSession();
      const patient = await freshSpec.given.patient();
      // Signed with the product's own secret (as a leaked one would be): a patient claiming to be an admin, and a
      // patient's token naming the admin's session.
      const asAdmin = await fresh.app.tokens.issue({ user_id: patient.user_id, account_type: 'admin' });
      const refused = await freshSpec.read((http) => http.get('/api/v1/admin/projections').set(bearer(asAdmin)).expect(401));
      assert.equal(refused.body.detail, API_TEXTS.invalidToken);
      const adminSession = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString()).sid as string;
      assert.ok(adminSession);
      const borrowed = await fresh.app.tokens.issue({ user_id: patient.user_id, account_type: 'patient', session_id: adminSession });
      assert.equal((await me(borrowed, 401)).body.detail, API_TEXTS.invalidToken);
      await freshSpec.read((http) => http.get('/api/v1/users/me').set(patient.auth).expect(200));
    });
  });

  describe('tokens', () => {
    it('an expired token is 401 Session expired', async () => {
      const admin = await t.createUser('admin');
      const old = await t.app.tokens.issue({ user_id: admin.user_id, account_type: 'admin' }, new Date(Date.now() - 2 * 3600_000));
      const res = await spec.read((http) => http.get('/api/v1/users/me').set(bearer(old)).expect(401));
      assert.equal(res.body.detail, API_TEXTS.sessionExpired);
    });

    it('refuses another issuer, another audience, alg none and a changed role', async () => {
      const admin = await t.createUser('admin');
      const secret = loadTokenSecret({ dataDir: t.dataDir, production: false });
      const other = (issuer: string, audience: string) => new TokenService({ secret, issuer, audience, ttlSeconds: 600 });
      for (const token of [
        await other('someone-else', 'telemed-api').issue({ user_id: admin.user_id, account_type: 'admin' }),
        await other('telemed', 'another-api').issue({ user_id: admin.user_id, account_type: 'admin' }),
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: admin.user_id, account_type: 'admin', iss: 'telemed', aud: 'telemed-api', exp: 9e9, iat: 1 })).toString('base64url')}.`,
        await new SignJWT({ account_type: 'admin' }).setProtectedHeader({ alg: 'HS512' }).setSubject(admin.user_id).setIssuer('telemed').setAudience('telemed-api').setIssuedAt().setExpirationTime('1h').sign(secret),
      ]) {
        const res = await spec.read((http) => http.get('/api/v1/users/me').set(bearer(token)).expect(401));
        assert.equal(res.body.detail, API_TEXTS.invalidToken);
      }
      const patient = await spec.given.patient();
      const [h, p, sig] = patient.token.split('.');
      const elevated = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), account_type: 'admin' })).toString('base64url');
      await spec.read((http) => http.get('/api/v1/admin/projections').set(bearer(`${h}.${elevated}.${sig}`)).expect(401));
    });

    it("a deactivated user's tokens stop working; only admins deactivate", async () => {
      const admin = await t.createUser('admin');
      const leaving = await spec.given.doctor();
      await spec.read((http) => http.get('/api/v1/users/me').set(leaving.auth).expect(200));
      const deactivate = (who: TestUser, userId: string) => spec.when((http) => http.delete(`/api/v1/admin/users/${userId}`).set(who.auth));
      (await deactivate(leaving, leaving.user_id)).expectStatus(403).expectNoEvents();
      (await deactivate(admin, 'nobody')).expectStatus(404).expectNoEvents();
      (await deactivate(admin, admin.user_id)).expectStatus(409).expectNoEvents();
      (await deactivate(admin, leaving.user_id)).expectStatus(200).expectEvents([{ stream: streams.user(leaving.user_id), type: 'UserDeactivated' }]);
      const refused = await spec.read((http) => http.get('/api/v1/users/me').set(leaving.auth).expect(401));
      assert.equal(refused.body.detail, API_TEXTS.accountDisabled);
    });
  });

  describe('npm run cli -- admin:create', () => {
    let cli: TestApp;
    before(async () => (cli = await startTestApp()));
    after(() => cli.close());
    it('creates an admin whose password signs in', async () => {
      const t = cli;
      const created = await runNpm(['cli', '--', 'admin:create', '--email', 'ops@clinic.in', '--name', 'Ops'], { DATA_DIR: t.dataDir }, 'a very long passphrase\n');
      assert.equal(created.code, 0, created.stderr);
      const { user_id } = JSON.parse(created.stdout) as { user_id: string };
      // The running server reads the shared log: settle() waits until its read models hold the CLI's events.
      await t.settle();
      const res = await t.http.post('/api/v1/auth/support').send({ email: 'ops@clinic.in', password: 'a very long passphrase' });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.user_id, user_id);
      const duplicate = await runNpm(['cli', '--', 'admin:create', '--email', 'OPS@clinic.in'], { DATA_DIR: t.dataDir }, 'another long passphrase\n');
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.stderr, /already exists/);
      const short = await runNpm(['cli', '--', 'admin:create', '--email', 'x@clinic.in'], { DATA_DIR: t.dataDir }, 'short\n');
      assert.equal(short.code, 2);
    });
  });
});
