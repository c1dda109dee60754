import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, tmpDataDir, type TestApp, type TestUser } from '../support/test-app';

const TEMPLATE = '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Telemed</title>\n    <script type="module" src="/assets/app.js"></script>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n';

describe("a published post's page for sharing: /blog/{slug} (issue 16)", () => {
  let t: TestApp;
  let doctor: TestUser;
  let dist: string;

  before(async () => {
    dist = join(tmpDataDir(), 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), TEMPLATE);
    t = await startTestApp({ frontendDir: dist });
    doctor = await t.createUser('doctor', { name: 'Dr. Meera Iyer' });
  });
  after(() => t.close());

  it("carries a title with $&, $' and $` as text in its Open Graph tags, the app's page around them once", async () => {
    const title = "Fees: $' and $& and $` \"myths\"";
    const body = { title, description: 'Costs $& <b>care</b>', content: { blocks: [{ type: 'paragraph', data: { text: 'Rest and fluids.' } }] } };
    const { id } = (await t.http.post('/api/v1/blogs/').set(doctor.auth).send(body).expect(201)).body as { id: string };
    const { slug } = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200)).body as { slug: string };
    await t.settle();

    const page = await t.http.get(`/blog/${slug}`).expect(200);
    const escaped = 'Fees: $&#39; and $&amp; and $` &quot;myths&quot;';
    assert.ok(page.text.includes(`<meta property="og:title" content="${escaped}">`), `og:title holds the title as text: ${page.text}`);
    assert.ok(page.text.includes(`<title>${escaped} · Dr. Meera Iyer</title>`), `the page's title holds it too: ${page.text}`);
    assert.equal(page.text.split('<div id="root">').length, 2, `the app's page appears once: ${page.text}`);
    assert.equal(page.text.split('<head>').length, 2, `one head: ${page.text}`);
    assert.equal(page.text.split('/assets/app.js').length, 2, `the app's script is named once: ${page.text}`);
  });

  it("follows a new build of the app: the post's page names the new build's assets", async () => {
    const { id } = (await t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title: 'Builds', content: { blocks: [{ type: 'paragraph', data: { text: 'Rest.' } }] } }).expect(201)).body as { id: string };
    const { slug } = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200)).body as { slug: string };
    await t.settle();
    assert.ok((await t.http.get(`/blog/${slug}`).expect(200)).text.includes('/assets/app.js'), 'the first build');
    writeFileSync(join(dist, 'index.html'), TEMPLATE.replace('/assets/app.js', '/assets/app-2.js'));
    const after = (await t.http.get(`/blog/${slug}`).expect(200)).text;
    assert.ok(after.includes('/assets/app-2.js') && !after.includes('/assets/app.js'), `the new build: ${after}`);
    writeFileSync(join(dist, 'index.html'), TEMPLATE);
  });

  it('answers an unknown or unpublished post with 404 and the app (which says the page is not found)', async () => {
    const missing = await t.http.get('/blog/no-such-post-00000000').expect(404);
    assert.match(String(missing.headers['content-type']), /html/);
    assert.ok(missing.text.includes('<div id="root">'), 'the app draws its not-found page');
    const { id } = (await t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title: 'Draft only', content: { blocks: [{ type: 'paragraph', data: { text: 'Not yet.' } }] } }).expect(201)).body as { id: string };
    await t.settle();
    await t.http.get(`/blog/draft-only-${id.slice(0, 8)}`).expect(404);
  });
});
