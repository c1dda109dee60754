import { match } from 'ts-pattern';
import {
  BLOG_TEXTS,
  blocksText,
  blogSlug,
  conflict,
  defaultDescription,
  invalid,
  notFound,
  readTimeMinutes,
  type BlogPostState,
  type BlogStatus,
  type DomainEventOf,
  type EventData,
} from '@telemed/contracts';
import type { Decider, Fold } from '../decider';

/** A blog post (issue 16; seed 001 §3, §4): its own stream `blog_post-<id>`, written only by its author (and the scheduler). */
export type BlogPostEvent = DomainEventOf<
  'BlogPostCreated' | 'BlogPostUpdated' | 'BlogPostPublished' | 'BlogPostScheduled' | 'BlogPostUnscheduled' | 'BlogPostArchived' | 'BlogPostDeleted'
>;

/** The post's fields as saved (the content's inline HTML already cleaned). */
export type PostFields = Omit<EventData<'BlogPostCreated'>, 'post_id' | 'author_id'>;

interface PostFacts {
  post_id: string;
  author_id: string;
  fields: PostFields;
  created_at: string;
  updated_at: string;
  /** Kept from the first publishing, so a shared link keeps working after the title changes. */
  slug: string | null;
  published_at: string | null;
  publish_at: string | null;
}

export type BlogPostDeciderState =
  | { status: 'none' }
  | ({ status: BlogStatus } & PostFacts)
  | ({ status: 'deleted' } & PostFacts);

export type BlogPostCommand =
  | { type: 'CreatePost'; data: { post_id: string; author_id: string; fields: PostFields } }
  | { type: 'UpdatePost'; data: { actor_id: string; fields: PostFields } }
  | { type: 'PublishPost'; data: { actor_id: string; now: Date } }
  | { type: 'SchedulePost'; data: { actor_id: string; publish_at: Date; now: Date } }
  | { type: 'UnschedulePost'; data: { actor_id: string } }
  | { type: 'ArchivePost'; data: { actor_id: string } }
  | { type: 'DeletePost'; data: { actor_id: string; confirmed: boolean } }
  /** The scheduler: publishes a scheduled post whose time has come (nothing otherwise). */
  | { type: 'PublishDuePost'; data: { now: Date } };

/** Seed 001 §5: publishing needs a title and content (text, or an image or video). */
export function hasTitleAndContent(fields: PostFields): boolean {
  const blocks = fields.content.blocks;
  return fields.title.trim() !== '' && (blocksText(blocks).trim() !== '' || blocks.some((b) => b.type === 'image' || b.type === 'embed'));
}

/** Seconds precision, the log's instant form. */
const instant = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function evolveBlogPost(state: BlogPostDeciderState, event: BlogPostEvent, at?: string): BlogPostDeciderState {
  if (event.type === 'BlogPostCreated') {
    const { post_id, author_id, ...fields } = event.data;
    const when = at ?? '';
    return { status: 'draft', post_id, author_id, fields, created_at: when, updated_at: when, slug: null, published_at: null, publish_at: null };
  }
  if (state.status === 'none') return state;
  return match(event)
    .with({ type: 'BlogPostUpdated' }, ({ data }): BlogPostDeciderState => {
      const { post_id: _p, author_id: _a, ...fields } = data;
      void _p;
      void _a;
      return { ...state, fields, updated_at: at ?? '' };
    })
    .with({ type: 'BlogPostPublished' }, ({ data }): BlogPostDeciderState => ({ ...state, status: 'published', slug: data.slug, published_at: data.published_at, publish_at: null }))
    .with({ type: 'BlogPostScheduled' }, ({ data }): BlogPostDeciderState => ({ ...state, status: 'scheduled', publish_at: data.publish_at }))
    .with({ type: 'BlogPostUnscheduled' }, (): BlogPostDeciderState => ({ ...state, status: 'draft', publish_at: null }))
    .with({ type: 'BlogPostArchived' }, (): BlogPostDeciderState => ({ ...state, status: 'archived', publish_at: null }))
    .with({ type: 'BlogPostDeleted' }, (): BlogPostDeciderState => ({ ...state, status: 'deleted', publish_at: null }))
    .exhaustive();
}

