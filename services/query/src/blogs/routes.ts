import {
  BLOG_CATEGORIES,
  BLOG_IMAGE_GRANT,
  BLOG_STATUSES,
  API_TEXTS,
  BLOG_TEXTS,
  BLOG_TOPIC_IDEAS,
  blogIdParamsSchema,
  blogImageGrantResponseSchema,
  blogImageId,
  blogImageParamsSchema,
  blogImageQuerySchema,
  blogListQuerySchema,
  blogListResponseSchema,
  blogPostSummarySchema,
  blogPostViewSchema,
  blogSlugParamsSchema,
  blogTopicIdeasQuerySchema,
  blogTopicIdeasResponseSchema,
  grantedBlogImageUrl,
  instantRange,
  notFound,
  publicDoctorParamsSchema,
  z,
  type BlogListQuery,
  type BlogListResponse,
  type BlogPostSummary,
  type BlogPostView,
} from '@telemed/contracts';
import {
  BlobErasedError,
  BlobNotFoundError,
  HttpError,
  RawBody,
  StreamedBody,
  policies,
  type ApiRouter,
  type BlobStore,
  type Filter,
  type Logger,
  type ReadCollection,
  type ReadStore,
  type TokenService,
  type UrlSigner,
  type WritingAssistant,
} from '@telemed/platform';
import { BUNDLED_ARTICLES, bundledArticleView } from '@telemed/contracts/bundled-articles';
import type { DoctorDoc } from '../projections/documents';
import {
  BLOG_AUTHORS,
  BLOG_CONTENTS,
  BLOG_IMAGES,
  BLOG_LIST_ORDERS,
  BLOG_POSTS,
  BLOG_PUBLISHED_REVISION,
  BLOG_SCHEDULED,
  viewMonth,
  type BlogAuthorDoc,
  type BlogContentDoc,
  type BlogImageDoc,
  type BlogPostDoc,
  type BlogPublishedRevisionDoc,
  type BlogScheduledDoc,
} from './projection';

/** What the scheduler looks up: only posts still waiting, by their time, a page at a time after a cursor. */
export function blogLookups(readStore: ReadStore) {
  const scheduled = readStore.collection<BlogScheduledDoc>(BLOG_SCHEDULED);
  return {
    scheduledPostsDueBefore: async (now: Date, page: { after: { post_id: string; publish_at: string } | null; limit: number }) => {
      const after = page.after;
      const cursor = after ? { $or: [{ publish_at: { $gt: after.publish_at } }, { publish_at: after.publish_at, _id: { $gt: after.post_id } }] } : {};
      const docs = await scheduled.find({ publish_at: instantRange({ lte: now }), ...cursor }, { sort: { publish_at: 1, _id: 1 }, limit: page.limit });
      return docs.map((d) => ({ post_id: d._id, publish_at: d.publish_at }));
    },
    nextScheduledPublish: async () => (await scheduled.find({}, { sort: { publish_at: 1, _id: 1 }, limit: 1 }))[0]?.publish_at ?? null,
  };
}

