import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GenerationalReadStore, physicalName, type ReadCollection } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

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

  /** How many post documents the read store handed out while `work` ran. */
  async function postsRead(work: () => Promise<unknown>): Promise<number> {
    const store = t.app.readStore;
    assert.ok(store instanceof GenerationalReadStore, 'the app reads through generations');
    const collection: ReadCollection<{ _id: string }> = store.inner.collection(physicalName('blog_posts', store.generationOf('blog_posts')));
    const { find, get } = collection;
    let read = 0;
    collection.find = async (...args) => {
      const docs = await find.apply(collection, args);
      read += docs.length;
      return docs;
    };
    collection.get = async (...args) => {
      const doc = await get.apply(collection, args);
      if (doc) read += 1;
      return doc;
    };
    try {
      await work();
    } finally {
      collection.find = find;
      collection.get = get;
    }
    return read;
  }

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
});
