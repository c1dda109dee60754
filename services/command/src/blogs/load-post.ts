import type { EventData } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { foldsPerEventStore } from '../stream-folds';
import { postFromOutline, postOutlineFold, type BlogPostDeciderState } from './post';

/**
 * Each event store's kept outlines of posts (StreamFolds): a post's stream gains an event with every save, and a
 * command that read it whole cost more with every version before it.
 */
export const postOutlinesOf = foldsPerEventStore(postOutlineFold);

/**
 * A post as its decider needs it: the kept outline (the events since the last look) and its fields from the one event
 * that last saved them. What a save, a publishing or the scheduler reads does not grow with the post's versions.
 */
export async function loadPost(eventStore: EventStore, stream: string): Promise<{ state: BlogPostDeciderState; revision: number | null }> {
  const { state: outline, revision } = await postOutlinesOf(eventStore).current(stream);
  if (outline.status === 'none') return { state: outline, revision };
  const [saved] = await eventStore.readStream(stream, { fromRevision: outline.fields_revision, maxCount: 1 });
  if (saved?.type !== 'BlogPostCreated' && saved?.type !== 'BlogPostUpdated') throw new Error(`${stream}: no saved fields at revision ${outline.fields_revision}`);
  return { state: postFromOutline(outline, saved.data as EventData<'BlogPostCreated'>), revision };
}
