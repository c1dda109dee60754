import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { documentsRead } from '../support/documents-read';

const post = (title: string) => ({ title, description: null, content: { time: 1, version: '2.31.0', blocks: [{ type: 'paragraph', data: { text: `About ${title}` } }] } });

/** A doctor's list of their own posts read every post they wrote to answer a page of them. */
for (const readStoreKind of ['memory', 'sqlite']) describe(`a doctor's page of their posts reads what it shows (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let author: TestUser;
  const POSTS = 24;

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: readStoreKind } });
    author = await t.createUser('doctor');
    for (let i = 0; i < POSTS; i += 1) {
      const id = (await t.http.post('/api/v1/blogs/').set(author.auth).send(post(`Post ${String.fromCharCode(97 + ((i * 7) % 26))} ${i}`)).expect(201)).body.id as string;
      if (i % 2 === 0) await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200);
    }
    await t.settle();
  });
  after(() => t.close());

  const postsRead = (work: () => Promise<unknown>) => documentsRead(t, 'blog_posts', work);

  const list = (query: Record<string, string | number>) => t.http.get('/api/v1/blogs/').query(query).set(author.auth).expect(200);

  it('each page of 5 reads at most 5 posts, in every order and tab, and the pages join into the whole list in its order', async () => {
    for (const sort of ['date', 'title', 'views']) {
      for (const status of ['all', 'published', 'draft']) {
        const whole = (await list({ sort, status, limit: 50 })).body as { items: Array<{ id: string }>; total: number };
        assert.equal(whole.total, status === 'all' ? POSTS : POSTS / 2, `${status} counts every post of the tab`);
        const joined: string[] = [];
        for (let offset = 0; offset < whole.total; offset += 5) {
          let body: { items: Array<{ id: string }>; total: number } | undefined;
          const read = await postsRead(async () => (body = (await list({ sort, status, limit: 5, offset })).body));
          assert.ok(read <= 5, `${sort}, ${status}, offset ${offset}: read ${read} posts for a page of 5`);
          assert.equal(body!.total, whole.total, 'every page says the total');
          joined.push(...body!.items.map((p) => p.id));
        }
        assert.deepEqual(joined, whole.items.map((p) => p.id), `${sort}, ${status}: the pages are the list in order`);
      }
    }
  });

  it('/sitemap.xml reads the posts once while they stay the same, and lists a post published since', async () => {
    const first = await postsRead(() => t.http.get('/sitemap.xml').expect(200));
    assert.ok(first >= POSTS / 2, `the first build reads the published posts (${first})`);
    for (let i = 0; i < 3; i += 1) assert.equal(await postsRead(() => t.http.get('/sitemap.xml').expect(200)), 0, 'an unchanged sitemap reads no post again');
    const id = (await t.http.post('/api/v1/blogs/').set(author.auth).send(post('Fresh news')).expect(201)).body.id as string;
    const slug = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200)).body.slug as string;
    await t.settle();
    assert.ok((await t.http.get('/sitemap.xml').expect(200)).text.includes(`/blog/${slug}</loc>`), 'a post published since is listed');
    // What the sitemap does not list moves other checkpoints, not its revision: a view, a draft, another person's event.
    await t.http.post(`/api/v1/blogs/${id}/views`).send({ reader_session: 'a-reader-session-0001' }).expect((res) => assert.ok(res.status < 300, String(res.status)));
    await t.http.post('/api/v1/blogs/').set(author.auth).send(post('Still a draft')).expect(201);
    await t.createUser('patient');
    await t.settle();
    assert.equal(await postsRead(() => t.http.get('/sitemap.xml').expect(200)), 0, 'nothing the sitemap lists changed: no post is read');
    // Withdrawn: archived, it leaves the sitemap.
    await t.http.post(`/api/v1/blogs/${id}/archive`).set(author.auth).expect(200);
    await t.settle();
    assert.ok(!(await t.http.get('/sitemap.xml').expect(200)).text.includes(`/blog/${slug}</loc>`), 'an archived post is no longer listed');
  });
});
