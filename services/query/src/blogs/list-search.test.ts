import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BLOG_CATEGORY_IDS, blogListQuerySchema, type BlogStatus } from '@telemed/contracts';
import { MemoryReadStore, SqliteReadStore, type ReadCollection, type ReadStore } from '@telemed/platform';
import { SEARCH_COUNT_SCAN, doctorBlogList } from './doctor-list';
import { BLOG_LIST_ORDERS, BLOG_POSTS, blogPostsProjection, type BlogPostDoc } from './projection';

const AUTHOR = 'doc-many';
const OTHER = 'doc-other';
const POSTS = SEARCH_COUNT_SCAN + 300;
const STATUSES: BlogStatus[] = ['published', 'draft', 'archived'];
const NOW = new Date('2030-06-01T00:00:00Z');

/** Post i: few distinct dates and view counts (ties), every 7th about fever, "dengue" only in three of the oldest. */
function post(i: number, author = AUTHOR): BlogPostDoc {
  const at = new Date(Date.UTC(2029, 0, 1) + i * 60_000).toISOString();
  const words = [i % 7 === 0 ? 'fever' : 'cough', i < 3 ? 'dengue' : '', `#${i}`].join(' ');
  return {
    _id: `${author}-${String((i * 7919) % 100_000).padStart(5, '0')}`,
    author_id: author,
    title: `Post ${i % 50}`,
    title_key: `post ${i % 50}`,
    description: '',
    excerpt: null,
    category: BLOG_CATEGORY_IDS[i % BLOG_CATEGORY_IDS.length]!,
    tags: [],
    image_url: null,
    date: `2029-${String(1 + (Math.floor(i / 40) % 12)).padStart(2, '0')}-01`,
    status: STATUSES[i % STATUSES.length]!,
    slug: null,
    publish_at: null,
    published_at: null,
    created_at: at,
    updated_at: at,
    views: i % 5,
    read_time: 1,
    search_text: `post ${i % 50}\n\n\n${words}`,
    image_ids: [],
    public_image_ids: [],
  };
}

/** The list as it was computed from every post (the tab's posts, matched in JS, sorted), for comparison. */
function expected(all: BlogPostDoc[], query: ReturnType<typeof blogListQuerySchema.parse>): { ids: string[]; total: number } {
  const words = (query.q ?? '').toLocaleLowerCase('en').split(/\s+/).filter(Boolean);
  const direction = (query.order ?? (query.sort === 'title' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  const keys = [...BLOG_LIST_ORDERS[query.sort], '_id'] as Array<'date' | 'created_at' | 'title_key' | 'views' | '_id'>;
  const found = all
    .filter((d) => d.author_id === AUTHOR && (query.status === 'all' || d.status === query.status) && (!query.category || d.category === query.category))
    .filter((d) => words.every((w) => d.search_text.includes(w)))
    .sort((a, b) => {
      for (const key of keys) if (a[key] !== b[key]) return (a[key] < b[key] ? -1 : 1) * direction;
      return 0;
    });
  return { ids: found.slice(query.offset, query.offset + query.limit).map((d) => d._id), total: found.length };
}

async function seeded(store: ReadStore): Promise<ReadStore> {
  for (const index of blogPostsProjection.indexes ?? []) {
    if ('field' in index) await store.ensureIndex(index.collection, index.field);
    else await store.ensureCompoundIndex?.(index.collection, index.fields);
  }
  const batch = store.beginBatch();
  const posts = batch.collection<BlogPostDoc>(BLOG_POSTS);
  for (let i = 0; i < POSTS; i += 1) await posts.put(post(i));
  for (let i = 0; i < 20; i += 1) await posts.put(post(i, OTHER));
  await batch.commit([]);
  await store.settle?.();
  return store;
}

/** How many posts the finds of `work` handed out. */
async function postsRead(store: ReadStore, work: () => Promise<unknown>): Promise<number> {
  const collection: ReadCollection<BlogPostDoc> = store.collection(BLOG_POSTS);
  const find = collection.find.bind(collection);
  let read = 0;
  const counting = Object.assign(Object.create(collection) as ReadCollection<BlogPostDoc>, {
    find: async (...args: Parameters<typeof find>) => {
      const docs = await find(...args);
      read += docs.length;
      return docs;
    },
  });
  const original = store.collection.bind(store);
  store.collection = ((name: string) => (name === BLOG_POSTS ? counting : original(name))) as ReadStore['collection'];
  try {
    await work();
  } finally {
    store.collection = original;
  }
  return read;
}

for (const kind of ['memory', 'sqlite'] as const) {
  describe(`a doctor's search of their many posts answers as before, reading a bounded number of them (${kind} read store)`, () => {
    let store: ReadStore;
    const all = [...Array.from({ length: POSTS }, (_, i) => post(i)), ...Array.from({ length: 20 }, (_, i) => post(i, OTHER))];
    const list = (raw: Record<string, string | number>) => {
      const query = blogListQuerySchema.parse(raw);
      return { query, answer: doctorBlogList(store, AUTHOR, query, NOW) };
    };

    before(async () => {
      store = await seeded(kind === 'memory' ? new MemoryReadStore() : new SqliteReadStore({ filename: ':memory:' }));
    });
    after(() => store.close());

    it('returns the same page in every order, tab, category and offset; the total is exact or says it is a lower bound', async () => {
      for (const sort of ['date', 'title', 'views']) {
        for (const order of ['asc', 'desc']) {
          for (const tab of [{}, { status: 'draft' }] as Array<Record<string, string>>) {
            for (const category of [{}, { category: BLOG_CATEGORY_IDS[1]! }] as Array<Record<string, string>>) {
              for (const q of ['fever', 'DENGUE', 'post 7 fever', 'nothing-matches', '']) {
                for (const offset of [0, 45, 400, 2000]) {
                  const raw = { sort, order, ...tab, ...category, q, offset, limit: 50 };
                  const { query, answer } = list(raw);
                  const { items, total, totalIsLowerBound } = await answer;
                  const want = expected(all, query);
                  const label = JSON.stringify(raw);
                  assert.deepEqual(items.map((p) => p.id), want.ids, `${label}: the page`);
                  if (totalIsLowerBound) {
                    assert.ok(q !== '', `${label}: only a search's total is bounded`);
                    assert.ok(total <= want.total && (items.length === 0 || total >= offset + items.length), `${label}: ${total} is a lower bound of ${want.total}`);
                  } else {
                    assert.equal(total, want.total, `${label}: the total`);
                  }
                }
              }
            }
          }
        }
      }
    });

    it('a search reads the first posts of the tab in order, not all of them, while its page is among them', async () => {
      const read = await postsRead(store, () => list({ q: 'fever', sort: 'views', order: 'desc' }).answer);
      assert.ok(read <= SEARCH_COUNT_SCAN, `read ${read} of ${POSTS} posts`);
      const { total, totalIsLowerBound } = await list({ q: 'fever' }).answer;
      assert.ok(totalIsLowerBound && total < Math.ceil(POSTS / 7), 'counted among the first posts only, and said so');
    });

    it('finds the matches beyond the posts it counts among, and then knows the total', async () => {
      const { items, total, totalIsLowerBound } = await list({ q: 'dengue', sort: 'date', order: 'desc' }).answer;
      assert.equal(items.length, 3, 'the three oldest posts');
      assert.equal(total, 3);
      assert.equal(totalIsLowerBound, false, 'the page ended before the limit: every match was seen');
    });
  });
}
