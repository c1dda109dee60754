import {
  API_TEXTS,
  BLOG_CATEGORIES,
  BLOG_IMAGE_GRANT,
  BLOG_TEXTS,
  BLOG_TOPIC_IDEAS,
  blogImageId,
  grantedBlogImageUrl,
  notFound,
  type ApiRoutes,
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
  type Logger,
  type ReadStore,
  type TokenService,
  type UrlSigner,
  type WritingAssistant,
} from '@telemed/platform';
import type { DoctorDoc } from '../projections/documents';
import { BLOG_AUTHORS, BLOG_IMAGES, BLOG_POSTS, type BlogAuthorDoc, type BlogImageDoc, type BlogPostDoc } from './projection';
import { doctorBlogList } from './doctor-list';
import { fullPost, publishedPostBySlug, publishedPostsOf } from './published';

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

type TopicIdeasAnswer = ApiRoutes['listBlogTopicIdeas']['response'];

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
  const grants = deps.tokens.urlSigner(BLOG_IMAGE_GRANT.purpose, BLOG_IMAGE_GRANT);
  topicIdeaRoutes(api, deps);
  blogImageRoutes(api, deps, grants);
  blogPostRoutes(api, deps, grants);
}

/** The Writing Assistant's topic ideas. */
function topicIdeaRoutes(api: ApiRouter, deps: BlogQueryDeps): void {
  const { readStore } = deps;
  api.implement('listBlogTopicIdeas', {
    policy: policies.roles('doctor'),
    handler: async ({ query, auth }) => {
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
}

/** A post's pictures: public once published, otherwise through their author's grant; and a fresh grant for the author. */
function blogImageRoutes(api: ApiRouter, deps: BlogQueryDeps, grants: UrlSigner): void {
  const { readStore } = deps;
  const authors = readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS);

  api.implement('getBlogImage', {
    policy: policies.public,
    handler: async ({ params, query, req, res }) => {
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

  api.implement('getBlogImageGrant', {
    policy: policies.roles('doctor'),
    handler: async ({ params, auth }) => {
      const image = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).get(params.image_id);
      // Someone else's picture is answered as no picture.
      if (!image || image.author_id !== auth.user_id) throw notFound(BLOG_TEXTS.imageNotFound);
      const grant = grants.sign(image._id, image.author_id, deps.clock());
      return { body: { url: grantedBlogImageUrl(image._id, grant), expires_at: new Date(grant.exp * 1000).toISOString() }, headers: { 'Cache-Control': 'private, no-store' } };
    },
  });
}

/** A doctor's own posts, one post, and the public pages' posts. */
function blogPostRoutes(api: ApiRouter, deps: BlogQueryDeps, grants: UrlSigner): void {
  const { readStore } = deps;
  const posts = readStore.collection<BlogPostDoc>(BLOG_POSTS);
  const authors = readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS);

  api.implement('listMyBlogPosts', {
    policy: policies.roles('doctor'),
    handler: async ({ query, auth }) => {
      const now = deps.clock();
      const { totalIsLowerBound, ...list } = await doctorBlogList(readStore, auth.user_id, query, now);
      return { body: { ...list, items: list.items.map((item) => withGrants(item, grants, now)) }, ...(totalIsLowerBound && { headers: { 'X-Total-Is-Lower-Bound': 'true' } }) };
    },
  });

  api.implement('getBlogPost', {
    policy: policies.anyUser,
    handler: async ({ params, auth }) => {
      const doc = await posts.get(params.id);
      const author = doc ? await authors.get(doc.author_id) : null;
      const visible = doc && (doc.author_id === auth.user_id || (doc.status === 'published' && author?.active));
      if (!doc || !visible) throw notFound(BLOG_TEXTS.postNotFound);
      const post = await fullPost(readStore, doc, author);
      return { body: doc.author_id === auth.user_id ? withGrants(post, grants, deps.clock()) : post };
    },
  });

  api.implement('getPublicBlogPost', {
    policy: policies.public,
    handler: async ({ params }) => {
      const post = await publishedPostBySlug(readStore, params.slug);
      if (!post) throw notFound(BLOG_TEXTS.postNotFound);
      return { body: post };
    },
  });

  api.implement('listPublicDoctorBlogPosts', {
    policy: policies.public,
    handler: async ({ params }) => {
      // An id that is no doctor's is not found; a doctor whose account is closed simply has no public posts.
      if (!(await readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS).get(params.doctor_id))) throw notFound(API_TEXTS.doctorNotFound);
      return { body: await publishedPostsOf(readStore, params.doctor_id) };
    },
  });
}
