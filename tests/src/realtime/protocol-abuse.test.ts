import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { frame, rawWebSocket, text } from '../support/raw-ws';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { eventually } from '../support/eventually';

/** Frames a conforming client never sends; each used to end the process through an unhandled 'error' event. */
const BAD_FRAMES: Array<[string, () => Buffer]> = [
  ['a frame with reserved bits set', () => frame(0x1, Buffer.from('{}'), { rsv: 0b111 })],
  ['a continuation frame with nothing to continue', () => frame(0x0, Buffer.from('x'))],
  ['a frame over the size limit', () => frame(0x1, Buffer.alloc(8), { declaredLength: 10 * 1024 * 1024 })],
  ['an unmasked frame', () => frame(0x1, Buffer.from('{"type":"heartbeat"}'), { mask: false })],
  ['a reserved opcode', () => frame(0x3, Buffer.from('x'))],
  ['invalid UTF-8 in a text frame', () => text(Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d]))],
  ['a fragmented control frame', () => frame(0x9, Buffer.from('ping'), { fin: false })],
];

/** Well-formed frames whose content is not a known message: ignored, the socket stays open. */
const ODD_MESSAGES = ['null', '[]', '"heartbeat"', '42', 'true', '{"type":null}', '{"type":{"toString":1}}', '{"__proto__":{"type":"heartbeat"}}', '{not json'];

describe('WebSocket protocol abuse: a bad frame never reaches the process', () => {
  let t: TestApp;
  let port: number;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    port = await t.app.listen(0, '127.0.0.1');
    user = await t.createUser('patient');
  });
  after(() => t.close());

  async function stillServing() {
    await supertest(`http://127.0.0.1:${port}`).get('/healthz').expect(200);
    const probe = connect(`ws://127.0.0.1:${port}`, user.user_id, user.token);
    await probe.next('connection_established');
    probe.socket.close(1000);
  }

  for (const [name, build] of BAD_FRAMES) {
    it(`${name}, before authentication: the socket is closed, the server keeps answering`, async () => {
      const raw = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`, build());
      assert.ok(await raw.closedWithin(10_000), 'the server closes the connection');
      await stillServing();
    });

    it(`${name}, after authentication: the socket is closed, the server keeps answering`, async () => {
      const raw = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`);
      await raw.waitFor('connection_established');
      raw.socket.write(build());
      assert.ok(await raw.closedWithin(10_000), 'the server closes the connection');
      await stillServing();
    });
  }

  it('ignores messages that are not an object of a known type, and still answers heartbeats', async () => {
    const client = connect(`ws://127.0.0.1:${port}`, user.user_id, user.token);
    await client.next('connection_established');
    for (const message of ODD_MESSAGES) client.socket.send(message);
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    client.socket.send(JSON.stringify({ type: 'heartbeat', timestamp: new Date().toISOString() }));
    await client.next('heartbeat_response');
    assert.equal(client.socket.readyState, client.socket.OPEN);
    assert.deepEqual(
      client.messages.map((m) => m.type),
      [],
      'nothing else was answered',
    );
    client.socket.close(1000);
    await stillServing();
  });

  it('survives a connection reset in the middle of the handshake and of a frame', async () => {
    const open = t.app.notifier.openSockets();
    const raw = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`);
    await raw.waitFor('connection_established');
    raw.socket.write(frame(0x1, Buffer.from('{"type":"heartbeat"}')).subarray(0, 5));
    raw.socket.resetAndDestroy();
    const half = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`);
    half.socket.resetAndDestroy();
    // The reset of the open socket has reached the server when it no longer counts it.
    await eventually(async () => assert.equal(t.app.notifier.openSockets(), open));
    await stillServing();
  });
});

describe('stopping with a socket that never answers', () => {
  it('the server stops within its grace: an upgraded connection that ignores the close is cut, not waited for', async () => {
    const t = await startTestApp();
    try {
      const port = await t.app.listen(0, '127.0.0.1');
      const user = await t.createUser('patient');
      // Authenticated, then deaf: it never answers the server's close frame, so only cutting the connection ends it.
      const deaf = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`);
      await deaf.waitFor('connection_established', 10_000);
      // Still authenticating: the handshake is done, the first frame never comes.
      const silent = await rawWebSocket(port, `/ws/${user.user_id}?token=${user.token}`);
      const started = Date.now();
      await t.app.stop(300);
      const took = Date.now() - started;
      assert.ok(took < 10_000, `stop took ${took} ms`);
      assert.ok(await deaf.closedWithin(1000), 'the deaf connection was cut');
      assert.ok(await silent.closedWithin(1000), 'the silent connection was cut');
    } finally {
      await t.close().catch(() => {});
    }
  });
});
