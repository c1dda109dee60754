import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { streams, WS_CLOSE } from '@telemed/contracts';
import { hashPassword } from '@telemed/platform';
import { handleCommand, systemContext, userDecider } from '@telemed/command';
import { rawWebSocket, text } from '../support/raw-ws';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';

const heartbeat = () => JSON.stringify({ type: 'heartbeat', timestamp: new Date().toISOString() });
const closeOf = (close: { code: number; reason: string }) => ({ code: close.code, reason: close.reason });

describe('WebSocket limits: input rate, sockets per user, unread output', () => {
  let t: TestApp;
  let base: string;
  let port: number;

  before(async () => {
    t = await startTestApp({ env: { WS_MESSAGE_RATE_LIMIT: '5', WS_MAX_SOCKETS_PER_USER: '2' } });
    port = await t.app.listen(0, '127.0.0.1');
    base = `ws://127.0.0.1:${port}`;
  });
  after(() => t.close());

  it('closes a socket that sends faster than its budget; others are untouched', async () => {
    const [flooder, bystander] = [await t.createUser('patient'), await t.createUser('patient')];
    const flood = connect(base, flooder.user_id, flooder.token);
    const calm = connect(base, bystander.user_id, bystander.token);
    await flood.next('connection_established');
    await calm.next('connection_established');
    for (let i = 0; i < 50; i += 1) flood.socket.send(heartbeat());
    assert.deepEqual(await flood.closed, closeOf(WS_CLOSE.rateLimited));
    const answered = flood.messages.filter((m) => m.type === 'heartbeat_response').length;
    assert.ok(answered <= 5, `at most the budget was answered (${answered})`);
    calm.socket.send(heartbeat());
    await calm.next('heartbeat_response');
    calm.socket.close(1000);
  });

  it('keeps at most the configured number of sockets per user, closing the oldest', async () => {
    const user = await t.createUser('patient');
    const first = connect(base, user.user_id, user.token);
    await first.next('connection_established');
    const second = connect(base, user.user_id, user.token);
    await second.next('connection_established');
    const third = connect(base, user.user_id, user.token);
    await third.next('connection_established');
    assert.deepEqual(await first.closed, closeOf(WS_CLOSE.tooManySockets));
    assert.equal(second.socket.readyState, second.socket.OPEN);
    assert.equal(third.socket.readyState, third.socket.OPEN);
    second.socket.close(1000);
    third.socket.close(1000);
  });
});

describe('WebSocket limits: a client that never reads', () => {
  let t: TestApp;
  let port: number;
  let user: TestUser;

  before(async () => {
    t = await startTestApp({ env: { WS_MESSAGE_RATE_LIMIT: '100000000', WS_MAX_BUFFERED_BYTES: '65536' } });
    port = await t.app.listen(0, '127.0.0.1');
    user = await t.createUser('patient');
  });
  after(() => t.close());

  it('is cut off once its unread output passes the bound, and memory stays bounded', async () => {
    const raw = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`);
    await raw.waitFor('connection_established');
    raw.socket.pause(); // never read again: replies pile up in the kernel's buffers, then in the server's
    const rssBefore = process.memoryUsage().rss;
    const batch = Buffer.concat(Array.from({ length: 2000 }, () => text(heartbeat())));
    const deadline = Date.now() + 30_000;
    while (t.app.notifier.openSockets() > 0) {
      assert.ok(Date.now() < deadline, 'the server closed the socket of the client that does not read');
      if (!raw.socket.write(batch)) await Promise.race([new Promise((r) => raw.socket.once('drain', r)), sleep(200)]);
      await sleep(1);
    }
    const grown = process.memoryUsage().rss - rssBefore;
    assert.ok(grown < 200 * 1024 * 1024, `memory grew by ${Math.round(grown / 1048576)} MB`);
    raw.socket.destroy();
  });
});

describe('WebSocket sockets belong to a session', () => {
  let t: TestApp;
  let base: string;
  const password = 'correct horse battery staple';
  let email: string;
  let admin: TestUser;

  const signIn = async () =>
    (await t.http.post('/api/v1/auth/support').send({ email, password }).expect(200)).body as { access_token: string; user: { user_id: string } };

  before(async () => {
    t = await startTestApp();
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    admin = await t.createUser('admin');
    await handleCommand(t.app.eventStore, streams.user(admin.user_id), userDecider, { type: 'SetPassword', data: { password_hash: await hashPassword(password) } }, systemContext(new Date(), null));
    email = (await t.http.get('/api/v1/users/me').set(admin.auth).expect(200)).body.email;
  });
  after(() => t.close());

  it('logout closes the sockets its session opened with 4002, and its token opens no new one; other sessions stay', async () => {
    const one = await signIn();
    const other = await signIn();
    const socket = connect(base, one.user.user_id, one.access_token);
    const otherSocket = connect(base, other.user.user_id, other.access_token);
    await socket.next('connection_established');
    await otherSocket.next('connection_established');
    await t.http.post('/api/v1/auth/logout').set('Authorization', `Bearer ${one.access_token}`).expect(200);
    assert.deepEqual(await socket.closed, closeOf(WS_CLOSE.invalidToken));
    assert.equal(otherSocket.socket.readyState, otherSocket.socket.OPEN, 'another session of the same user is not affected');
    await t.settle();
    assert.deepEqual(await connect(base, one.user.user_id, one.access_token).closed, closeOf(WS_CLOSE.invalidToken));
    otherSocket.socket.close(1000);
  });

  it('deactivating a user closes the sockets already open with 4002', async () => {
    const leaving = await t.createUser('patient');
    const socket = connect(base, leaving.user_id, leaving.token);
    await socket.next('connection_established');
    await t.http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth).expect(200);
    assert.deepEqual(await socket.closed, closeOf(WS_CLOSE.invalidToken));
  });
});
