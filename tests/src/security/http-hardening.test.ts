import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/test-app';

const METRICS_TOKEN = 'scraper-token-0123456789abcdef';

describe('HTTP hardening', () => {
  describe('HSTS', () => {
    it('is absent over plain HTTP, even when an untrusted client claims X-Forwarded-Proto: https', async () => {
      const t = await startTestApp();
      try {
        const plain = await t.http.get('/healthz').expect(200);
        assert.equal(plain.headers['strict-transport-security'], undefined);
        const claimed = await t.http.get('/healthz').set('X-Forwarded-Proto', 'https').expect(200);
        assert.equal(claimed.headers['strict-transport-security'], undefined);
      } finally {
        await t.close();
      }
    });

    it('is sent when a trusted proxy (TRUST_PROXY) says the request came over HTTPS', async () => {
      const t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
      try {
        const secure = await t.http.get('/healthz').set('X-Forwarded-Proto', 'https').expect(200);
        assert.match(String(secure.headers['strict-transport-security']), /^max-age=\d+/);
        const plain = await t.http.get('/healthz').set('X-Forwarded-Proto', 'http').expect(200);
        assert.equal(plain.headers['strict-transport-security'], undefined);
      } finally {
        await t.close();
      }
    });
  });

  describe('Content-Security-Policy and /metrics', () => {
    let t: TestApp;
    before(async () => (t = await startTestApp({ env: { METRICS_TOKEN } })));
    after(() => t.close());

    it("allows no inline script on the app, the API docs or the local identity provider's pages", async () => {
      for (const path of ['/healthz', '/docs/', '/api/v1/nothing', '/oidc/.well-known/openid-configuration']) {
        const csp = String((await t.http.get(path)).headers['content-security-policy']);
        const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1];
        assert.ok(scriptSrc, `${path}: script-src is set (${csp})`);
        assert.doesNotMatch(scriptSrc, /unsafe-inline|unsafe-eval/, path);
        assert.match(csp, /script-src-attr 'none'/, path);
      }
    });

    it('/metrics answers 401 without the bearer token (or with a wrong one) and 200 with it', async () => {
      const refused = await t.http.get('/metrics').expect(401);
      assert.equal(typeof refused.body.detail, 'string');
      await t.http.get('/metrics').set('Authorization', 'Bearer not-the-token').expect(401);
      await t.http.get('/metrics').set('Authorization', `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}`).expect(401);
      const ok = await t.http.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      assert.match(ok.text, /telemed_http_request_duration_seconds/);
    });

    it('/metrics is 404 when no METRICS_TOKEN is configured', async () => {
      const bare = await startTestApp();
      try {
        const res = await bare.http.get('/metrics').expect(404);
        assert.equal(res.body.detail, 'Not found');
      } finally {
        await bare.close();
      }
    });
  });

  describe('server timeouts', () => {
    it('drops a client that sends its headers too slowly within HTTP_HEADERS_TIMEOUT_MS', async () => {
      const t = await startTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300' } });
      try {
        assert.equal(t.app.server.headersTimeout, 400);
        // Node's own request timeout is off: body-deadline.ts keeps HTTP_REQUEST_TIMEOUT_MS for bodies (streamed uploads
        // excepted: tests/src/api/records-slow-upload.test.ts).
        assert.equal(t.app.server.requestTimeout, 0);
        assert.equal(t.app.server.keepAliveTimeout, 300);
        const port = await t.app.listen(0, '127.0.0.1');
        const started = Date.now();
        const { elapsed, received } = await new Promise<{ elapsed: number; received: string }>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: '));
          let received = '';
          socket.on('data', (d) => (received += String(d)));
          socket.on('error', () => undefined);
          socket.on('close', () => resolve({ elapsed: Date.now() - started, received }));
          setTimeout(() => {
            socket.destroy();
            reject(new Error('the slow client was still connected after 3 s'));
          }, 3000).unref();
        });
        assert.ok(elapsed >= 350, `not before the timeout (${elapsed} ms)`);
        assert.ok(elapsed < 1500, `dropped soon after the 400 ms headers timeout (${elapsed} ms)`);
        assert.match(received, /^HTTP\/1\.1 408/);
        assert.deepEqual(JSON.parse(received.split('\r\n\r\n')[1]!), { detail: 'The request took too long to arrive', code: 'request_timeout' });
      } finally {
        await t.close();
      }
    });

    it("answers what Node's parser refuses (headers too large, not HTTP) with a {detail} body too", async () => {
      const t = await startTestApp();
      try {
        const port = await t.app.listen(0, '127.0.0.1');
        const raw = (request: string) =>
          new Promise<string>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => socket.write(request));
            let received = '';
            socket.on('data', (d) => (received += String(d)));
            socket.on('error', () => undefined);
            socket.on('close', () => resolve(received));
          });
        const tooLarge = await raw(`GET /api/v1/doctors/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${'x'.repeat(20_000)}\r\n\r\n`);
        assert.match(tooLarge, /^HTTP\/1\.1 431 /);
        assert.deepEqual(JSON.parse(tooLarge.split('\r\n\r\n')[1]!), { detail: 'The request headers are too large', code: 'headers_too_large' });
        const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
        assert.match(garbage, /^HTTP\/1\.1 400 /);
        assert.equal(JSON.parse(garbage.split('\r\n\r\n')[1]!).detail, 'The request could not be read as HTTP');
      } finally {
        await t.close();
      }
    });

    it('refuses a headers timeout longer than the request timeout', async () => {
      await assert.rejects(startTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' } }), /HTTP_HEADERS_TIMEOUT_MS/);
    });
  });
});
