import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { privateDigest } from '@telemed/platform';
import { registerUser, systemContext } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

/**
 * An address's claim stream gains a claim each time the address passes to a new account (its holder was erased). A
 * sign-in by address and a registration read the claims since the last look, not every claim the address ever had.
 */
describe("an address's claims are not read whole at each use", () => {
  let t: TestApp;
  let operator: TestUser;
  const email = 'desk@sunrise.in';
  let stream: string;
  let holder: string;

  before(async () => {
    t = await startTestApp();
    operator = await t.createUser('admin');
    for (let i = 0; i < 25; i += 1) {
      holder = (await registerUser(t.app.eventStore, { email, name: `Desk ${i}`, account_type: 'patient' }, systemContext(new Date(), null))).user_id;
      if (i < 24) await t.http.post(`/api/v1/admin/users/${holder}/erasure`).set(operator.auth).expect(200);
    }
    const keyed = await privateDigest(t.app.eventStore, 'email claim', email);
    assert.ok(keyed, 'the test app keeps keys');
    stream = streams.email(keyed);
    // The kept fold's first look in this process (a sign-in by address) reads the claims once.
    await t.http.post('/api/v1/auth/support').send({ email, password: 'not the password' }).expect(401);
  });
  after(() => t.close());

  it('reads the claims since the last look, and the address leads to its latest holder', async () => {
    assert.equal((await t.app.eventStore.readStream(stream)).length, 25, 'the address passed to 25 accounts');
    const reads = eventsReadFrom(t.app.eventStore, stream);
    try {
      for (let i = 0; i < 3; i += 1) await t.http.post('/api/v1/auth/support').send({ email, password: 'not the password' }).expect(401);
      await assert.rejects(registerUser(t.app.eventStore, { email, name: 'Someone else', account_type: 'patient' }, systemContext(new Date(), null)), /already exists/, 'the address is taken');
      await t.http.post(`/api/v1/admin/users/${holder}/erasure`).set(operator.auth).expect(200);
      await registerUser(t.app.eventStore, { email, name: 'Desk 26', account_type: 'patient' }, systemContext(new Date(), null));
    } finally {
      reads.stop();
    }
    assert.ok(reads.counts.length >= 5, 'the sign-ins and registrations read the claims');
    assert.ok(reads.counts.every((n) => n <= 1), `each read of the claims (25) returns the claims since the last look (read: ${reads.counts.join(', ')})`);
  });
});
