import { DateTime } from 'luxon';
import {
  BLOG_CATEGORY_IDS,
  BLOG_STATUSES,
  DEFAULT_TIMEZONE,
  blocksText,
  blogImageId,
  defaultDescription,
  readTimeMinutes,
  storedInstant,
  withPlayerEmbeds,
  type BlogCategory,
  type BlogContent,
  type BlogSort,
  type BlogStatus,
  type EventData,
  type EventType,
} from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import { forEachMatching } from '../projections/in-pages';

export const BLOG_POSTS = 'blog_posts';
/** The blocks of each post, apart, so lists never carry them. */
export const BLOG_CONTENTS = 'blog_contents';
/** Only posts waiting for their time (each leaves as it is published, unscheduled, archived or deleted). */
export const BLOG_SCHEDULED = 'blog_scheduled';
export const BLOG_IMAGES = 'blog_images';
/** Per doctor: name and standing (for the public pages), and the counts the hub's sidebar shows. */
export const BLOG_AUTHORS = 'blog_authors';
/**
 * One document, `published`: a revision that moves only when what the public pages list changes (a post published,
 * changed while published, withdrawn, or its author's standing), never for a view: what /sitemap.xml is built from.
 */
export const BLOG_PUBLISHED_REVISION = 'blog_published_revision';
export interface BlogPublishedRevisionDoc {
  _id: 'published';
  revision: number;
}

export interface BlogPostDoc {
  _id: string;
  author_id: string;
  /** As typed (may be empty in a draft; the pages show 'Untitled Draft'). */
  title: string;
  /** Lower-cased title, for sorting. */
  title_key: string;
  description: string;
  excerpt: string | null;
  category: BlogCategory;
  tags: string[];
  image_url: string | null;
  date: string;
  status: BlogStatus;
  slug: string | null;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  views: number;
  read_time: number;
  /** Lower-cased title, excerpt, tags and text: what search looks in. */
  search_text: string;
  /** The uploaded pictures its content and cover show. */
  image_ids: string[];
  /** Those of its author's pictures this post makes public (while it is published). */
  public_image_ids: string[];
}

export interface BlogContentDoc {
  _id: string;
  content: BlogContent;
}

export interface BlogScheduledDoc {
  _id: string;
  publish_at: string;
}

export interface BlogImageDoc {
  _id: string;
  author_id: string;
  blob_id: string;
  content_type: string;
  size: number;
  /** The published posts of its author that show it: while there is one, anyone may load it; otherwise only its author. */
  published_in: string[];
}

export interface BlogAuthorDoc {
  _id: string;
  name: string;
  active: boolean;
  by_status: Record<string, number>;
  by_category: Record<string, number>;
  read_time_sum: number;
  total_views: number;
  /** Views by month (YYYY-MM in India), for This Month. */
  views_by_month: Record<string, number>;
}

/** The keys of each order a doctor's list sorts by (ties by id, in the same direction); the indexes below serve each. */
export const BLOG_LIST_ORDERS: Record<BlogSort, readonly string[]> = { date: ['date', 'created_at'], title: ['title_key'], views: ['views'] };

const BLOG_EVENTS = [
  'BlogPostCreated',
  'BlogPostUpdated',
  'BlogPostPublished',
  'BlogPostScheduled',
  'BlogPostUnscheduled',
  'BlogPostArchived',
  'BlogPostDeleted',
  'BlogImageStored',
  'BlogPostViewed',
] as const satisfies EventType[];

const zeros = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 0]));

function emptyAuthor(id: string): BlogAuthorDoc {
  return { _id: id, name: 'Doctor', active: true, by_status: zeros(BLOG_STATUSES), by_category: zeros(BLOG_CATEGORY_IDS), read_time_sum: 0, total_views: 0, views_by_month: {} };
}

/** The month a view counts in (India's calendar, as the hub's This Month). */
export const viewMonth = (at: string) => DateTime.fromISO(at, { zone: DEFAULT_TIMEZONE }).toFormat('yyyy-MM');

type Fields = Omit<EventData<'BlogPostCreated'>, 'post_id' | 'author_id'>;

/** The ids of the uploaded pictures the content and the cover show. */
function imageIds(fields: Pick<Fields, 'content' | 'image_url'>): string[] {
  const urls = fields.content.blocks.flatMap((block) => (block.type === 'image' ? [block.data.file.url] : []));
  if (fields.image_url) urls.push(fields.image_url);
  return [...new Set(urls.map(blogImageId).filter((id): id is string => id !== null))];
}

function fieldsDoc(fields: Fields): Pick<BlogPostDoc, 'title' | 'title_key' | 'description' | 'excerpt' | 'category' | 'tags' | 'image_url' | 'date' | 'read_time' | 'search_text' | 'image_ids'> {
  const text = blocksText(fields.content.blocks);
  return {
    image_ids: imageIds(fields),
    title: fields.title,
    title_key: fields.title.toLocaleLowerCase('en'),
    description: fields.description ?? defaultDescription(fields.excerpt, text),
    excerpt: fields.excerpt,
    category: fields.category,
    tags: fields.tags,
    image_url: fields.image_url,
    date: fields.date,
    read_time: readTimeMinutes(text),
    search_text: [fields.title, fields.excerpt ?? '', fields.tags.join(' '), text].join('\n').toLocaleLowerCase('en'),
  };
}

