import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUNDLED_ARTICLES } from '@telemed/contracts/bundled-articles';
import { startTestApp, tmpDataDir, type TestApp, type TestUser } from '../support/test-app';

const TEMPLATE = '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Telemed</title>\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n';

describe("the bundled sample profiles' articles at /blog/{slug} (issue 16)", () => {
  let t: TestApp;
  let doctor: TestUser;

  before(async () => {
    const dist = join(tmpDataDir(), 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'index.html'), TEMPLATE);
    t = await startTestApp({ frontendDir: dist });
    doctor = await t.createUser('doctor', { name: 'Dr. Nisha Rao' });
  });
  after(() => t.close());

  it('answers each bundled article with 200 and its Open Graph tags, and the sitemap lists it', async () => {
    const sitemap = (await t.http.get('/sitemap.xml').expect(200)).text;
    for (const article of BUNDLED_ARTICLES) {
      const page = await t.http.get(`/blog/${article.slug}`).expect(200);
      assert.ok(page.text.includes(`<meta property="og:title" content="${article.title}">`), `${article.slug}: og:title: ${page.text}`);
      assert.ok(page.text.includes(`<title>${article.title} · ${article.author_name}</title>`), `${article.slug}: title`);
      assert.ok(page.text.includes('<meta property="og:type" content="article">'), `${article.slug}: og:type`);
      assert.ok(sitemap.includes(`/blog/${article.slug}</loc>`), `${article.slug} in the sitemap: ${sitemap}`);
      const api = (await t.http.get(`/api/v1/public/blogs/${article.slug}`).expect(200)).body as { title: string; author_id: string; content: { blocks: unknown[] } };
      assert.equal(api.title, article.title, `${article.slug}: the API's post`);
      assert.equal(api.author_id, article.author_id, `${article.slug}: its sample profile`);
      assert.ok(api.content.blocks.length > 3, `${article.slug}: has its text`);
    }
  });

  it('an unknown slug is still 404, on the page and in the API', async () => {
    await t.http.get('/blog/no-such-article').expect(404);
    await t.http.get('/api/v1/public/blogs/no-such-article').expect(404);
  });

  it('a real post with a bundled title gets its own slug; both pages answer their own article', async () => {
    const article = BUNDLED_ARTICLES[0]!;
    const body = { title: article.title, content: { blocks: [{ type: 'paragraph', data: { text: 'My own advice.' } }] } };
    const { id } = (await t.http.post('/api/v1/blogs/').set(doctor.auth).send(body).expect(201)).body as { id: string };
    const { slug } = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(doctor.auth).expect(200)).body as { slug: string };
    await t.settle();
    assert.notEqual(slug, article.slug, 'never the bundled slug');
    assert.equal(((await t.http.get(`/api/v1/public/blogs/${slug}`).expect(200)).body as { id: string }).id, id, 'the real post at its slug');
    assert.equal(((await t.http.get(`/api/v1/public/blogs/${article.slug}`).expect(200)).body as { author_id: string }).author_id, article.author_id, 'the bundled article at its own');
    const sitemap = (await t.http.get('/sitemap.xml').expect(200)).text;
    assert.ok(sitemap.includes(`/blog/${encodeURIComponent(slug)}</loc>`) && sitemap.includes(`/blog/${article.slug}</loc>`), 'both listed');
  });
});
