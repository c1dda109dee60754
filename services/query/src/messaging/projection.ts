import { SETTLED, withDocument, type Doc, type ReadCollection } from '@telemed/platform';
import { isOneTimeCode, type MessageChannel, type MessageKind, type MessageStatus } from '@telemed/contracts';
import { defineProjection } from '../projections/projection';

export const MESSAGES = 'messages';
export const PENDING_MESSAGES = 'pending_messages';

/** A message as the console's log shows it: the recipient's address masked, never the text. */
export interface MessageDoc extends Doc {
  kind: MessageKind;
  recipient_id: string | null;
  to_masked: string | null;
  channel: MessageChannel | null;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  appointment_id: string | null;
  due_at: string;
  updated_at: string;
}

/** A message waiting to be sent, by when: what the dispatcher looks up (few at any time, whatever the history). */
export interface PendingMessageDoc extends Doc {
  due_at: string;
}

function change(messages: ReadCollection<MessageDoc>, id: string, update: (doc: MessageDoc) => MessageDoc): Promise<void> {
  return withDocument(messages, id, (doc, collection, apply) => (doc ? collection.put(apply(doc)) : SETTLED), messages, update);
}

/**
 * The message log (issue 34) and the index of messages waiting to be sent. A message enters the index when queued,
 * moves with each retry, deferral or lease, and leaves it once sent, cancelled or failed for good.
 */
export const messagesProjection = defineProjection({
  name: 'messages',
  // 2: the pending index ends in _id, so a page after a cursor among many messages due at once reads only that page.
  version: 2,
  collections: [MESSAGES, PENDING_MESSAGES],
  indexes: [
    { collection: PENDING_MESSAGES, fields: ['due_at', '_id'] },
    { collection: MESSAGES, fields: ['updated_at', '_id'] },
    { collection: MESSAGES, fields: ['appointment_id', 'updated_at'] },
    { collection: MESSAGES, fields: ['status', 'updated_at'] },
    // A person's messages: their erasure, their data export.
    { collection: MESSAGES, fields: ['recipient_id', 'updated_at'] },
  ],
  handles: ['MessageQueued', 'MessageAttemptStarted', 'MessageSent', 'MessageDelivered', 'MessageFailed', 'MessageDeferred', 'MessageCancelled', 'MessageResendRequested'],
  ignores: ['accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'phone', 'waitlist', 'wallet'],
  apply: (event, store) => {
    const messages = store.collection<MessageDoc>(MESSAGES);
    const pending = store.collection<PendingMessageDoc>(PENDING_MESSAGES);
    const at = event.metadata.occurred_at;
    const id = event.data.message_id;
    switch (event.type) {
      case 'MessageQueued': {
        const { data } = event;
        const doc: MessageDoc = { _id: id, kind: data.kind, recipient_id: data.recipient_id, to_masked: null, channel: null, status: 'queued', attempts: 0, last_error: null, appointment_id: data.appointment_id, due_at: data.due_at, updated_at: at };
        // A sign-in code is sent while its request waits: it never waits in the index.
        return Promise.all([messages.put(doc), isOneTimeCode(data.kind) ? SETTLED : pending.put({ _id: id, due_at: data.due_at })]).then(() => undefined);
      }
      case 'MessageAttemptStarted': {
        const { data } = event;
        // Until its lease ends: a process that died mid-send leaves the message to be taken up again then.
        return Promise.all([
          change(messages, id, (doc) => ({ ...doc, status: 'sending', channel: data.channel, attempts: doc.attempts + 1, updated_at: at })),
          pending.put({ _id: id, due_at: data.lease_until }),
        ]).then(() => undefined);
      }
      case 'MessageSent': {
        const { data } = event;
        return Promise.all([
          change(messages, id, (doc) => ({ ...doc, status: 'sent', channel: data.channel, to_masked: data.to_masked, last_error: null, updated_at: at })),
          pending.delete(id),
        ]).then(() => undefined);
      }
      case 'MessageDelivered':
        return change(messages, id, (doc) => ({ ...doc, status: 'delivered', updated_at: at }));
      case 'MessageFailed': {
        const { data } = event;
        return Promise.all([
          change(messages, id, (doc) => ({ ...doc, status: 'failed', channel: data.channel, last_error: data.error, due_at: data.retry_at ?? doc.due_at, updated_at: at })),
          data.retry_at ? pending.put({ _id: id, due_at: data.retry_at }) : pending.delete(id),
        ]).then(() => undefined);
      }
      case 'MessageDeferred': {
        const { data } = event;
        return Promise.all([change(messages, id, (doc) => ({ ...doc, due_at: data.due_at, updated_at: at })), pending.put({ _id: id, due_at: data.due_at })]).then(() => undefined);
      }
      case 'MessageCancelled':
        return Promise.all([change(messages, id, (doc) => ({ ...doc, status: 'cancelled', last_error: event.data.reason, updated_at: at })), pending.delete(id)]).then(() => undefined);
      case 'MessageResendRequested': {
        const { data } = event;
        return Promise.all([
          change(messages, id, (doc) => ({ ...doc, status: 'queued', last_error: null, due_at: data.due_at, updated_at: at })),
          pending.put({ _id: id, due_at: data.due_at }),
        ]).then(() => undefined);
      }
    }
    return SETTLED;
  },
});
