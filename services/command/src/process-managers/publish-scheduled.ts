import { streams } from '@telemed/contracts';
import type { EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { blogPostDecider } from '../blogs/post';
import { loadPost } from '../blogs/load-post';
import { forEachPage, SWEEP_PAGE_SIZE } from './pages';
import { startDueTimer, type DueTimer } from './due-timer';

export interface ScheduledPost {
  post_id: string;
  publish_at: string;
}

/**
 * What the scheduler looks up: only posts still scheduled (an indexed read model that loses each one as it is
 * published, unscheduled, archived or deleted), by their time, a page at a time after a cursor, so its work follows
 * what is pending, never the history.
 */
export interface BlogLookups {
  scheduledPostsDueBefore(now: Date, page: { after: ScheduledPost | null; limit: number }): Promise<ScheduledPost[]>;
  /** The soonest time among scheduled posts, or null when none waits. */
  nextScheduledPublish(): Promise<string | null>;
}

/** Publishes every scheduled post whose time has come (`BlogPostPublished`); the post's stream re-decides each one. */
export async function publishScheduledPosts(deps: { eventStore: EventStore; lookups: BlogLookups; clock: () => Date; pageSize?: number }) {
  const now = deps.clock();
  let published = 0;
  await forEachPage<ScheduledPost>(
    (after, limit) => deps.lookups.scheduledPostsDueBefore(now, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (due) => {
      try {
        const stream = streams.blogPost(due.post_id);
        const command = { type: 'PublishDuePost' as const, data: { now } };
        const result = await handleCommand(deps.eventStore, stream, blogPostDecider, command, systemContext(now, null), () => loadPost(deps.eventStore, stream));
        published += result.events.length;
      } catch {
        // A post that can no longer be published (its content emptied) stays scheduled for its author to fix; the
        // others go on.
      }
    },
  );
  return published;
}

/** The scheduler: runs at the soonest scheduled time (from the read model), and at least every `intervalMs`. */
export function startBlogScheduler(deps: { eventStore: EventStore; lookups: BlogLookups; clock: () => Date; logger: Logger; intervalMs: number }): DueTimer {
  return startDueTimer({
    name: 'blog scheduler',
    nextDue: () => deps.lookups.nextScheduledPublish(),
    work: () => publishScheduledPosts(deps),
    done: 'scheduled blog posts published',
    clock: deps.clock,
    logger: deps.logger,
    intervalMs: deps.intervalMs,
    // At least a second apart: a due post that could not be published is not retried in a tight loop.
    minDelayMs: 1000,
  });
}
