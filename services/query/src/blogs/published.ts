import type { BlogPostSummary, BlogPostView } from '@telemed/contracts';
import type { Filter, ReadStore } from '@telemed/platform';
import { BUNDLED_ARTICLES, bundledArticleView } from '@telemed/contracts/bundled-articles';
import { BLOG_AUTHORS, BLOG_CONTENTS, BLOG_POSTS, BLOG_PUBLISHED_REVISION, type BlogAuthorDoc, type BlogContentDoc, type BlogPostDoc, type BlogPublishedRevisionDoc } from './projection';

/** A post as lists show it, with its author's name. */
export function summary(doc: BlogPostDoc, author: BlogAuthorDoc | null): BlogPostSummary {
  return {
    id: doc._id,
    author_id: doc.author_id,
    author_name: author?.name ?? 'Doctor',
    author_photo_url: null,
    title: doc.title,
    description: doc.description,
    excerpt: doc.excerpt ?? '',
    category: doc.category,
    tags: doc.tags,
    image_url: doc.image_url,
    date: doc.date,
    status: doc.status,
    slug: doc.slug,
    publish_at: doc.publish_at,
    published_at: doc.published_at,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    views: doc.views,
    read_time: doc.read_time,
  };
}

export async function fullPost(readStore: ReadStore, doc: BlogPostDoc, author: BlogAuthorDoc | null): Promise<BlogPostView> {
  const content = (await readStore.collection<BlogContentDoc>(BLOG_CONTENTS).get(doc._id))?.content ?? { blocks: [] };
  return { ...summary(doc, author), content };
}

/** Published posts of an active doctor, newest first (their public page, the sitemap). */
export async function publishedPostsOf(readStore: ReadStore, authorId: string, limit = 50): Promise<BlogPostSummary[]> {
  const author = await readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS).get(authorId);
  if (!author?.active) return [];
  const docs = await readStore.collection<BlogPostDoc>(BLOG_POSTS).find({ author_id: authorId, status: 'published' }, { sort: { published_at: -1, _id: -1 }, limit });
  return docs.map((d) => summary(d, author));
}

/**
 * The post at this slug if it is published and its doctor's account is active; else a bundled sample profile's
 * article of that slug (a real post comes first: a bundled article never shadows one); null otherwise.
 */
export async function publishedPostBySlug(readStore: ReadStore, slug: string): Promise<BlogPostView | null> {
  const [doc] = await readStore.collection<BlogPostDoc>(BLOG_POSTS).find({ slug, status: 'published' }, { limit: 1 });
  const author = doc ? await readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS).get(doc.author_id) : null;
  if (doc && author?.active) return fullPost(readStore, doc, author);
  return bundledArticleView(slug);
}

/** What the public pages list has changed since `revision` was read when this answers another number (0: never built). */
export async function publishedPostsRevision(readStore: ReadStore): Promise<number> {
  return (await readStore.collection<BlogPublishedRevisionDoc>(BLOG_PUBLISHED_REVISION).get('published'))?.revision ?? 0;
}

const SITEMAP_PAGE = 500;

/**
 * Every published post of an active doctor, newest first, then the bundled sample profiles' articles (the sitemap), at
 * most `limit` posts: read a page at a time after the last one's (published_at, id), with the event loop free between
 * pages, so a long list is never one long read.
 */
export async function publishedPostsForSitemap(readStore: ReadStore, limit = 50_000): Promise<Array<{ slug: string; updated_at: string }>> {
  const posts = readStore.collection<BlogPostDoc>(BLOG_POSTS);
  const authors = readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS);
  const active = new Map<string, boolean>();
  const out: Array<{ slug: string; updated_at: string }> = [];
  let after: { published_at: string; id: string } | null = null;
  for (let read = 0; read < limit; ) {
    const filter: Filter = after
      ? { status: 'published', $or: [{ published_at: { $lt: after.published_at } }, { published_at: after.published_at, _id: { $lt: after.id } }] }
      : { status: 'published' };
    const page = await posts.find(filter, { sort: { published_at: -1, _id: -1 }, limit: Math.min(SITEMAP_PAGE, limit - read) });
    for (const doc of page) {
      if (!active.has(doc.author_id)) active.set(doc.author_id, Boolean((await authors.get(doc.author_id))?.active));
      if (active.get(doc.author_id) && doc.slug) out.push({ slug: doc.slug, updated_at: doc.updated_at });
    }
    read += page.length;
    const last = page.at(-1);
    if (page.length < SITEMAP_PAGE || !last?.published_at) break;
    after = { published_at: last.published_at, id: last._id };
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  // The bundled sample profiles' articles are public pages too.
  const listed = new Set(out.map((p) => p.slug));
  for (const article of BUNDLED_ARTICLES) if (!listed.has(article.slug)) out.push({ slug: article.slug, updated_at: article.date });
  return out;
}
