import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { closeHttpServer, createHttpServer } from './server';

const config = { HTTP_HEADERS_TIMEOUT_MS: 5000, HTTP_REQUEST_TIMEOUT_MS: 5000, HTTP_UPLOAD_IDLE_TIMEOUT_MS: 5000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 5000 };

describe('closeHttpServer', () => {
  it('ends within its grace although an upgraded connection is still open (nobody else would ever close it)', async () => {
    const server = createHttpServer((_req, res) => res.end('ok'), config);
    // An upgrade handler that takes the connection and then forgets it, as a WebSocket still authenticating would.
    server.on('upgrade', (_req, socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = connect(port, '127.0.0.1');
    client.on('error', () => {});
    const upgraded = new Promise<void>((resolve) => client.once('data', () => resolve()));
    client.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n');
    await upgraded;
    const clientClosed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const started = Date.now();
    const outcome = await Promise.race([
      closeHttpServer(server, { graceMs: 200 }).then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5000).unref()),
    ]);
    assert.equal(outcome, 'closed', 'the server closed');
    assert.ok(Date.now() - started < 5000, 'within the grace');
    await clientClosed;
    client.destroy();
  });
});
