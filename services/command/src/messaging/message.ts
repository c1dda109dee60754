import { createHash } from 'node:crypto';
import { match } from 'ts-pattern';
import { MESSAGE_RETRY, type DomainEventOf, type EventData, type MessageChannel, type MessageKind } from '@telemed/contracts';
import type { Decider } from '../decider';

/**
 * One message outside the browser (issue 34), from queueing to its delivery, in a stream of its own named by a digest
 * of its idempotency key: queueing the same message twice appends nothing, and every process that would send it reads
 * the same stream, so an attempt is started by one of them only (the append's expected revision).
 */
export type MessageEvent = DomainEventOf<
  | 'MessageQueued'
  | 'MessageAttemptStarted'
  | 'MessageSent'
  | 'MessageDelivered'
  | 'MessageFailed'
  | 'MessageDeferred'
  | 'MessageCancelled'
  | 'MessageResendRequested'
>;

type Queued = EventData<'MessageQueued'>;

export type MessageState =
  | { status: 'none' }
  | {
      status: 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'cancelled';
      message: Queued;
      due_at: string;
      /** The consultation's start the message now follows (a deferral for a moved appointment changes it). */
      start: string | null;
      /** Attempts made on each channel so far, and the channels given up on (permanent refusal or attempts spent). */
      attempts: Partial<Record<MessageChannel, number>>;
      exhausted: MessageChannel[];
      /** The attempt in progress: no other process takes the message up before `lease_until`. */
      current: { channel: MessageChannel; attempt: number; lease_until: string } | null;
      sent: { channel: MessageChannel; provider_message_id: string } | null;
    };

export type MessageCommand =
  | { type: 'QueueMessage'; data: Queued }
  /** `channels`: the channels this recipient may be reached on now, in the order to try them. */
  | { type: 'StartAttempt'; data: { now: Date; channels: readonly MessageChannel[]; lease_ms: number } }
  | { type: 'RecordSent'; data: { channel: MessageChannel; attempt: number; provider_message_id: string; to_masked: string | null } }
  /** A send refused or unreachable (`permanent`: this channel cannot work for this message). */
  | { type: 'RecordFailure'; data: { channel: MessageChannel; attempt: number; error: string; permanent: boolean; now: Date; channels: readonly MessageChannel[] } }
  | { type: 'RecordDelivered'; data: { provider_message_id: string } }
  /** A provider's verified callback said a sent message did not arrive: the next channel is tried. */
  | { type: 'RecordUndelivered'; data: { provider_message_id: string; error: string; now: Date; channels: readonly MessageChannel[] } }
  | { type: 'Defer'; data: { due_at: Date; reason: 'quiet_hours' | 'appointment_moved'; start: string | null } }
  | { type: 'Cancel'; data: { reason: EventData<'MessageCancelled'>['reason'] } }
  | { type: 'RequestResend'; data: { now: Date } };

/** A message's id: a digest of its idempotency key (the same key always names the same stream). */
export function messageIdFor(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);
}

/** The idempotency key of a message about an appointment: appointment, kind and (for a reminder) the offset. */
export function appointmentMessageKey(appointmentId: string, kind: MessageKind, offsetMinutes: number | null = null, move = 0): string {
  // `move`: how many times the appointment had moved (issue 35): a moved request, and a moved appointment's approval and
  // reminders, are messages of their own (the first ones' keys unchanged).
  return `${appointmentId}:${kind}:${offsetMinutes ?? 0}${move > 0 ? `:m${move}` : ''}`;
}

/** One channel's send of a message is keyed by the message's key and the channel (a provider or the outbox drops a repeat by it). */
export const channelSendKey = (idempotencyKey: string, channel: MessageChannel) => `${idempotencyKey}:${channel}`;

/** The wait before the attempt after `attempt` on a channel: doubling from the first delay, capped. */
export function backoffMs(attempt: number): number {
  return Math.min(MESSAGE_RETRY.maxDelayMs, MESSAGE_RETRY.firstDelayMs * 2 ** Math.max(0, attempt - 1));
}

/** Whether a message is waiting to be sent by `now` (queued, failed with a retry, or an attempt whose lease ran out). */
export function isPending(state: MessageState, now: Date): boolean {
  if (state.status === 'queued' || state.status === 'failed') return state.status === 'queued' || state.due_at !== '';
  if (state.status === 'sending') return state.current !== null && new Date(state.current.lease_until).getTime() <= now.getTime();
  return false;
}

/** The first of the allowed channels not yet given up on. */
export function nextChannel(state: Extract<MessageState, { status: 'queued' }> | MessageState, channels: readonly MessageChannel[]): MessageChannel | null {
  if (state.status === 'none') return null;
  return channels.find((channel) => !state.exhausted.includes(channel)) ?? null;
}

function failure(
  state: Exclude<MessageState, { status: 'none' }>,
  data: { channel: MessageChannel; attempt: number; error: string; permanent: boolean; now: Date; channels: readonly MessageChannel[] },
): MessageEvent[] {
  const spent = data.permanent || data.attempt >= MESSAGE_RETRY.attemptsPerChannel;
  const exhausted = spent ? [...state.exhausted, data.channel] : state.exhausted;
  const remaining = data.channels.filter((channel) => !exhausted.includes(channel));
  // Another channel is tried at once; the same one after its backoff; none left: the message has failed for good.
  const retryAt = !spent ? new Date(data.now.getTime() + backoffMs(data.attempt)) : remaining.length > 0 ? data.now : null;
  return [
    {
      type: 'MessageFailed',
      data: { message_id: state.message.message_id, channel: data.channel, attempt: data.attempt, error: data.error.slice(0, 200), retry_at: retryAt?.toISOString() ?? null, channel_exhausted: spent },
    },
  ];
}

