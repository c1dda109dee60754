import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryReadStore } from '@telemed/platform';
import { BUNDLED_ARTICLES } from '@telemed/contracts/bundled-articles';
import { publishedPostBySlug, publishedPostsForSitemap } from './published';
import { BLOG_AUTHORS, BLOG_CONTENTS, BLOG_POSTS, type BlogAuthorDoc, type BlogContentDoc, type BlogPostDoc } from './projection';

const SLUG = 'what-to-do-about-a-fever';

/**
 * A real post can never get a bundled slug (a real slug ends with 8 hex digits of its UUID); should one ever carry one
 * anyway (a slug rule changed later, an old log), the doctor's post wins: a bundled article never shadows a real one.
 */
async function storeWithRealPost(slug: string, active: boolean): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  const at = '2030-01-01T10:00:00.000Z';
  const post: BlogPostDoc = {
    _id: '00000000-0000-4000-8000-000000000001',
    author_id: 'doc-1',
    title: 'A real doctor’s fever post',
    title_key: 'a real doctor’s fever post',
    description: 'Real.',
    excerpt: null,
    category: 'medical-advice',
    tags: [],
    image_url: null,
    date: '2030-01-01',
    status: 'published',
    slug,
    publish_at: null,
    published_at: at,
    created_at: at,
    updated_at: at,
    views: 0,
    read_time: 1,
    search_text: 'real',
    image_ids: [],
    public_image_ids: [],
  };
  await store.collection<BlogPostDoc>(BLOG_POSTS).put(post);
  await store.collection<BlogContentDoc>(BLOG_CONTENTS).put({ _id: post._id, content: { blocks: [{ type: 'paragraph', data: { text: 'Real.' } }] } });
  const author: BlogAuthorDoc = { _id: 'doc-1', name: 'Dr. Real', active, by_status: {}, by_category: {}, read_time_sum: 0, total_views: 0, views_by_month: {} };
  await store.collection<BlogAuthorDoc>(BLOG_AUTHORS).put(author);
  return store;
}

describe('bundled articles beside real posts: precedence', () => {
  it('a published real post at a slug comes first; the bundled article answers only where no real post does', async () => {
    const store = await storeWithRealPost(SLUG, true);
    assert.equal((await publishedPostBySlug(store, SLUG))?.author_id, 'doc-1', 'the real post is not shadowed');
    const empty = new MemoryReadStore();
    const bundled = await publishedPostBySlug(empty, SLUG);
    assert.equal(bundled?.author_id, 'dr-ananya-sharma', 'the bundled article where there is no real post');
    assert.equal(await publishedPostBySlug(empty, 'no-such-post-00000000'), null, 'an unknown slug is nothing');
  });

  it("a closed doctor's post leaves the page to the bundled article, and the sitemap lists each slug once", async () => {
    const closed = await storeWithRealPost(SLUG, false);
    assert.equal((await publishedPostBySlug(closed, SLUG))?.author_id, 'dr-ananya-sharma', 'the bundled article');
    const open = await storeWithRealPost(SLUG, true);
    const slugs = (await publishedPostsForSitemap(open)).map((p) => p.slug);
    assert.equal(slugs.filter((s) => s === SLUG).length, 1, `listed once: ${slugs.join(', ')}`);
    for (const article of BUNDLED_ARTICLES) assert.ok(slugs.includes(article.slug), `${article.slug} in the sitemap`);
  });
});