type Live = Exclude<BlogPostDeciderState, { status: 'none' } | { status: 'deleted' }>;

/** Someone else's post, or a deleted one, answers as if it did not exist. */
function ownPost(state: BlogPostDeciderState, actorId: string): Live {
  if (state.status === 'none' || state.status === 'deleted' || state.author_id !== actorId) throw notFound(BLOG_TEXTS.postNotFound);
  return state;
}

function publish(state: Live, now: Date, scheduled: boolean): BlogPostEvent[] {
  if (!hasTitleAndContent(state.fields)) throw invalid(BLOG_TEXTS.titleAndContentRequired);
  return [
    {
      type: 'BlogPostPublished',
      data: { post_id: state.post_id, author_id: state.author_id, slug: state.slug ?? blogSlug(state.fields.title, state.post_id), published_at: instant(now), scheduled },
    },
  ];
}

export function decideBlogPost(command: BlogPostCommand, state: BlogPostDeciderState): BlogPostEvent[] {
  return match(command)
    .with({ type: 'CreatePost' }, ({ data }): BlogPostEvent[] => {
      if (state.status !== 'none') throw conflict('This post already exists');
      return [{ type: 'BlogPostCreated', data: { post_id: data.post_id, author_id: data.author_id, ...data.fields } }];
    })
    .with({ type: 'UpdatePost' }, ({ data }): BlogPostEvent[] => {
      const post = ownPost(state, data.actor_id);
      // A published or scheduled post stays publishable: its title and content cannot be emptied.
      if ((post.status === 'published' || post.status === 'scheduled') && !hasTitleAndContent(data.fields)) throw invalid(BLOG_TEXTS.titleAndContentRequired);
      if (JSON.stringify(post.fields) === JSON.stringify(data.fields)) return [];
      return [{ type: 'BlogPostUpdated', data: { post_id: post.post_id, author_id: post.author_id, ...data.fields } }];
    })
    .with({ type: 'PublishPost' }, ({ data }): BlogPostEvent[] => {
      const post = ownPost(state, data.actor_id);
      if (post.status === 'published') return [];
      return publish(post, data.now, false);
    })
    .with({ type: 'SchedulePost' }, ({ data }): BlogPostEvent[] => {
      const post = ownPost(state, data.actor_id);
      if (post.status === 'published') throw conflict(BLOG_TEXTS.cannotSchedulePublished);
      if (data.publish_at.getTime() <= data.now.getTime()) throw invalid(BLOG_TEXTS.scheduleInPast);
      if (!hasTitleAndContent(post.fields)) throw invalid(BLOG_TEXTS.titleAndContentRequired);
      const publish_at = instant(data.publish_at);
      if (post.status === 'scheduled' && post.publish_at === publish_at) return [];
      return [{ type: 'BlogPostScheduled', data: { post_id: post.post_id, author_id: post.author_id, publish_at } }];
    })
    .with({ type: 'UnschedulePost' }, ({ data }): BlogPostEvent[] => {
      const post = ownPost(state, data.actor_id);
      if (post.status !== 'scheduled') throw conflict(BLOG_TEXTS.notScheduled);
      return [{ type: 'BlogPostUnscheduled', data: { post_id: post.post_id, author_id: post.author_id } }];
    })
    .with({ type: 'ArchivePost' }, ({ data }): BlogPostEvent[] => {
      const post = ownPost(state, data.actor_id);
      if (post.status === 'archived') return [];
      return [{ type: 'BlogPostArchived', data: { post_id: post.post_id, author_id: post.author_id } }];
    })
    .with({ type: 'DeletePost' }, ({ data }): BlogPostEvent[] => {
      const post = ownPost(state, data.actor_id);
      // Seed 001 §5: delete needs confirmation (the client's, sent with the call).
      if (!data.confirmed) throw invalid(BLOG_TEXTS.deleteNeedsConfirmation);
      return [{ type: 'BlogPostDeleted', data: { post_id: post.post_id, author_id: post.author_id } }];
    })
    .with({ type: 'PublishDuePost' }, ({ data }): BlogPostEvent[] => {
      if (state.status !== 'scheduled' || !state.publish_at || new Date(state.publish_at).getTime() > data.now.getTime()) return [];
      // Its time came: published at the time it was scheduled for (the scheduler may notice a moment later).
      return publish(state, new Date(state.publish_at), true);
    })
    .exhaustive();
}

