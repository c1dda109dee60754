import { policies, type ApiRouter, type Filter, type ReadStore } from '@telemed/platform';
import { COUNTED, contentRange } from '../admin/ra';
import { MESSAGES, type MessageDoc } from './projection';

const entry = (doc: MessageDoc) => ({
  id: doc._id,
  kind: doc.kind,
  recipient_id: doc.recipient_id,
  to_masked: doc.to_masked,
  channel: doc.channel,
  status: doc.status,
  attempts: doc.attempts,
  last_error: doc.last_error,
  appointment_id: doc.appointment_id,
  due_at: doc.due_at,
  updated_at: doc.updated_at,
});

/** The console's message log (issue 34): what was sent to whom (masked), on which channel, and how it went. */
export function messagingQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore }): void {
  const messages = deps.readStore.collection<MessageDoc>(MESSAGES);
  api.implement('listMessages', {
    policy: policies.roles('admin'),
    handler: async ({ query }) => {
      const filter: Filter = {};
      if (query.filter.id) filter._id = { $in: query.filter.id };
      for (const field of ['status', 'channel', 'kind', 'appointment_id'] as const) if (query.filter[field]) filter[field] = query.filter[field];
      const field = query.sort.field === 'id' ? '_id' : query.sort.field;
      const [docs, total] = await Promise.all([
        messages.find(filter, { sort: { [field]: query.sort.order, _id: query.sort.order }, skip: query.start, limit: query.end - query.start + 1 }),
        messages.count(filter, COUNTED),
      ]);
      return { body: docs.map(entry), headers: contentRange('messages', query.start, docs.length, total) };
    },
  });
}
