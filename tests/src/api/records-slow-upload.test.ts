import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * Uploads on slow networks: with a request timeout of 1 s, a report that drips in over several seconds but keeps
 * arriving is stored, one that stops arriving is cut off after the upload idle time (0.8 s) with a 408 saying so,
 * and a JSON body still has to arrive within the request timeout.
 */

const REQUEST_MS = 1000;
const IDLE_MS = 800;
const boundary = 'xSlowUploadBoundary';

interface Answer {
  status: number;
  body: { detail?: unknown; files?: Array<{ size: number }> };
  /** When the answer came, from the request's start. */
  at: number;
}

/** A raw HTTP request whose body the test writes itself, at its own pace. */
function rawRequest(port: number, path: string, headers: Record<string, string>): { req: ClientRequest; answer: Promise<Answer> } {
  const started = Date.now();
  let req!: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {}, at: Date.now() - started }));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('uploads on slow networks (issue 14)', () => {
  let t: TestApp;
  let port = 0;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ env: { HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS), HTTP_UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    port = await t.app.listen(0, '127.0.0.1');
    patient = await t.createUser('patient', { name: 'Slow Network' });
  });
  after(() => t.close());

  const head = () =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="report_type"\r\n\r\nlab\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="report_date"\r\n\r\n${indiaDate(0)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
  const upload = () => rawRequest(port, '/api/v1/records/reports', { ...patient.auth, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' });

  it('a report that keeps arriving is stored, though it takes well over HTTP_REQUEST_TIMEOUT_MS', async () => {
    const { req, answer } = upload();
    const first = head();
    req.write(first);
    const chunk = Buffer.alloc(8 * 1024, 0x20);
    let fileBytes = first.length - first.indexOf('%PDF');
    const started = Date.now();
    // 3 s of 8 KiB every 150 ms: three times the request timeout, never idle for long.
    while (Date.now() - started < 3 * REQUEST_MS) {
      await sleep(150);
      req.write(chunk);
      fileBytes += chunk.length;
    }
    req.end(`\n%%EOF\r\n--${boundary}--\r\n`);
    fileBytes += '\n%%EOF'.length;
    const result = await answer;
    assert.equal(result.status, 201, JSON.stringify(result.body));
    assert.ok(result.at >= 3 * REQUEST_MS, `answered after ${result.at} ms`);
    assert.equal(result.body.files?.[0]?.size, fileBytes, 'every byte stored');
  });

  it('an upload that stops arriving is cut off after HTTP_UPLOAD_IDLE_TIMEOUT_MS with a 408 that says so', async () => {
    const { req, answer } = upload();
    req.write(head());
    await sleep(200);
    req.write(Buffer.alloc(4096, 0x20));
    const stalledAt = Date.now();
    // Nothing more is sent: the connection stays open.
    const result = await answer;
    const idle = Date.now() - stalledAt;
    req.destroy();
    assert.equal(result.status, 408);
    assert.equal(result.body.detail, API_TEXTS.uploadStalled(IDLE_MS / 1000));
    assert.ok(idle >= IDLE_MS - 50, `not before the idle time (${idle} ms)`);
    assert.ok(idle < IDLE_MS + 1500, `soon after it (${idle} ms)`);
    await t.settle();
    const mine = (await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body as { reports: unknown[] };
    assert.equal(mine.reports.length, 1, 'only the first test\'s report: nothing of the stalled one is kept');
  });

  it('a JSON body is still held to HTTP_REQUEST_TIMEOUT_MS, even while it trickles in', async () => {
    const { req, answer } = rawRequest(port, '/api/v1/records/reports', { ...patient.auth, 'Content-Type': 'application/json', 'Content-Length': '400' });
    let sending = true;
    void (async () => {
      for (let i = 0; sending && i < 40; i += 1) {
        req.write(' ');
        await sleep(100);
      }
    })();
    const result = await answer;
    sending = false;
    req.destroy();
    assert.equal(result.status, 408);
    assert.equal(result.body.detail, API_TEXTS.requestTimedOut);
    assert.ok(result.at >= REQUEST_MS - 50 && result.at < REQUEST_MS + 1500, `cut off at the request timeout (${result.at} ms)`);
  });
});
