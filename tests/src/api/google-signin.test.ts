import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { freePort } from '../support/processes';
import { CookieJar, firstForm } from '../support/browser-like';

/**
 * The Google sign-in path end to end against the local OpenID Connect provider: authorization URL, the provider's
 * sign-in and consent pages, the redirect with a code, and the server's code exchange and ID token check.
 */
describe('sign-in with Google (through the local OpenID Connect provider)', () => {
  let t: TestApp;
  let base: string;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ env: { PORT: String(port), PUBLIC_URL: base } });
    await t.app.listen(port, '127.0.0.1');
  });
  after(() => t.close());

  /** Runs the browser part of the flow and returns the code the provider sends to the redirect URI. */
  async function authorize(jar: CookieJar, email: string): Promise<{ code: string; state: string }> {
    const start = await jar.fetch(`${base}/api/v1/auth/google/authorize`);
    assert.equal(start.status, 200);
    const { authorization_url } = (await start.json()) as { authorization_url: string };
    const url = new URL(authorization_url);
    assert.equal(url.origin + url.pathname, `${base}/oidc/auth`);
    assert.equal(url.searchParams.get('scope'), 'openid email profile');
    assert.equal(url.searchParams.get('prompt'), 'consent');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(jar.header(base).includes('telemed_login='), 'the login cookie was set');

    const isCallback = (location: string) => location.startsWith(`${base}/auth/callback`);
    let step = await jar.follow(authorization_url, {}, isCallback);
    for (let page = 0; page < 4 && !isCallback(step.url); page += 1) {
      const html = await step.response.text();
      const form = firstForm(html, step.url);
      const fields = { ...form.fields };
      if ('login' in fields || /name="login"/.test(html)) Object.assign(fields, { login: email, password: 'any' });
      step = await jar.follow(form.action, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }, isCallback);
    }
    assert.ok(isCallback(step.url), `the provider redirected back with a code (ended at ${step.url})`);
    const callback = new URL(step.url);
    return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')! };
  }

  const exchange = (jar: CookieJar, body: unknown) =>
    jar.fetch(`${base}/api/v1/auth/google`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('a new person signs in, becomes a patient, and the token works', async () => {
    const jar = new CookieJar();
    const { code, state } = await authorize(jar, 'meera.iyer@example.in');
    const res = await exchange(jar, { token: code, state });
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { status: string; access_token: string; refresh_token: string; user: { name: string; email: string; account_type: string; role: string } };
    assert.equal(body.status, 'success');
    assert.deepEqual({ ...body.user, id: undefined, user_id: undefined }, { id: undefined, user_id: undefined, name: 'Meera Iyer', email: 'meera.iyer@example.in', account_type: 'patient', role: 'user' });
    const me = await fetch(`${base}/api/v1/users/me`, { headers: { Authorization: `Bearer ${body.access_token}`, 'X-Min-Position': res.headers.get('x-event-position')! } });
    assert.equal(me.status, 200);
    assert.ok(!jar.header(base).includes('telemed_login='), 'the login cookie is cleared');
  });

  it('signing in again finds the same account; a doctor created beforehand lands on the doctor account', async () => {
    const first = await exchange(new CookieJar(), {}).then((r) => r.status);
    assert.equal(first, 422, 'a missing code is a validation error');
    const doctor = await t.createUser('doctor', { name: 'Dr. Pre Made' });
    const email = (await t.http.get('/api/v1/users/me').set(doctor.auth).expect(200)).body.email as string;
    const jar = new CookieJar();
    const { code } = await authorize(jar, email.toUpperCase());
    const res = await exchange(jar, { token: code });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { user: { user_id: string; account_type: string; role: string } };
    assert.deepEqual([body.user.user_id, body.user.account_type, body.user.role], [doctor.user_id, 'doctor', 'doctor']);
  });

  // The privacy audit: an erased account's address is free again on every path (password sign-up and accounts an
  // institution creates took it already): nothing kept may tie the address to the erased account, so nothing may tell
  // that it had one.
  it('an erased account is not signed in to again: its address signs in to a new account, with none of the old one', async () => {
    const signIn = async () => {
      const jar = new CookieJar();
      const { code, state } = await authorize(jar, 'rohan.erased@example.in');
      return exchange(jar, { token: code, state });
    };
    const first = await signIn();
    assert.equal(first.status, 200, await first.clone().text());
    const { access_token, user } = (await first.json()) as { access_token: string; user: { user_id: string } };
    const erased = await fetch(`${base}/api/v1/users/me/erasure`, { method: 'POST', headers: { Authorization: `Bearer ${access_token}` } });
    assert.equal(erased.status, 200);
    const again = await signIn();
    assert.equal(again.status, 200, await again.clone().text());
    const body = (await again.json()) as { access_token: string; user: { user_id: string; account_type: string } };
    assert.notEqual(body.user.user_id, user.user_id, 'a new account, not the erased one');
    assert.equal(body.user.account_type, 'patient');
    const old = await fetch(`${base}/api/v1/users/me`, { headers: { Authorization: `Bearer ${access_token}` } });
    assert.equal(old.status, 401, "the erased account's token still does not work");
  });

  it('a code without its login cookie, a replayed code, a forged code or a wrong state is refused with 401', async () => {
    const jar = new CookieJar();
    const { code, state } = await authorize(jar, 'arjun@example.in');
    const stranger = await exchange(new CookieJar(), { token: code });
    assert.equal(stranger.status, 401);
    assert.equal(((await stranger.json()) as { detail: string }).detail, API_TEXTS.googleLoginFailed);
    const wrongState = await exchange(jar, { token: code, state: `${state}x` });
    assert.equal(wrongState.status, 401);

    const jar2 = new CookieJar();
    const second = await authorize(jar2, 'arjun@example.in');
    const forged = await exchange(jar2, { token: 'not-a-real-code' });
    assert.equal(forged.status, 401);
    const jar3 = new CookieJar();
    await authorize(jar3, 'arjun@example.in');
    const replay = await exchange(jar3, { token: second.code });
    assert.equal(replay.status, 401, 'a code is bound to the PKCE verifier of its own sign-in');
  });
});

describe('sign-in when the identity provider is unreachable', () => {
  it('answers 503 with a detail, not a 500', async () => {
    const t = await startTestApp({ env: { PUBLIC_URL: 'http://127.0.0.1:9' } });
    try {
      const res = await t.http.get('/api/v1/auth/google/authorize').expect(503);
      assert.match(res.body.detail, /temporarily unavailable/);
    } finally {
      await t.close();
    }
  });
});
