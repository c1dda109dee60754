import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { streams } from '@telemed/contracts';
import { hashPassword } from '@telemed/platform';
import { handleCommand, systemContext, userDecider } from '@telemed/command';
import { startTestApp, type TestApp } from '../support/test-app';

const PASSWORD = 'correct horse battery staple';

/** An admin with a password, and its e-mail address. */
async function adminWithPassword(t: TestApp): Promise<string> {
  const admin = await t.createUser('admin');
  await handleCommand(t.app.eventStore, streams.user(admin.user_id), userDecider, { type: 'SetPassword', data: { password_hash: await hashPassword(PASSWORD) } }, systemContext(new Date(), null));
  return (await t.http.get('/api/v1/users/me').set(admin.auth).expect(200)).body.email as string;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('support sign-in limits', () => {
  describe('parallel guesses', () => {
    let t: TestApp;
    before(async () => (t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: '5', LOGIN_RATE_LIMIT_PER_ACCOUNT: '50', LOGIN_RATE_LIMIT_PER_ADDRESS: '100' } })));
    after(() => t.close());

    it('30 wrong passwords at once for one account from one address: only 5 reach the password check', async () => {
      const email = await adminWithPassword(t);
      const port = await t.app.listen(0, '127.0.0.1');
      const http = supertest(`http://127.0.0.1:${port}`);
      const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => http.post('/api/v1/auth/support').send({ email, password: `guess ${i}` })))).map((r) => r.status);
      assert.equal(count(statuses, 401), 5, JSON.stringify(statuses));
      assert.equal(count(statuses, 429), 25, JSON.stringify(statuses));
    });
  });

  describe('client addresses', () => {
    it('X-Forwarded-For is ignored when TRUST_PROXY is off (the default): rotating it does not escape the per-address limit', async () => {
      const t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ADDRESS: '3' } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i += 1) {
          statuses.push((await t.http.post('/api/v1/auth/support').set('X-Forwarded-For', `203.0.113.${i + 1}`).send({ email: `nobody${i}@example.in`, password: 'x' })).status);
        }
        assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
      } finally {
        await t.close();
      }
    });

    it('with TRUST_PROXY naming the proxy, its X-Forwarded-For tells clients apart', async () => {
      const t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ADDRESS: '3', TRUST_PROXY: 'loopback' } });
      try {
        for (let i = 0; i < 6; i += 1) {
          await t.http.post('/api/v1/auth/support').set('X-Forwarded-For', `203.0.113.${i + 1}`).send({ email: `nobody${i}@example.in`, password: 'x' }).expect(401);
        }
      } finally {
        await t.close();
      }
    });
  });

  describe('no lock-out of the owner', () => {
    let t: TestApp;
    const attacker = '198.51.100.7';
    const owner = '203.0.113.9';
    before(async () => (t = await startTestApp({ env: { TRUST_PROXY: 'loopback', LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS: '3', LOGIN_RATE_LIMIT_PER_ACCOUNT: '6' } })));
    after(() => t.close());
    const login = (from: string, email: string, password: string) => t.http.post('/api/v1/auth/support').set('X-Forwarded-For', from).send({ email, password });

    it('after an attacker from address A is limited, the owner from address B still signs in', async () => {
      const email = await adminWithPassword(t);
      for (let i = 0; i < 3; i += 1) await login(attacker, email, `guess ${i}`).expect(401);
      const limited = await login(attacker, email, 'guess 3').expect(429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      await login(attacker, email, PASSWORD).expect(429);
      const res = await login(owner, email, PASSWORD).expect(200);
      assert.equal(res.body.status, 'success');
    });

    it('guessers from many addresses hit the per-account cap, but an address the owner signed in from stays open', async () => {
      const email = await adminWithPassword(t);
      await login(owner, email, PASSWORD).expect(200);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) statuses.push((await login(`198.51.100.${20 + i}`, email, `guess ${i}`)).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 401, 429, 429]);
      await login('198.51.100.99', email, PASSWORD).expect(429);
      await login(owner, email, PASSWORD).expect(200);
    });
  });
});