/** Moves a post's share of its doctor's counts from what it was to what it is (null: not counted). */
async function recount(store: CollectionSource, authorId: string, before: BlogPostDoc | null, after: BlogPostDoc | null): Promise<void> {
  const authors = store.collection<BlogAuthorDoc>(BLOG_AUTHORS);
  const author = (await authors.get(authorId)) ?? emptyAuthor(authorId);
  const by_status = { ...author.by_status };
  const by_category = { ...author.by_category };
  let read_time_sum = author.read_time_sum;
  if (before) {
    by_status[before.status] = (by_status[before.status] ?? 0) - 1;
    by_category[before.category] = (by_category[before.category] ?? 0) - 1;
    read_time_sum -= before.read_time;
  }
  if (after) {
    by_status[after.status] = (by_status[after.status] ?? 0) + 1;
    by_category[after.category] = (by_category[after.category] ?? 0) + 1;
    read_time_sum += after.read_time;
  }
  await authors.put({ ...author, by_status, by_category, read_time_sum });
}

/**
 * Makes public the pictures a published post shows (only its own author's: a post cannot open someone else's draft
 * pictures by naming them), and takes back those it no longer shows or that it stopped publishing.
 */
async function syncPublicImages(store: CollectionSource, post: BlogPostDoc | null, postId: string, before: string[]): Promise<string[]> {
  const images = store.collection<BlogImageDoc>(BLOG_IMAGES);
  const wanted: string[] = [];
  if (post?.status === 'published') {
    for (const id of post.image_ids) if ((await images.get(id))?.author_id === post.author_id) wanted.push(id);
  }
  for (const id of new Set([...before, ...wanted])) {
    const image = await images.get(id);
    if (!image) continue;
    const published_in = wanted.includes(id) ? [...new Set([...image.published_in, postId])] : image.published_in.filter((p) => p !== postId);
    if (published_in.length !== image.published_in.length) await images.patch(id, { published_in });
  }
  return wanted;
}

/**
 * The hub's read model: each post's card (its blocks apart), the scheduled ones by their time (what the scheduler
 * pages through), uploaded images, and per doctor the counts by status and category and the view figures.
 */
