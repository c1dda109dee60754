import assert from 'node:assert/strict';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'supertest';
import { API_TEXTS } from '@telemed/contracts';
import { startTestApp, tmpDataDir, type TestApp } from '../support/test-app';

/** What no answer may carry: a path on disk, a stack trace, or a library's own error text. */
function assertNoInternals(res: Response, where: string, dirs: string[]): void {
  for (const dir of dirs) assert.equal(res.text.includes(dir), false, `${where} names a path on disk: ${res.text}`);
  assert.doesNotMatch(res.text, /ENOENT|EISDIR|EACCES|no such file|\bat .+:\d+:\d+|node_modules|Failed to decode|unsupported (charset|content encoding)/i, `${where} carries internals: ${res.text}`);
}

describe('error details never carry internals', () => {
  let t: TestApp;
  let dist: string;
  before(async () => {
    dist = join(tmpDataDir(), 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    for (const page of ['index', 'login', 'welcome', 'doctor']) writeFileSync(join(dist, `${page}.html`), '<!doctype html><html><head></head><div id="root"></div></html>');
    t = await startTestApp({ frontendDir: dist });
  });
  after(() => t.close());

  it("a rebuild that removed the app's pages answers a generic 503, not the file system's error", async () => {
    await t.http.get('/home').expect(200);
    for (const page of ['index', 'login', 'doctor']) unlinkSync(join(dist, `${page}.html`));
    for (const path of ['/home', '/', '/login', '/34cb5dd3-d7f4-4dd7-8824-a28eedd3ef7e']) {
      const res = await t.http.get(path).expect(503);
      assert.equal(res.body.detail, API_TEXTS.appUnavailable, path);
      assert.equal(res.headers['cache-control'], 'no-store', path);
      assertNoInternals(res, path, [dist, process.cwd()]);
    }
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await t.http.get('/home').expect(200);
  });

  it("a library's 4xx (an undecodable path, a charset or encoding it cannot read) answers the kind of failure only", async () => {
    const cases: Array<[string, () => Promise<Response>, number, string]> = [
      ['undecodable path', () => t.http.get('/api/v1/public/doctors/%E0%A4%A/blogs'), 400, 'Bad Request'],
      ['undecodable file path', () => t.http.get('/assets/%E0%A4%A.js'), 404, API_TEXTS.notFound],
      ['charset', () => t.http.post('/api/v1/auth/support').set('Content-Type', 'application/json; charset=koi8-x').send('{"email":"a@b.in","password":"x"}'), 415, API_TEXTS.unsupportedCharset],
      ['encoding', () => t.http.post('/api/v1/auth/support').set('Content-Type', 'application/json').set('Content-Encoding', 'x-secret-codec').send('{"email":"a@b.in","password":"x"}'), 415, API_TEXTS.unsupportedEncoding],
    ];
    for (const [what, send, status, detail] of cases) {
      const res = await send();
      assert.equal(res.status, status, `${what}: ${res.status} ${res.text}`);
      assert.equal(res.body.detail, detail, what);
      assertNoInternals(res, what, [dist, process.cwd()]);
    }
  });
});