export const blogPostDecider: Decider<BlogPostDeciderState, BlogPostCommand, BlogPostEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => evolveBlogPost(state, event, (event as { metadata?: { occurred_at?: string } }).metadata?.occurred_at),
  decide: decideBlogPost,
};

/** The post as the write side has it (what the commands answer). */
export function postStateView(state: BlogPostDeciderState, now: Date): BlogPostState {
  if (state.status === 'none' || state.status === 'deleted') throw notFound(BLOG_TEXTS.postNotFound);
  const f = state.fields;
  const text = blocksText(f.content.blocks);
  // Events just decided were folded without their metadata: their time is the command's.
  const at = (value: string) => value || now.toISOString();
  return {
    id: state.post_id,
    author_id: state.author_id,
    title: f.title,
    description: f.description ?? defaultDescription(f.excerpt, text),
    excerpt: f.excerpt ?? '',
    category: f.category,
    tags: f.tags,
    image_url: f.image_url,
    date: f.date,
    status: state.status,
    slug: state.slug,
    publish_at: state.publish_at,
    published_at: state.published_at,
    created_at: at(state.created_at),
    updated_at: at(state.updated_at),
    read_time: readTimeMinutes(text),
    content: f.content,
  };
}

/**
 * The post as blogPostDecider's fold has it, without its fields: status, author, times, slug, and the revision of the
 * event that last saved the fields (`fields_revision`), whose one event a command reads to have them. Small enough to
 * keep per stream (StreamFolds): it holds none of the post's writing, and a save reads only the events since the last
 * one, whatever the number of versions before.
 */
export type PostOutline = { status: 'none' } | ({ status: BlogStatus | 'deleted'; fields_revision: number } & Omit<PostFacts, 'fields'>);

const NO_FIELDS = {} as PostFields; // evolveBlogPost copies fields it is given and never reads them; the outline drops them

export const postOutlineFold: Fold<PostOutline, BlogPostEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (outline, event) => {
    const meta = event as { metadata?: { occurred_at?: string }; revision?: number };
    const before: BlogPostDeciderState = outline.status === 'none' ? outline : { ...withoutRevision(outline), fields: NO_FIELDS };
    const after = evolveBlogPost(before, event, meta.metadata?.occurred_at);
    if (after.status === 'none') return after;
    const { fields: _fields, ...facts } = after;
    void _fields;
    const savesFields = event.type === 'BlogPostCreated' || event.type === 'BlogPostUpdated';
    // Only a stored event is folded here (StreamFolds): it has its revision.
    const fields_revision = savesFields || outline.status === 'none' ? (meta.revision ?? -1) : outline.fields_revision;
    return { ...facts, fields_revision };
  },
};

function withoutRevision(outline: Exclude<PostOutline, { status: 'none' }>) {
  const { fields_revision: _revision, ...facts } = outline;
  void _revision;
  return facts;
}

/** The decider's state again, from the outline and the fields of the event that last saved them. */
export function postFromOutline(outline: PostOutline, saved: EventData<'BlogPostCreated'>): BlogPostDeciderState {
  if (outline.status === 'none') return outline;
  const { post_id: _p, author_id: _a, ...fields } = saved;
  void _p;
  void _a;
  return { ...withoutRevision(outline), fields };
}
