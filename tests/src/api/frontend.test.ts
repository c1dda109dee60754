import assert from 'node:assert/strict';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { loadConfig } from '@telemed/platform';
import { createApp, type App } from '@telemed/all-in-one';
import { tmpDataDir } from '../support/test-app';

describe('serving the built frontend', () => {
  let app: App;
  let dist: string;
  before(async () => {
    const dir = tmpDataDir();
    dist = join(dir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    // The build's prerendered pages (frontend/vite.config.ts).
    for (const page of ['login', 'welcome', 'doctor']) writeFileSync(join(dist, `${page}.html`), `<!doctype html><html><head><title>t</title></head><div id="root"><div data-prerendered inert>${page}</div></div>`);
    // And in other languages (issue 33), here Hindi and Tamil.
    for (const page of ['login', 'welcome', 'doctor']) {
      for (const language of ['hi', 'ta']) writeFileSync(join(dist, `${page}.${language}.html`), `<!doctype html><html lang="${language}"><head><title>t</title></head><div id="root"><div data-prerendered inert>${page} ${language}</div></div>`);
    }
    // As the build writes them: precompressed twins next to each asset.
    const bundle = `console.log(${JSON.stringify('x'.repeat(5000))})`;
    writeFileSync(join(dist, 'assets', 'main-abc123.js'), bundle);
    writeFileSync(join(dist, 'assets', 'main-abc123.js.br'), brotliCompressSync(bundle));
    writeFileSync(join(dist, 'assets', 'main-abc123.js.gz'), gzipSync(bundle));
    app = await createApp({ config: loadConfig({ DATA_DIR: join(dir, 'data'), DEMO_DATA: 'off', LOG_LEVEL: 'silent' }), frontendDir: dist });
    await app.start();
  });
  after(() => app.stop());

  it("serves the app's routes with index.html (client-side routing) and its assets", async () => {
    for (const path of ['/', '/home', '/doctor-home', '/confirm-appointment?slot_id=1']) {
      const res = await supertest(app.app).get(path).expect(200);
      assert.match(res.text, /id="root"/);
    }
    await supertest(app.app).get('/assets/app.js').expect(200).expect('Content-Type', /javascript/);
  });

  it("sends /login, /welcome and a registered doctor's page (a UUID) their prerendered pages; other doctor ids get the app", async () => {
    const id = '34cb5dd3-d7f4-4dd7-8824-a28eedd3ef7e';
    const expected: Array<[string, RegExp]> = [
      ['/login', />login</],
      ['/welcome', />welcome</],

      ['/dr-kavya-reddy', /<div id="root"><\/div>/], // a bundled sample profile
      [`/${id}/more`, /<div id="root"><\/div>/],
      [`/verify/${id}`, /<div id="root"><\/div>/],
    ];
    for (const [path, body] of expected) {
      const res = await supertest(app.app).get(path).expect(200);
      assert.match(res.text, body, path);
      assert.equal(res.headers['cache-control'], 'no-cache', path);
    }
    // A doctor's page (here an id that is no doctor's, which is answered 404 since doctor pages say who the doctor is:
    // see doctor-page-meta.test.ts) is the prerendered frame, and starts the request for that doctor's profile (in
    // India's time) before the scripts run.
    for (const path of [`/${id}`, `/${id.toUpperCase()}`]) assert.match((await supertest(app.app).get(path).expect(404)).text, />doctor</, path);
    const page = await supertest(app.app).get(`/${id}`).expect(404).expect('Content-Type', /html/);
    assert.ok(page.text.includes(`<link rel="preload" as="fetch" crossorigin href="/api/v1/public/doctors/${id}?timezone_str=Asia%2FKolkata">`), page.text);
    assert.equal((await supertest(app.app).get('/welcome')).text.includes('rel="preload"'), false);
  });

  it("sends a prerendered page in the visitor's language: the one chosen (its cookie), else the browser's first the product speaks, else English", async () => {
    const id = '34cb5dd3-d7f4-4dd7-8824-a28eedd3ef7e';
    const page = (path: string, headers: Record<string, string>) => supertest(app.app).get(path).set(headers);
    for (const path of ['/login', '/welcome']) {
      const name = path.slice(1);
      assert.match((await page(path, { 'Accept-Language': 'hi-IN,hi;q=0.9,en;q=0.8' }).expect(200)).text, new RegExp(`>${name} hi<`));
      assert.match((await page(path, { 'Accept-Language': 'fr-FR, ta;q=0.8, hi;q=0.5' }).expect(200)).text, new RegExp(`>${name} ta<`), 'by preference, past one the product does not speak');
      assert.match((await page(path, { 'Accept-Language': 'hi', Cookie: 'x=1; telemed_language=ta' }).expect(200)).text, new RegExp(`>${name} ta<`), 'the choice over the browser');
      assert.match((await page(path, { 'Accept-Language': 'fr, de' }).expect(200)).text, new RegExp(`>${name}<`));
      assert.match((await page(path, { Cookie: 'telemed_language=zz' }).expect(200)).text, new RegExp(`>${name}<`), 'a cookie naming no language is ignored');
      // A language whose page the build did not write (only Hindi and Tamil here): the English page.
      assert.match((await page(path, { 'Accept-Language': 'bn' }).expect(200)).text, new RegExp(`>${name}<`));
      assert.match((await page(path, {}).expect(200)).headers.vary ?? '', /Accept-Language/);
    }
    assert.match((await page(`/${id}`, { 'Accept-Language': 'ta-IN' }).expect(404)).text, />doctor ta</);
  });

  it('sends the precompressed asset the browser accepts, cached for good; index.html is revalidated', async () => {
    const br = await supertest(app.app).get('/assets/main-abc123.js').set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['cache-control']), /max-age=31536000, immutable/);
    assert.match(String(br.headers['content-type']), /javascript/);
    const gz = await supertest(app.app).get('/assets/main-abc123.js').set('Accept-Encoding', 'gzip').expect(200);
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.match(gz.text, /console\.log/, 'the client gets the same bytes once decoded');
    const plain = await supertest(app.app).get('/assets/main-abc123.js').set('Accept-Encoding', 'identity').expect(200);
    assert.equal(plain.headers['content-encoding'], undefined);
    const page = await supertest(app.app).get('/home').expect(200);
    assert.equal(page.headers['cache-control'], 'no-cache');
  });

  it('answers a missing file (a chunk of an older build, a favicon) 404, never the app, never with an encoding', async () => {
    for (const path of ['/assets/main-old999.js', '/assets/style-old.css', '/favicon.ico', '/robots.txt', '/assets/', '/assets/nested/x']) {
      const res = await supertest(app.app).get(path).set('Accept-Encoding', 'gzip, deflate, br').expect(404);
      assert.equal(res.headers['content-encoding'], undefined, path);
      assert.doesNotMatch(res.text, /id="root"/, `${path} answered with the app`);
    }
    // A file that was there at start and was deleted by a rebuild, with its precompressed twins.
    const bundle = 'console.log("gone")'.repeat(100);
    writeFileSync(join(dist, 'assets', 'gone-1.js'), bundle);
    writeFileSync(join(dist, 'assets', 'gone-1.js.br'), brotliCompressSync(bundle));
    await supertest(app.app).get('/assets/gone-1.js').set('Accept-Encoding', 'br').expect(200).expect('Content-Encoding', 'br');
    for (const file of ['gone-1.js', 'gone-1.js.br']) unlinkSync(join(dist, 'assets', file));
    const gone = await supertest(app.app).get('/assets/gone-1.js').set('Accept-Encoding', 'br').expect(404);
    assert.equal(gone.headers['content-encoding'], undefined, 'a stale encoding on the 404');
    assert.equal(gone.body.detail, 'Not found');
  });

  it("serves a rebuild's new assets precompressed while the server runs", async () => {
    const bundle = `console.log(${JSON.stringify('new'.repeat(2000))})`;
    writeFileSync(join(dist, 'assets', 'main-new456.js'), bundle);
    writeFileSync(join(dist, 'assets', 'main-new456.js.br'), brotliCompressSync(bundle));
    writeFileSync(join(dist, 'assets', 'main-new456.js.gz'), gzipSync(bundle));
    const br = await supertest(app.app).get('/assets/main-new456.js').set('Accept-Encoding', 'gzip, br').expect(200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['content-type']), /javascript/);
    assert.match(String(br.headers.vary), /Accept-Encoding/);
    const gz = await supertest(app.app).get('/assets/main-new456.js?v=1').set('Accept-Encoding', 'gzip').expect(200);
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.text, bundle, 'the same bytes once decoded');
    await supertest(app.app).head('/assets/main-new456.js').set('Accept-Encoding', 'br').expect(200).expect('Content-Encoding', 'br');
  });

  it('never serves files outside the build through encoded or dotted paths', async () => {
    for (const path of ['/assets/..%2f..%2fdata%2fx.js', '/%2e%2e/data/x.txt', '/assets/%E0%A4%A.js']) {
      const res = await supertest(app.app).get(path).set('Accept-Encoding', 'br');
      assert.ok(res.status === 404 || res.status === 400 || res.status === 403, `${path}: ${res.status}`);
      assert.equal(res.text.includes(dist), false, `${path} leaked a path`);
    }
  });

  it('compresses JSON answers over 1 KB', async () => {
    const res = await supertest(app.app).get('/openapi.json').set('Accept-Encoding', 'br, gzip').expect(200);
    assert.match(String(res.headers['content-encoding']), /^(br|gzip)$/);
    assert.ok(res.body.openapi, 'still JSON once decoded');
  });

  it('never answers API paths with the app', async () => {
    const res = await supertest(app.app).get('/api/v1/unknown').expect(404);
    assert.equal(res.body.detail, 'Not found');
  });

  it('sends security headers', async () => {
    const res = await supertest(app.app).get('/').expect(200);
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-powered-by'], undefined);
  });

  it('answers health and readiness', async () => {
    await supertest(app.app).get('/healthz').expect(200, { status: 'ok' });
    const ready = await supertest(app.app).get('/readyz').expect(200);
    assert.equal(ready.body.status, 'ready');
  });
});

describe('metrics', () => {
  it('exposes request latency, projection lag, open sockets and bus redeliveries in Prometheus format', async () => {
    const token = 'metrics-scraper-token-0123456789';
    const app = await createApp({ config: loadConfig({ DATA_DIR: tmpDataDir(), DEMO_DATA: 'off', LOG_LEVEL: 'silent', METRICS_TOKEN: token }) });
    await app.start();
    try {
      await supertest(app.app).get('/api/v1/doctors/').expect(401);
      const res = await supertest(app.app).get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
      assert.match(res.text, /telemed_http_request_duration_seconds_bucket\{[^}]*method="GET"[^}]*status="401"/);
      assert.match(res.text, /telemed_projection_lag_events\{projection="appointments"\} 0/);
      assert.match(res.text, /telemed_websocket_open_sockets 0/);
      assert.match(res.text, /telemed_bus_redeliveries_total 0/);
    } finally {
      await app.stop();
    }
  });
});
