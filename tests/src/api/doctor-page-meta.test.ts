import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../support/processes';
import { startTestApp, tmpDataDir, type TestApp, type TestUser } from '../support/test-app';

/** The build's doctor.html as the prerender writes it: index.html's head (its title and default description). */
const DOCTOR_HTML =
  '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Telemed — video consultations with doctors across India</title>\n    <meta name="description" content="Book a video consultation." />\n    <script type="module" src="/assets/app.js"></script>\n  </head>\n  <body>\n    <div id="root"><div data-prerendered inert>doctor</div></div>\n  </body>\n</html>\n';

describe("a doctor's public page as search engines and shared links read it, and the favicon", () => {
  let t: TestApp;
  let doctor: TestUser;
  const name = 'Dr. Meera "Mimi" <Iyer> & $& Sons';

  before(async () => {
    const dist = join(tmpDataDir(), 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), DOCTOR_HTML.replace('doctor', 'app'));
    writeFileSync(join(dist, 'doctor.html'), DOCTOR_HTML);
    // As vite copies frontend/public into the build.
    copyFileSync(join(repoRoot, 'frontend/public/favicon.ico'), join(dist, 'favicon.ico'));
    copyFileSync(join(repoRoot, 'frontend/public/favicon.svg'), join(dist, 'favicon.svg'));
    t = await startTestApp({ frontendDir: dist });
    doctor = await t.createUser('doctor', { name, doctor: { specialty: 'Dermatology', qualification: 'MBBS, MD', consultation_fee: 1250 } });
  });
  after(() => t.close());

  it("carries the doctor's name, specialty and fee (₹) in its title, description and Open Graph tags, every value escaped", async () => {
    const page = await t.http.get(`/${doctor.user_id}`).expect(200).expect('Content-Type', /html/);
    const escapedName = 'Dr. Meera &quot;Mimi&quot; &lt;Iyer&gt; &amp; $&amp; Sons';
    const description = `${escapedName} (Dermatology, MBBS, MD): video consultations on Telemed from anywhere in India, ₹1,250 per consultation. See open times and book online.`;
    assert.ok(page.text.includes(`<title>${escapedName}, Dermatology · Telemed</title>`), page.text);
    assert.ok(page.text.includes(`<meta name="description" content="${description}">`), page.text);
    assert.ok(page.text.includes(`<meta property="og:title" content="${escapedName}, Dermatology · Telemed">`), page.text);
    assert.ok(page.text.includes(`<meta property="og:description" content="${description}">`), page.text);
    assert.match(page.text, new RegExp(`<meta property="og:url" content="https?://[^"/]+/${doctor.user_id}">`));
    assert.equal(page.text.includes('<Iyer>'), false, 'nothing of the name is markup');
    // One title and one description: the build's defaults were replaced, not added to.
    assert.equal(page.text.split('<title>').length, 2, page.text);
    assert.equal(page.text.split('name="description"').length, 2, page.text);
    assert.ok(page.text.includes(`<link rel="preload" as="fetch" crossorigin href="/api/v1/public/doctors/${doctor.user_id}?timezone_str=Asia%2FKolkata">`), 'the profile is still preloaded');
    assert.equal(page.text.split('<div id="root">').length, 2, "the app's page appears once");
  });

  it('adds the city the doctor practises in, escaped, to the title, description and Open Graph tags (none above: no city given)', async () => {
    const inPune = await t.createUser('doctor', { name: 'Dr. Ananya Sharma', doctor: { specialty: 'General Medicine', qualification: 'MBBS, MD', consultation_fee: 399, city: 'Pune <Kharadi> & "Viman Nagar"' } });
    const page = await t.http.get(`/${inPune.user_id}`).expect(200);
    const city = 'Pune &lt;Kharadi&gt; &amp; &quot;Viman Nagar&quot;';
    const title = `Dr. Ananya Sharma, General Medicine in ${city} · Telemed`;
    const description = `Dr. Ananya Sharma (General Medicine, MBBS, MD) in ${city}: video consultations on Telemed from anywhere in India, ₹399 per consultation. See open times and book online.`;
    assert.ok(page.text.includes(`<title>${title}</title>`), page.text);
    assert.ok(page.text.includes(`<meta name="description" content="${description}">`), page.text);
    assert.ok(page.text.includes(`<meta property="og:title" content="${title}">`), page.text);
    assert.ok(page.text.includes(`<meta property="og:description" content="${description}">`), page.text);
    assert.equal(page.text.includes('<Kharadi>'), false, 'nothing of the city is markup');
  });

  it('answers an id that is no doctor with 404 (the app says the doctor was not found) and no doctor tags', async () => {
    const page = await t.http.get('/34cb5dd3-d7f4-4dd7-8824-a28eedd3ef7e').expect(404).expect('Content-Type', /html/);
    assert.ok(page.text.includes('<div id="root">'));
    assert.equal(page.text.includes('og:title'), false);
  });

  it('serves /favicon.ico (an icon, not the 404 JSON), and index.html links it', async () => {
    const icon = await t.http.get('/favicon.ico').buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    }).expect(200);
    assert.match(String(icon.headers['content-type']), /image\/(x-icon|vnd\.microsoft\.icon)/);
    assert.deepEqual([...(icon.body as Buffer).subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
    await t.http.get('/favicon.svg').expect(200).expect('Content-Type', /image\/svg\+xml/);
    const index = readFileSync(join(repoRoot, 'frontend/index.html'), 'utf8');
    assert.match(index, /<link rel="icon" href="\/favicon\.ico"/);
    assert.match(index, /<meta name="description" content="[^"]{50,}"/);
  });
});
