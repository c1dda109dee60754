import type { ReadStore } from '@telemed/platform';
import { afterCursor } from '../keyset';
import { PENDING_MESSAGES, type PendingMessageDoc } from './projection';

/** What the message dispatcher looks up: messages waiting to be sent by a time, through the index of what is pending. */
export function messageLookups(readStore: ReadStore) {
  const pending = readStore.collection<PendingMessageDoc>(PENDING_MESSAGES);
  return {
    messagesDueBy: async (now: Date, page: { after: { message_id: string; due_at: string } | null; limit: number }) =>
      (
        await pending.find(
          { due_at: { $lte: now.toISOString() }, ...afterCursor('due_at', page.after && { value: page.after.due_at, id: page.after.message_id }) },
          { sort: { due_at: 1, _id: 1 }, limit: page.limit },
        )
      ).map((doc) => ({ message_id: doc._id, due_at: doc.due_at })),
    nextMessageDue: async () => (await pending.find({}, { sort: { due_at: 1, _id: 1 }, limit: 1 }))[0]?.due_at ?? null,
  };
}
