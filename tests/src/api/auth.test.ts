import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { API_TEXTS, streams } from '@telemed/contracts';
import { TokenService, hashPassword, loadTokenSecret } from '@telemed/platform';
import { handleCommand, systemContext, userDecider } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { runNpm } from '../support/processes';

describe('sign-in, sessions and tokens', () => {
  let t: TestApp;
  let admin: TestUser;
  const password = 'correct horse battery staple';

  before(async () => {
    t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: '3', LOGIN_RATE_LIMIT_PER_ADDRESS: '12' } });
    admin = await t.createUser('admin', { name: 'Support Lead' });
    await handleCommand(
      t.app.eventStore,
      streams.user(admin.user_id),
      userDecider,
      { type: 'SetPassword', data: { password_hash: await hashPassword(password) } },
      systemContext(new Date(), null),
    );
  });
  after(() => t.close());

  const me = async (): Promise<{ email: string }> => (await t.http.get('/api/v1/users/me').set(admin.auth).expect(200)).body;
  const login = (email: string, pw: string) => t.http.post('/api/v1/auth/support').send({ email, password: pw });

  describe('support sign-in', () => {
    it('answers tokens and the user with its role', async () => {
      const res = await login((await me()).email.toUpperCase(), password).expect(200);
      assert.equal(res.body.status, 'success');
      assert.equal(res.body.token_type, 'bearer');
      assert.equal(res.body.expires_in, 3600);
      assert.deepEqual(res.body.user, { id: admin.user_id, user_id: admin.user_id, name: 'Support Lead', email: (await me()).email, account_type: 'admin', role: 'admin' });
      await t.http.get('/api/v1/admin/projections').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
    });

    it('a wrong password and an unknown e-mail get the same 401', async () => {
      const wrong = await login((await me()).email, 'not the password').expect(401);
      const unknown = await login('nobody@example.in', password).expect(401);
      assert.equal(wrong.body.detail, API_TEXTS.loginFailed);
      assert.equal(unknown.body.detail, API_TEXTS.loginFailed);
    });

    it('missing fields are 422', async () => {
      await t.http.post('/api/v1/auth/support').send({ email: 'a@b.in' }).expect(422);
      await t.http.post('/api/v1/auth/support').send({ email: 'not-an-email', password: 'x' }).expect(422);
    });

    it('slows guessing: after 3 failures from one address that pair answers 429 with Retry-After, even to the right password', async () => {
      const victim = await t.createUser('admin');
      const email = (await t.http.get('/api/v1/users/me').set(victim.auth).expect(200)).body.email as string;
      for (let i = 0; i < 3; i += 1) await login(email, `guess ${i}`).expect(401);
      const blocked = await login(email, 'guess 4').expect(429);
      assert.ok(Number(blocked.headers['retry-after']) > 0);
      await login(email, password).expect(429);
    });

    it('limits attempts per address across accounts', async () => {
      let last = 0;
      for (let i = 0; i < 14; i += 1) last = (await login(`random${i}@example.in`, 'x')).status;
      assert.equal(last, 429);
    });
  });

  describe('sessions', () => {
    let fresh: TestApp;
    let user: { access_token: string; refresh_token: string };
    let adminEmail: string;
    before(async () => {
      fresh = await startTestApp();
      const u = await fresh.createUser('admin');
      await handleCommand(fresh.app.eventStore, streams.user(u.user_id), userDecider, { type: 'SetPassword', data: { password_hash: await hashPassword(password) } }, systemContext(new Date(), null));
      adminEmail = (await fresh.http.get('/api/v1/users/me').set(u.auth).expect(200)).body.email;
      user = (await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password }).expect(200)).body;
    });
    after(() => fresh.close());

    it('refresh rotates the refresh token; reusing an old one ends the session', async () => {
      const first = await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: user.refresh_token }).expect(200);
      assert.notEqual(first.body.refresh_token, user.refresh_token);
      // Tokens are never kept by a cache (RFC 6749 §5.1), as no answer to a command is.
      assert.match(String(first.headers['cache-control']), /no-store/);
      const signIn = await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password });
      assert.match(String(signIn.headers['cache-control']), /no-store/);
      await fresh.http.get('/api/v1/users/me').set('Authorization', `Bearer ${first.body.access_token}`).expect(200);
      const reused = await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: user.refresh_token }).expect(401);
      assert.equal(reused.body.detail, API_TEXTS.sessionExpired);
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: first.body.refresh_token }).expect(401);
      await fresh.settle();
      const ended = await fresh.http.get('/api/v1/users/me').set('Authorization', `Bearer ${first.body.access_token}`).expect(401);
      assert.equal(ended.body.detail, API_TEXTS.sessionEnded);
    });

    it('logout ends the session: its access and refresh tokens stop working', async () => {
      const s = (await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password }).expect(200)).body;
      const auth = { Authorization: `Bearer ${s.access_token}` };
      await fresh.http.get('/api/v1/doctors/').set(auth).expect(200);
      const out = await fresh.http.post('/api/v1/auth/logout').set(auth).expect(200);
      await fresh.http.get('/api/v1/doctors/').set(auth).set('X-Min-Position', String(out.headers['x-event-position'])).expect(401);
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: s.refresh_token }).expect(401);
    });

    it("deactivation ends what was signed in before it: a reactivation brings back neither the access nor the refresh token, only a new sign-in", async () => {
      const s = (await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password }).expect(200)).body;
      const before = { Authorization: `Bearer ${s.access_token}` };
      const me = (await fresh.http.get('/api/v1/users/me').set(before).expect(200)).body as { id?: string; user_id?: string };
      const userId = (me.user_id ?? me.id)!;
      const other = await fresh.createUser('admin');
      await fresh.http.put(`/api/v1/admin/users/${userId}`).set(other.auth).send({ is_active: false }).expect(200);
      const back = await fresh.http.put(`/api/v1/admin/users/${userId}`).set(other.auth).send({ is_active: true }).expect(200);
      const position = String(back.headers['x-event-position']);
      const refused = await fresh.http.get('/api/v1/users/me').set(before).set('X-Min-Position', position).expect(401);
      assert.equal(refused.body.detail, API_TEXTS.sessionEnded);
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: s.refresh_token }).expect(401);
      const again = (await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password }).expect(200)).body;
      await fresh.http.get('/api/v1/users/me').set('Authorization', `Bearer ${again.access_token}`).set('X-Min-Position', position).expect(200);
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: again.refresh_token }).expect(200);
    });

    it('garbage refresh tokens are 401 or 422, never 500', async () => {
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: 'x' }).expect(401);
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: '00000000-0000-0000-0000-000000000000.abc' }).expect(401);
      await fresh.http.post('/api/v1/auth/refresh').send({}).expect(422);
      // A real refresh token with anything after it is not that token.
      const s = (await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password }).expect(200)).body;
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: `${s.refresh_token}.extra` }).expect(401);
      await fresh.http.post('/api/v1/auth/refresh').send({ refresh_token: s.refresh_token }).expect(200);
    });

    it("a validly signed token must agree with what is stored: the account's type and the session's owner", async () => {
      const s = (await fresh.http.post('/api/v1/auth/support').send({ email: adminEmail, password }).expect(200)).body;
      const patient = await fresh.createUser('patient');
      await fresh.settle();
      // Signed with the product's own secret (as a leaked one would be): a patient claiming to be an admin, and a
      // patient's token naming the admin's session.
      const asAdmin = await fresh.app.tokens.issue({ user_id: patient.user_id, account_type: 'admin' });
      const refused = await fresh.http.get('/api/v1/admin/projections').set('Authorization', `Bearer ${asAdmin}`).expect(401);
      assert.equal(refused.body.detail, API_TEXTS.invalidToken);
      const adminSession = JSON.parse(Buffer.from(s.access_token.split('.')[1], 'base64url').toString()).sid as string;
      assert.ok(adminSession);
      const borrowed = await fresh.app.tokens.issue({ user_id: patient.user_id, account_type: 'patient', session_id: adminSession });
      assert.equal((await fresh.http.get('/api/v1/users/me').set('Authorization', `Bearer ${borrowed}`).expect(401)).body.detail, API_TEXTS.invalidToken);
      await fresh.http.get('/api/v1/users/me').set(patient.auth).expect(200);
    });
  });

  describe('tokens', () => {
    it('an expired token is 401 Session expired', async () => {
      const old = await t.app.tokens.issue({ user_id: admin.user_id, account_type: 'admin' }, new Date(Date.now() - 2 * 3600_000));
      const res = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${old}`).expect(401);
      assert.equal(res.body.detail, API_TEXTS.sessionExpired);
    });

    it('refuses another issuer, another audience, alg none and a changed role', async () => {
      const secret = loadTokenSecret({ dataDir: t.dataDir, production: false });
      const other = (issuer: string, audience: string) => new TokenService({ secret, issuer, audience, ttlSeconds: 600 });
      for (const token of [
        await other('someone-else', 'telemed-api').issue({ user_id: admin.user_id, account_type: 'admin' }),
        await other('telemed', 'another-api').issue({ user_id: admin.user_id, account_type: 'admin' }),
        `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: admin.user_id, account_type: 'admin', iss: 'telemed', aud: 'telemed-api', exp: 9e9, iat: 1 })).toString('base64url')}.`,
        await new SignJWT({ account_type: 'admin' }).setProtectedHeader({ alg: 'HS512' }).setSubject(admin.user_id).setIssuer('telemed').setAudience('telemed-api').setIssuedAt().setExpirationTime('1h').sign(secret),
      ]) {
        const res = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${token}`).expect(401);
        assert.equal(res.body.detail, API_TEXTS.invalidToken);
      }
      const patient = await t.createUser('patient');
      const [h, p, sig] = patient.token.split('.');
      const elevated = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), account_type: 'admin' })).toString('base64url');
      await t.http.get('/api/v1/admin/projections').set('Authorization', `Bearer ${h}.${elevated}.${sig}`).expect(401);
    });

    it("a deactivated user's tokens stop working; only admins deactivate", async () => {
      const leaving = await t.createUser('doctor');
      await t.http.get('/api/v1/users/me').set(leaving.auth).expect(200);
      await t.http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(leaving.auth).expect(403);
      await t.http.delete(`/api/v1/admin/users/nobody`).set(admin.auth).expect(404);
      await t.http.delete(`/api/v1/admin/users/${admin.user_id}`).set(admin.auth).expect(409);
      const res = await t.http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth).expect(200);
      const refused = await t.http.get('/api/v1/users/me').set(leaving.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(401);
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
