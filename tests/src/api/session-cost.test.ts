import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { hashPassword } from '@telemed/platform';
import { handleCommand, systemContext, userDecider } from '@telemed/command';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

/**
 * A session's stream gains an event with every refresh, for as long as it is used. Refreshing it and signing out
 * read the events since the last look, not every refresh since the sign-in.
 */
describe("a session's refreshes and sign-out do not read its whole history", () => {
  let t: TestApp;
  const password = 'correct horse battery staple';
  let tokens: { access_token: string; refresh_token: string };

  before(async () => {
    t = await startTestApp();
    const staff = await t.createUser('admin');
    await handleCommand(t.app.eventStore, streams.user(staff.user_id), userDecider, { type: 'SetPassword', data: { password_hash: await hashPassword(password) } }, systemContext(new Date(), null));
    const email = (await t.http.get('/api/v1/users/me').set(staff.auth).expect(200)).body.email as string;
    tokens = (await t.http.post('/api/v1/auth/support').send({ email, password }).expect(200)).body;
    for (let i = 0; i < 30; i += 1) tokens = (await t.http.post('/api/v1/auth/refresh').send({ refresh_token: tokens.refresh_token }).expect(200)).body;
  });
  after(() => t.close());

  it('reads the events since the last look, and the session ends', async () => {
    const sessionId = tokens.refresh_token.split('.')[0]!;
    const stream = streams.session(sessionId);
    assert.ok((await t.app.eventStore.readStream(stream)).length > 30, 'a long-used session');
    const reads = eventsReadFrom(t.app.eventStore, stream);
    try {
      tokens = (await t.http.post('/api/v1/auth/refresh').send({ refresh_token: tokens.refresh_token }).expect(200)).body;
      await t.http.post('/api/v1/auth/logout').set('Authorization', `Bearer ${tokens.access_token}`).expect(200);
    } finally {
      reads.stop();
    }
    const ended = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
    assert.equal(ended.body.detail, API_TEXTS.sessionEnded);
    await t.http.post('/api/v1/auth/refresh').send({ refresh_token: tokens.refresh_token }).expect(401);
    assert.ok(reads.counts.length >= 2, 'the refresh and the sign-out read the session');
    assert.ok(reads.counts.every((n) => n <= 2), `each read of the session (over 30 events) returns the events since the last look (read: ${reads.counts.join(', ')})`);
  });
});
