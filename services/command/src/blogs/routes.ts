import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  BLOG_DEFAULTS,
  BLOG_IMAGE_GRANT,
  BLOG_IMAGE_TYPES,
  BLOG_LIMITS,
  BLOG_TEXTS,
  DEFAULT_TIMEZONE,
  deleteBlogQuerySchema,
  grantedBlogImageUrl,
  isAllowedLink,
  notFound,
  streams,
  type BlogFields,
  type DomainEventOf,
} from '@telemed/contracts';
import { AddressBudget, HttpError, RequestValidationError, WrongExpectedRevisionError, bearerToken, policies, privateDigest, receiveUpload, UploadsInFlight, withoutMetadata, type ApiRouter, type BlobStore, type PublicImageType, type StoredBlob, type TokenService, type UploadRules } from '@telemed/platform';
import { DateTime } from 'luxon';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { handleCommand, type CommandContext, type Decider } from '../decider';
import { blogPostDecider, postStateView, type BlogPostCommand, type PostFields } from './post';
import { loadPost, postOutlinesOf } from './load-post';
import { cleanContent, cleanText } from './sanitize';

export interface BlogDeps {
  blobs?: BlobStore;
  tokens: TokenService;
  /** Views counted per client address for readers not signed in (BLOG_VIEWS_PER_ADDRESS_PER_HOUR). */
  anonymousViews?: AddressBudget;
}

/** When nothing is configured: the configuration's default. */
const DEFAULT_VIEWS_PER_ADDRESS_PER_HOUR = 60;

/** The fields as the decider takes them: defaults where the editor left a field out, the content's HTML cleaned. */
function postFields(body: BlogFields, now: Date): PostFields {
  return {
    title: body.title,
    description: body.description,
    excerpt: body.excerpt,
    category: body.category ?? BLOG_DEFAULTS.category,
    tags: body.tags ?? [],
    image_url: body.image_url ?? null,
    date: body.date ?? DateTime.fromJSDate(now, { zone: DEFAULT_TIMEZONE }).toISODate()!,
    content: cleanContent(body.content),
  };
}

/** A reader's first view of a post is one event on a stream of its own: appended once, never twice. */
type ViewEvent = DomainEventOf<'BlogPostViewed'>;
const viewDecider: Decider<{ seen: boolean }, { type: 'ViewPost'; data: ViewEvent['data'] }, ViewEvent> = {
  initialState: () => ({ seen: false }),
  evolve: () => ({ seen: true }),
  decide: (command, state) => (state.seen ? [] : [{ type: 'BlogPostViewed', data: command.data }]),
};

/** The Patient Education Hub's writes (issue 16): a doctor's posts, their images, and readers' views. */
export function blogRoutes(api: ApiRouter, deps: CommandDeps & BlogDeps): void {
  postRoutes(api, deps);
  viewRoutes(api, deps);
  imageRoutes(api, deps);
}