function summary(doc: BlogPostDoc, author: BlogAuthorDoc | null): BlogPostSummary {
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

/**
 * How many of the doctor's posts of the tab a search reads to count its matches. With more, the total is the count
 * among these (a lower bound, which the answer's X-Total-Is-Lower-Bound header says), and the page is read in order
 * until it is filled.
 */
export const SEARCH_COUNT_SCAN = 1000;

/** A page of the list, its total, and whether that total is only a lower bound (a search among many posts). */
interface ListPage {
  items: BlogPostDoc[];
  total: number;
  totalIsLowerBound: boolean;
}

/** A word as a pattern that matches it literally (MongoDB refuses a NUL byte in a pattern, not its escape). */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');

/** Whether a post's search text (lower-cased title, excerpt, tags and text) holds every word. */
const matchesWords = (doc: BlogPostDoc, words: readonly string[]) => words.every((w) => doc.search_text.includes(w));

/** The same test as a filter every store applies while it reads in order, so a find stops once its page is filled. */
const wordsFilter = (words: readonly string[]): Filter => ({ $and: words.map((w) => ({ search_text: { $regex: escapeRegex(w) } })) });

/** Only the page: an indexed find in the (author_id[, status][, category], sort fields) order, and a count of the index entries. */
async function listPage(posts: ReadCollection<BlogPostDoc>, filter: Filter, sort: Record<string, 1 | -1>, query: BlogListQuery): Promise<ListPage> {
  const [items, total] = await Promise.all([posts.find(filter, { sort, skip: query.offset, limit: query.limit }), posts.count(filter)]);
  return { items, total, totalIsLowerBound: false };
}

/**
 * A search in the text has no index: it reads the tab's first SEARCH_COUNT_SCAN posts in the list's order (for most
 * doctors all of them, and then the answer is exact); with more, a page beyond them is read in order until filled.
 */
async function searchPage(posts: ReadCollection<BlogPostDoc>, filter: Filter, sort: Record<string, 1 | -1>, query: BlogListQuery, words: readonly string[]): Promise<ListPage> {
  const end = query.offset + query.limit;
  const scanned = await posts.find(filter, { sort, limit: SEARCH_COUNT_SCAN });
  const found = scanned.filter((d) => matchesWords(d, words));
  if (scanned.length < SEARCH_COUNT_SCAN) return { items: found.slice(query.offset, end), total: found.length, totalIsLowerBound: false };
  const items = found.length >= end ? found.slice(query.offset, end) : await posts.find({ ...filter, ...wordsFilter(words) }, { sort, skip: query.offset, limit: query.limit });
  // A page cut short by the last match tells the total exactly; otherwise more matches may follow the posts counted.
  const exact = items.length < query.limit && (items.length > 0 || query.offset === 0);
  return { items, total: items.length > 0 ? Math.max(found.length, query.offset + items.length) : found.length, totalIsLowerBound: !exact };
}

/** A doctor's own posts: one tab, a category, a search, sorted; with the sidebar's counts and figures. */
export async function doctorBlogList(readStore: ReadStore, authorId: string, query: BlogListQuery, now: Date): Promise<BlogListResponse & { totalIsLowerBound: boolean }> {
  const posts = readStore.collection<BlogPostDoc>(BLOG_POSTS);
  const author = await readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS).get(authorId);
  const filter: Filter = query.status === 'all' ? { author_id: authorId } : { author_id: authorId, status: query.status };
  if (query.category) filter.category = query.category;
  const direction = (query.order ?? (query.sort === 'title' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  // No _id: the store orders ties by it in the keys' direction, so the projection's index is read one way, forwards or backwards.
  const sort: Record<string, 1 | -1> = Object.fromEntries(BLOG_LIST_ORDERS[query.sort].map((f) => [f, direction] as const));
  const words = (query.q ?? '').toLocaleLowerCase('en').split(/\s+/).filter(Boolean);
  const { items, total, totalIsLowerBound } = words.length === 0 ? await listPage(posts, filter, sort, query) : await searchPage(posts, filter, sort, query, words);
  const byStatus = author?.by_status ?? {};
  const counts = {
    all: BLOG_STATUSES.reduce((n, s) => n + (byStatus[s] ?? 0), 0),
    published: byStatus.published ?? 0,
    draft: byStatus.draft ?? 0,
    scheduled: byStatus.scheduled ?? 0,
    archived: byStatus.archived ?? 0,
  };
  return {
    items: items.map((d) => summary(d, author)),
    total,
    totalIsLowerBound,
    counts,
    categories: BLOG_CATEGORIES.map((c) => ({ id: c.id, name: c.name, count: author?.by_category[c.id] ?? 0 })),
    stats: {
      total_views: author?.total_views ?? 0,
      this_month: author?.views_by_month[viewMonth(now.toISOString())] ?? 0,
      avg_read_time: counts.all ? Math.round(((author?.read_time_sum ?? 0) / counts.all) * 10) / 10 : 0,
    },
  };
}

async function fullPost(readStore: ReadStore, doc: BlogPostDoc, author: BlogAuthorDoc | null): Promise<BlogPostView> {
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

/** The author's own view of their post: every picture's address carries their short-lived grant (drafts' have no other). */
function withGrants<T extends BlogPostSummary | BlogPostView>(post: T, grants: UrlSigner, now: Date): T {
  const grant = (url: string) => {
    const id = blogImageId(url);
    return id ? grantedBlogImageUrl(id, grants.sign(id, post.author_id, now)) : url;
  };
  const signed = { ...post, image_url: post.image_url ? grant(post.image_url) : null };
  if (!('content' in post)) return signed;
  const blocks = post.content.blocks.map((block) => (block.type === 'image' ? { ...block, data: { ...block.data, file: { ...block.data.file, url: grant(block.data.file.url) } } } : block));
  return { ...signed, content: { ...post.content, blocks } };
}

type TopicIdeasAnswer = z.output<typeof blogTopicIdeasResponseSchema>;

/** Seed 001 §9: three of the bundled ideas, at random. */
function bundledIdeas(count: number): TopicIdeasAnswer['ideas'] {
  const pool = [...BLOG_TOPIC_IDEAS];
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count).map((idea) => ({ ...idea }));
}

const IDEAS_OFFERED = 3;

/**
 * A published post's picture in any cache (browsers, shared): stored, but asked about again before each use, so an
 * archived or deleted post's pictures stop showing at once (the answer is then 404) while a shown one costs a 304.
 */
export const PUBLIC_IMAGE_CACHE = 'public, no-cache';

export interface BlogQueryDeps {
  readStore: ReadStore;
  blobs?: BlobStore;
  clock: () => Date;
  tokens: TokenService;
  /** A writing model for the Writing Assistant (WRITING_MODEL_URL); without one, or when it fails, the bundled ideas. */
  writing?: WritingAssistant | null;
  logger?: Logger;
}

/** The hub's reads: a doctor's own posts (any status), anyone's published ones, images, and the topic ideas. */
export function blogQueryRoutes(api: ApiRouter, deps: BlogQueryDeps): void {
  const { readStore } = deps;
  const grants = deps.tokens.urlSigner(BLOG_IMAGE_GRANT.purpose, BLOG_IMAGE_GRANT);
  const posts = readStore.collection<BlogPostDoc>(BLOG_POSTS);
  const authors = readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS);

  api.route({
    method: 'get',
    path: '/blogs/topic-ideas',
    summary:
      "The Writing Assistant's topic ideas: from the writing model when one is configured (sent only the doctor's specialty and the post's title and category), otherwise or when it fails three of the bundled ideas, saying so",
    tags: ['blogs'],
    policy: policies.roles('doctor'),
    query: blogTopicIdeasQuerySchema,
    response: blogTopicIdeasResponseSchema,
    handler: async ({ query, auth }): Promise<{ body: TopicIdeasAnswer }> => {
      const writing = deps.writing;
      if (!writing) return { body: { source: 'bundled' as const, notice: BLOG_TEXTS.bundledIdeasNotice, ideas: bundledIdeas(IDEAS_OFFERED) } };
      const doctor = await readStore.collection<DoctorDoc>('doctors').get(auth.user_id);
      try {
        const ideas = await writing.topicIdeas({
          specialty: doctor?.specialty ?? null,
          title: query.title || null,
          category: BLOG_CATEGORIES.find((c) => c.id === query.category)?.name ?? null,
          count: IDEAS_OFFERED,
        });
        return { body: { source: 'model' as const, notice: BLOG_TEXTS.modelIdeasNotice(writing.name), ideas: ideas.map((idea, i) => ({ id: `model-${i + 1}`, ...idea })) } };
      } catch (error) {
        // Only why it failed: never what was asked.
        deps.logger?.warn({ reason: (error as { reason?: string }).reason ?? 'error', model: writing.name }, 'writing model failed; offering the bundled ideas');
        return { body: { source: 'bundled' as const, notice: BLOG_TEXTS.modelFailedNotice, ideas: bundledIdeas(IDEAS_OFFERED) } };
      }
    },
  });

  api.route({
    method: 'get',
    path: '/blogs/images/:image_id',
    summary:
      "A post's image, served with the type its content was found to be: anyone's once a published post of its author shows it (cached publicly); otherwise only with its author's short-lived grant (`exp`, `sig`), which their own reads of the post carry",
    tags: ['blogs'],
    policy: policies.public,
    params: blogImageParamsSchema,
    query: blogImageQuerySchema,
    errors: [404],
    handler: async ({ params, query, req, res }): Promise<{ status?: number; body: RawBody | StreamedBody }> => {
      const image = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).get(params.image_id);
      if (!image || !deps.blobs) throw notFound(BLOG_TEXTS.imageNotFound);
      const shown = image.published_in.length > 0 && Boolean((await authors.get(image.author_id))?.active);
      // Not shown by a published post: the same answer as no such picture, unless the author's grant comes with it.
      if (!shown && !grants.verify(image._id, image.author_id, query, deps.clock())) throw notFound(BLOG_TEXTS.imageNotFound);
      if (shown) {
        // A picture's bytes never change, but whether it is public does (archive, delete, the doctor's account): caches
        // keep it only while they ask again each time, and the question costs a 304 with no body while it is shown.
        res.set('Cache-Control', PUBLIC_IMAGE_CACHE);
        res.set('ETag', `"${image._id}"`);
        if (req.fresh) return { status: 304, body: new RawBody(Buffer.alloc(0), image.content_type) };
      }
      let stream;
      try {
        stream = await deps.blobs.open(image.blob_id);
      } catch (error) {
        if (error instanceof BlobErasedError) throw new HttpError(410, BLOG_TEXTS.imageNotFound);
        if (error instanceof BlobNotFoundError) throw notFound(BLOG_TEXTS.imageNotFound);
        throw error;
      }
      res.set('Content-Length', String(image.size));
      res.set('X-Content-Type-Options', 'nosniff');
      res.set('Content-Disposition', 'inline');
      // Seen through its author's grant only: never kept.
      if (!shown) res.set('Cache-Control', 'private, no-store');
      return { body: new StreamedBody(stream, image.content_type) };
    },
  });

  api.route({
    method: 'get',
    path: '/blogs/images/:image_id/grant',
    summary:
      "A fresh short-lived address for one of the caller's own pictures: the editor asks for it before the grant it holds runs out (or when a picture fails to load), so a post open for hours keeps showing its pictures",
    tags: ['blogs'],
    policy: policies.roles('doctor'),
    params: blogImageParamsSchema,
    response: blogImageGrantResponseSchema,
    errors: [404],
    handler: async ({ params, auth }) => {
      const image = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).get(params.image_id);
      // Someone else's picture is answered as no picture.
      if (!image || image.author_id !== auth.user_id) throw notFound(BLOG_TEXTS.imageNotFound);
      const grant = grants.sign(image._id, image.author_id, deps.clock());
      return { body: { url: grantedBlogImageUrl(image._id, grant), expires_at: new Date(grant.exp * 1000).toISOString() }, headers: { 'Cache-Control': 'private, no-store' } };
    },
  });

  api.route({
    method: 'get',
    path: '/blogs/',
    summary:
      "The doctor's own posts: a tab (status), category, search (q), sort by date, title or views; counts per status and category, views and reading time. A search among more than 1,000 posts of the tab counts its total among the first 1,000 in the list's order and says so with `X-Total-Is-Lower-Bound: true`",
    tags: ['blogs'],
    policy: policies.roles('doctor'),
    query: blogListQuerySchema,
    response: blogListResponseSchema,
    handler: async ({ query, auth }) => {
      const now = deps.clock();
      const { totalIsLowerBound, ...list } = await doctorBlogList(readStore, auth.user_id, query, now);
      return { body: { ...list, items: list.items.map((item) => withGrants(item, grants, now)) }, ...(totalIsLowerBound && { headers: { 'X-Total-Is-Lower-Bound': 'true' } }) };
    },
  });

  api.route({
    method: 'get',
    path: '/blogs/:id',
    summary: 'One post with its blocks: its author sees it in any status, anyone signed in sees it once published',
    tags: ['blogs'],
    policy: policies.anyUser,
    params: blogIdParamsSchema,
    response: blogPostViewSchema,
    errors: [404],
    handler: async ({ params, auth }) => {
      const doc = await posts.get(params.id);
      const author = doc ? await authors.get(doc.author_id) : null;
      const visible = doc && (doc.author_id === auth.user_id || (doc.status === 'published' && author?.active));
      if (!doc || !visible) throw notFound(BLOG_TEXTS.postNotFound);
      const post = await fullPost(readStore, doc, author);
      return { body: doc.author_id === auth.user_id ? withGrants(post, grants, deps.clock()) : post };
    },
  });

  api.route({
    method: 'get',
    path: '/public/blogs/:slug',
    summary: 'A published post by its slug, for its public page (no sign-in)',
    tags: ['public'],
    policy: policies.public,
    params: blogSlugParamsSchema,
    response: blogPostViewSchema,
    errors: [404],
    handler: async ({ params }) => {
      const post = await publishedPostBySlug(readStore, params.slug);
      if (!post) throw notFound(BLOG_TEXTS.postNotFound);
      return { body: post };
    },
  });

  api.route({
    method: 'get',
    path: '/public/doctors/:doctor_id/blogs',
    summary: "A doctor's published posts, newest first, for their public page (no sign-in)",
    tags: ['public'],
    policy: policies.public,
    params: publicDoctorParamsSchema.pick({ doctor_id: true }),
    response: z.array(blogPostSummarySchema),
    errors: [404],
    handler: async ({ params }) => {
      // An id that is no doctor's is not found; a doctor whose account is closed simply has no public posts.
      if (!(await readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS).get(params.doctor_id))) throw notFound(API_TEXTS.doctorNotFound);
      return { body: await publishedPostsOf(readStore, params.doctor_id) };
    },
  });
}