export const blogPostsProjection = defineProjection({
  name: 'blog_posts',
  // 2: pictures know which published posts show them (drafts' pictures are their author's alone).
  // 3: the published posts' revision (BLOG_PUBLISHED_REVISION).
  // 4: a video block's frame address is re-derived from its page (withPlayerEmbeds).
  version: 4,
  collections: [BLOG_POSTS, BLOG_CONTENTS, BLOG_SCHEDULED, BLOG_IMAGES, BLOG_AUTHORS, BLOG_PUBLISHED_REVISION],
  indexes: [
    // A doctor's list (the hub): one tab or all, one category or all, in each order it sorts by (blog-routes.ts
    // doctorBlogList), a page at a time read forwards or backwards, and counted in the index.
    ...Object.values(BLOG_LIST_ORDERS).flatMap((order) =>
      [['status', 'category'], ['status'], ['category'], []].map((filters) => ({ collection: BLOG_POSTS, fields: ['author_id', ...filters, ...order, '_id'] })),
    ),
    { collection: BLOG_POSTS, field: 'slug' },
    // Published posts newest first: the sitemap and public lists, all or one doctor's.
    { collection: BLOG_POSTS, fields: ['status', 'published_at', '_id'] },
    { collection: BLOG_POSTS, fields: ['author_id', 'status', 'published_at', '_id'] },
    // A doctor's images (their export), not every image.
    { collection: BLOG_IMAGES, field: 'author_id' },
    { collection: BLOG_SCHEDULED, field: 'publish_at' },
  ],
  handles: ['UserRegistered', 'UserProfileUpdated', 'UserDeactivated', 'UserReactivated', 'PersonalDataErased', ...BLOG_EVENTS],
  ignores: [
    'sessions', 'UserLanguageChosen', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'messaging', 'phone', 'waitlist', 'wallet',
    'PatientSubscribedToDoctor', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed', 'ClinicalRecordsDestroyed',
  ],
  apply: async (event, store) => {
    const posts = store.collection<BlogPostDoc>(BLOG_POSTS);
    const contents = store.collection<BlogContentDoc>(BLOG_CONTENTS);
    const scheduled = store.collection<BlogScheduledDoc>(BLOG_SCHEDULED);
    const authors = store.collection<BlogAuthorDoc>(BLOG_AUTHORS);
    const at = event.metadata.occurred_at;
    const published = store.collection<BlogPublishedRevisionDoc>(BLOG_PUBLISHED_REVISION);
    const publishedChanged = async () => {
      const current = await published.get('published');
      await published.put({ _id: 'published', revision: (current?.revision ?? 0) + 1 });
    };
    /** An author's standing changes what the public pages list only when they have published posts. */
    const authorStandingChanged = async (author: BlogAuthorDoc | null) => {
      if ((author?.by_status.published ?? 0) > 0) await publishedChanged();
    };

    /** Changes a post's document and its doctor's counts together. */
    const change = async (postId: string, fields: Partial<BlogPostDoc>) => {
      const before = await posts.get(postId);
      if (!before) return;
      const after = { ...before, ...fields };
      after.public_image_ids = await syncPublicImages(store, after, postId, before.public_image_ids);
      await posts.put(after);
      await recount(store, before.author_id, before, after);
      if (before.status === 'published' || after.status === 'published') await publishedChanged();
    };

    switch (event.type) {
      case 'UserRegistered':
        if (event.data.account_type !== 'doctor') return;
        return authors.put({ ...emptyAuthor(event.data.user_id), name: event.data.name });
      case 'UserProfileUpdated':
        if (event.data.name === undefined) return;
        return authors.patch(event.data.user_id, { name: event.data.name });
      case 'UserDeactivated':
      case 'UserReactivated':
        await authorStandingChanged(await authors.get(event.data.user_id));
        return authors.patch(event.data.user_id, { active: event.type === 'UserReactivated' });
      case 'PersonalDataErased': {
        // An erased doctor's writing leaves every page: their posts, blocks, schedule and counts go.
        const author = await authors.get(event.data.user_id);
        if (!author) return;
        await authorStandingChanged(author);
        await forEachMatching(posts, { author_id: event.data.user_id }, async (post) => {
          await syncPublicImages(store, null, post._id, post.public_image_ids);
          await posts.delete(post._id);
          await contents.delete(post._id);
          await scheduled.delete(post._id);
        });
        return authors.put({ ...emptyAuthor(author._id), name: 'Doctor', active: false });
      }
      case 'BlogPostCreated': {
        const { post_id, author_id, content, ...rest } = event.data;
        const doc: BlogPostDoc = {
          _id: post_id,
          author_id,
          ...fieldsDoc({ ...rest, content }),
          status: 'draft',
          slug: null,
          publish_at: null,
          published_at: null,
          created_at: at,
          updated_at: at,
          views: 0,
          public_image_ids: [],
        };
        await posts.put(doc);
        await contents.put({ _id: post_id, content: withPlayerEmbeds(content) });
        return recount(store, author_id, null, doc);
      }
      case 'BlogPostUpdated': {
        const { post_id, author_id: _a, content, ...rest } = event.data;
        void _a;
        await contents.put({ _id: post_id, content: withPlayerEmbeds(content) });
        return change(post_id, { ...fieldsDoc({ ...rest, content }), updated_at: at });
      }
      case 'BlogPostPublished':
        await scheduled.delete(event.data.post_id);
        return change(event.data.post_id, { status: 'published', slug: event.data.slug, published_at: event.data.published_at, publish_at: null });
      case 'BlogPostScheduled':
        // As instants are stored (instants.ts): the scheduler compares publish_at with the clock as text.
        await scheduled.put({ _id: event.data.post_id, publish_at: storedInstant(event.data.publish_at) });
        return change(event.data.post_id, { status: 'scheduled', publish_at: event.data.publish_at });
      case 'BlogPostUnscheduled':
        await scheduled.delete(event.data.post_id);
        return change(event.data.post_id, { status: 'draft', publish_at: null });
      case 'BlogPostArchived':
        await scheduled.delete(event.data.post_id);
        return change(event.data.post_id, { status: 'archived', publish_at: null });
      case 'BlogPostDeleted': {
        const before = await posts.get(event.data.post_id);
        await scheduled.delete(event.data.post_id);
        await contents.delete(event.data.post_id);
        if (!before) return;
        await syncPublicImages(store, null, before._id, before.public_image_ids);
        await posts.delete(before._id);
        if (before.status === 'published') await publishedChanged();
        return recount(store, before.author_id, before, null);
      }
      case 'BlogImageStored': {
        const { image_id, author_id, blob_id, content_type, size } = event.data;
        return store.collection<BlogImageDoc>(BLOG_IMAGES).put({ _id: image_id, author_id, blob_id, content_type, size, published_in: [] });
      }
      case 'BlogPostViewed': {
        const post = await posts.get(event.data.post_id);
        if (post) await posts.patch(post._id, { views: post.views + 1 });
        const author = (await authors.get(event.data.author_id)) ?? emptyAuthor(event.data.author_id);
        const month = viewMonth(at);
        return authors.put({ ...author, total_views: author.total_views + 1, views_by_month: { ...author.views_by_month, [month]: (author.views_by_month[month] ?? 0) + 1 } });
      }
    }
  },
});