/** A doctor's posts: create, save, publish, schedule, archive and delete. */
function postRoutes(api: ApiRouter, deps: CommandDeps & BlogDeps): void {
  // A command reads the post's outline and the one version it changes (loadPost), not every saved version.
  const run = (postId: string, command: BlogPostCommand, context: CommandContext) => {
    const stream = streams.blogPost(postId);
    return handleCommand(deps.eventStore, stream, blogPostDecider, command, context, () => loadPost(deps.eventStore, stream));
  };
  const answer = (result: Awaited<ReturnType<typeof run>>, now: Date) => ({ body: postStateView(result.state, now), headers: positionHeader(result.position) });

  api.implement('createBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const post_id = randomUUID();
      const result = await run(post_id, { type: 'CreatePost', data: { post_id, author_id: auth.user_id, fields: postFields(body, context.now) } }, context);
      return { body: { id: post_id }, headers: positionHeader(result.position) };
    },
  });

  api.implement('updateBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      return answer(await run(params.id, { type: 'UpdatePost', data: { actor_id: auth.user_id, fields: postFields(body, context.now) } }, context), context.now);
    },
  });

  api.implement('publishBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      return answer(await run(params.id, { type: 'PublishPost', data: { actor_id: auth.user_id, now: context.now } }, context), context.now);
    },
  });

  api.implement('scheduleBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const command: BlogPostCommand = { type: 'SchedulePost', data: { actor_id: auth.user_id, publish_at: new Date(body.publish_at), now: context.now } };
      return answer(await run(params.id, command, context), context.now);
    },
  });

  api.implement('unscheduleBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      return answer(await run(params.id, { type: 'UnschedulePost', data: { actor_id: auth.user_id } }, context), context.now);
    },
  });

  api.implement('archiveBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      return answer(await run(params.id, { type: 'ArchivePost', data: { actor_id: auth.user_id } }, context), context.now);
    },
  });

  api.implement('deleteBlogPost', {
    policy: policies.roles('doctor'),
    handler: async ({ params, query, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const confirmed = deleteBlogQuerySchema.safeParse(query).success;
      const result = await run(params.id, { type: 'DeletePost', data: { actor_id: auth.user_id, confirmed } }, context);
      return { body: { id: params.id, status: 'deleted' as const }, headers: positionHeader(result.position) };
    },
  });

}

/** Readers' views: one event per reader and post, a budget per address for readers not signed in. */
function viewRoutes(api: ApiRouter, deps: CommandDeps & BlogDeps): void {
  const anonymousViews = deps.anonymousViews ?? new AddressBudget({ points: DEFAULT_VIEWS_PER_ADDRESS_PER_HOUR, windowSeconds: 3600, name: 'blog-views' });
  // A view (a public request) reads only the post's events since the last look, not every saved version of its content.
  const outlines = postOutlinesOf(deps.eventStore);

  api.implement('recordBlogPostView', {
    policy: policies.public,
    handler: async ({ params, body, req }) => {
      const now = deps.clock();
      const { state } = await outlines.current(streams.blogPost(params.id));
      if (state.status !== 'published') throw notFound(BLOG_TEXTS.postNotFound);
      // A signed-in reader is known by their account (their author's own reads never count); others by their session.
      let reader = `session:${body.reader_session}`;
      const token = bearerToken(req);
      if (token) {
        const claims = await deps.tokens.verify(token).catch(() => null);
        if (claims?.user_id === state.author_id) return { body: { counted: false } };
        if (claims) reader = `user:${claims.user_id}`;
      }
      // Each counted view is an event: readers not signed in get a budget per address, past which nothing is written.
      if (reader.startsWith('session:') && !(await anonymousViews.take(req.ip ?? req.socket.remoteAddress ?? 'unknown'))) return { body: { counted: false } };
      // The reader's stream is named by a keyed digest: the log alone tells neither who read a post nor what a reader read.
      const viewed = `${params.id}\n${reader}`;
      const legacy = createHash('sha256').update(viewed).digest('hex').slice(0, 32);
      const digest = (await privateDigest(deps.eventStore, 'blog view', viewed))?.slice(0, 32) ?? legacy;
      // A view counted before the names were keyed is under the plain digest, never written again: it still counts once.
      if (digest !== legacy && (await deps.eventStore.readStream(streams.blogView(params.id, legacy))).length > 0) return { body: { counted: false } };
      const context: CommandContext = { actor: { user_id: 'system', role: 'system' }, now, correlation_id: req.get('X-Correlation-Id') ?? randomUUID(), causation_id: null };
      try {
        const result = await handleCommand(deps.eventStore, streams.blogView(params.id, digest), viewDecider, { type: 'ViewPost', data: { post_id: params.id, author_id: state.author_id, reader: digest } }, context);
        return { body: { counted: result.events.length > 0 }, headers: positionHeader(result.position) };
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) return { body: { counted: false } };
        throw error;
      }
    },
  });

}