const settled = new Set(['sent', 'delivered', 'cancelled']);

export const messageDecider: Decider<MessageState, MessageCommand, MessageEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => {
    if (event.type === 'MessageQueued') {
      return { status: 'queued', message: event.data, due_at: event.data.due_at, start: event.data.start, attempts: {}, exhausted: [], current: null, sent: null };
    }
    if (state.status === 'none') return state;
    return match(event)
      .with({ type: 'MessageAttemptStarted' }, ({ data }): MessageState => ({
        ...state,
        status: 'sending',
        attempts: { ...state.attempts, [data.channel]: data.attempt },
        current: { channel: data.channel, attempt: data.attempt, lease_until: data.lease_until },
      }))
      .with({ type: 'MessageSent' }, ({ data }): MessageState => ({ ...state, status: 'sent', current: null, sent: { channel: data.channel, provider_message_id: data.provider_message_id } }))
      .with({ type: 'MessageDelivered' }, (): MessageState => ({ ...state, status: 'delivered' }))
      .with({ type: 'MessageFailed' }, ({ data }): MessageState => ({
        ...state,
        status: 'failed',
        current: null,
        sent: null,
        // A failure with no retry leaves the message failed for good (due_at '' marks it: nothing is due).
        due_at: data.retry_at ?? '',
        exhausted: data.channel_exhausted && !state.exhausted.includes(data.channel) ? [...state.exhausted, data.channel] : state.exhausted,
      }))
      .with({ type: 'MessageDeferred' }, ({ data }): MessageState => ({ ...state, due_at: data.due_at, start: data.start ?? state.start }))
      .with({ type: 'MessageCancelled' }, (): MessageState => ({ ...state, status: 'cancelled', current: null }))
      .with({ type: 'MessageResendRequested' }, ({ data }): MessageState => ({ ...state, status: 'queued', due_at: data.due_at, attempts: {}, exhausted: [], current: null, sent: null }))
      .exhaustive();
  },
  decide: (command, state) =>
    match(command)
      .with({ type: 'QueueMessage' }, ({ data }): MessageEvent[] => (state.status === 'none' ? [{ type: 'MessageQueued', data }] : []))
      .with({ type: 'StartAttempt' }, ({ data }): MessageEvent[] => {
        if (state.status === 'none' || !isPending(state, data.now) || new Date(state.due_at || 0).getTime() > data.now.getTime()) return [];
        // An attempt whose lease ran out (its process died) counts: it may have reached the provider.
        const channel = nextChannel(state, data.channels);
        if (!channel) return [];
        const attempt = (state.attempts[channel] ?? 0) + 1;
        return [
          {
            type: 'MessageAttemptStarted',
            data: { message_id: state.message.message_id, channel, attempt, lease_until: new Date(data.now.getTime() + data.lease_ms).toISOString() },
          },
        ];
      })
      .with({ type: 'RecordSent' }, ({ data }): MessageEvent[] => {
        if (state.status !== 'sending' || state.current?.channel !== data.channel || state.current.attempt !== data.attempt) return [];
        return [{ type: 'MessageSent', data: { message_id: state.message.message_id, ...data, recipient_id: state.message.recipient_id, to_masked: state.message.recipient_id ? data.to_masked : null } }];
      })
      .with({ type: 'RecordFailure' }, ({ data }): MessageEvent[] => {
        if (state.status !== 'sending' || state.current?.channel !== data.channel || state.current.attempt !== data.attempt) return [];
        return failure(state, data);
      })
      .with({ type: 'RecordDelivered' }, ({ data }): MessageEvent[] => {
        if (state.status !== 'sent' || state.sent?.provider_message_id !== data.provider_message_id) return [];
        return [{ type: 'MessageDelivered', data: { message_id: state.message.message_id, channel: state.sent.channel, provider_message_id: data.provider_message_id } }];
      })
      .with({ type: 'RecordUndelivered' }, ({ data }): MessageEvent[] => {
        if (state.status !== 'sent' || state.sent?.provider_message_id !== data.provider_message_id) return [];
        const channel = state.sent.channel;
        return failure(state, { channel, attempt: state.attempts[channel] ?? 1, error: data.error, permanent: true, now: data.now, channels: data.channels });
      })
      .with({ type: 'Defer' }, ({ data }): MessageEvent[] => {
        if (state.status !== 'queued' && state.status !== 'failed') return [];
        return [{ type: 'MessageDeferred', data: { message_id: state.message.message_id, due_at: data.due_at.toISOString(), reason: data.reason, start: data.start } }];
      })
      .with({ type: 'Cancel' }, ({ data }): MessageEvent[] => {
        if (state.status === 'none' || settled.has(state.status) || state.status === 'sending') return [];
        return [{ type: 'MessageCancelled', data: { message_id: state.message.message_id, reason: data.reason } }];
      })
      .with({ type: 'RequestResend' }, ({ data }): MessageEvent[] => {
        if (state.status !== 'failed' || state.due_at !== '') return [];
        return [{ type: 'MessageResendRequested', data: { message_id: state.message.message_id, due_at: data.now.toISOString() } }];
      })
      .exhaustive(),
};
