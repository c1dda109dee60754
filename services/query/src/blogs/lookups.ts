import { instantRange } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import { BLOG_SCHEDULED, type BlogScheduledDoc } from './projection';

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