/** What a post's editor asks: a link's preview and a picture's upload. */
function imageRoutes(api: ApiRouter, deps: CommandDeps & BlogDeps): void {
  const imageGrants = deps.tokens.urlSigner(BLOG_IMAGE_GRANT.purpose, BLOG_IMAGE_GRANT);
  const imageUploads = new UploadsInFlight(BLOG_LIMITS.imagesInFlight, BLOG_TEXTS.imagesInFlight);

  api.implement('getBlogLinkMeta', {
    policy: policies.roles('doctor'),
    handler: async ({ query }) => {
      let host: string;
      try {
        host = isAllowedLink(query.url) ? (new URL(query.url).hostname || query.url.replace(/^mailto:/i, '')) : '';
      } catch {
        host = '';
      }
      if (!host) throw new RequestValidationError([{ loc: ['query', 'url'], msg: BLOG_TEXTS.linkNotAllowed, type: 'value_error' }]);
      return { body: { success: 1 as const, link: query.url, meta: { title: cleanText(host), description: '' } } };
    },
  });

  api.implement('uploadBlogImage', {
    policy: policies.roles('doctor'),
    handler: async ({ auth, req }) => {
      const blobs = deps.blobs;
      if (!blobs) throw new HttpError(503, BLOG_TEXTS.imageUploadError);
      const context = requestContext(req, auth, deps.clock());
      const rules: UploadRules<StoredBlob> = {
        fileFields: ['image', 'file'],
        maxFiles: 1,
        maxFileBytes: BLOG_LIMITS.imageBytes,
        maxFieldBytes: 1024,
        accept: BLOG_IMAGE_TYPES,
        texts: {
          tooLarge: () => BLOG_TEXTS.imageTooLarge,
          badType: () => BLOG_TEXTS.imageType,
          tooMany: BLOG_TEXTS.oneImageOnly,
          notMultipart: BLOG_TEXTS.multipartRequired,
          malformed: BLOG_TEXTS.imageUploadError,
        },
        // Under the doctor's own key: erasing them makes their images unreadable wherever the bytes were copied. Stored
        // without the picture's metadata (a photo's GPS position, device, owner): published pictures are public.
        store: async (file: { stream: Readable; content_type: string }) =>
          blobs.put(withoutMetadata(file.stream, file.content_type as PublicImageType), { subject_id: auth.user_id }),
        discard: async (stored) => blobs.delete(stored.blob_id),
      };
      return imageUploads.run(auth.user_id, async () => {
        const upload = await receiveUpload(req, rules);
        const [file] = upload.files;
        if (!file) throw new RequestValidationError([{ loc: ['body', 'image'], msg: BLOG_TEXTS.fileRequired, type: 'missing' }]);
        const image_id = randomUUID();
        try {
          const event = { image_id, author_id: auth.user_id, blob_id: file.stored.blob_id, content_type: file.content_type, size: file.stored.size, sha256: file.stored.sha256 };
          const result = await handleCommand(deps.eventStore, streams.blogImage(image_id), imageDecider, { type: 'StoreImage', data: event }, context);
          const url = grantedBlogImageUrl(image_id, imageGrants.sign(image_id, auth.user_id, context.now));
          return { status: 201 as const, body: { success: 1 as const, file: { url, content_type: file.content_type, size: file.stored.size } }, headers: positionHeader(result.position) };
        } catch (error) {
          await blobs.delete(file.stored.blob_id);
          throw error;
        }
      });
    },
  });
}

type ImageEvent = DomainEventOf<'BlogImageStored'>;
const imageDecider: Decider<{ stored: boolean }, { type: 'StoreImage'; data: ImageEvent['data'] }, ImageEvent> = {
  initialState: () => ({ stored: false }),
  evolve: () => ({ stored: true }),
  decide: (command, state) => (state.stored ? [] : [{ type: 'BlogImageStored', data: command.data }]),
};
