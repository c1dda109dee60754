import { DateTime } from 'luxon';
import {
  MESSAGE_ATTEMPT_LEASE_MS,
  MESSAGE_CHANNELS,
  PHONE_SIGN_IN,
  QUIET_HOURS,
  QUIET_HOURS_URGENT_MINUTES,
  WAITLIST_HOLD_MINUTES,
  isOneTimeCode,
  maskAddress,
  streams,
  type MessageChannel,
} from '@telemed/contracts';
import { DEFAULT_LANGUAGE, type LanguageCode } from '@telemed/contracts/languages';
import { ChannelSendError, type EventStore, type Logger, type MessageSender } from '@telemed/platform';
import { handleCommand, readStream, systemContext, toRecorded } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { waitlistDecider } from '../waitlist/waitlist';
import { foldsPerEventStore } from '../stream-folds';
import { loadUser } from '../users/load-user';
import type { UserState } from '../users/user';
import { forEachPage, SWEEP_PAGE_SIZE } from '../process-managers/pages';
import { channelSendKey, messageDecider, type MessageCommand, type MessageEvent, type MessageState } from './message';
import { contactDecider, type ContactState } from './contact';
import { messageLink, messageTime, renderMessage } from './render';

/** India's zone: quiet hours and times in messages for a person who never said theirs. */
export const DEFAULT_TIME_ZONE = 'Asia/Kolkata';

export interface DueMessage {
  message_id: string;
  due_at: string;
}

/** What the dispatcher looks up in the read models: messages waiting to be sent, by due time (an index of what is pending). */
export interface MessageLookups {
  messagesDueBy(now: Date, page: { after: DueMessage | null; limit: number }): Promise<DueMessage[]>;
  nextMessageDue(): Promise<string | null>;
}

export interface MessagingDeps {
  eventStore: EventStore;
  clock: () => Date;
  logger: Logger;
  senders: ReadonlyMap<MessageChannel, MessageSender>;
  publicUrl: string;
  leaseMs?: number;
}

const appointmentsOf = foldsPerEventStore(appointmentDecider);

type Registered = Extract<UserState, { status: 'registered' }>;

/** The channels a person can be reached on now: allowed by them, configured here, and with an address for it. */
export function channelsFor(senders: ReadonlyMap<MessageChannel, MessageSender>, contact: ContactState, user: Registered): MessageChannel[] {
  return MESSAGE_CHANNELS.filter((channel) => senders.has(channel) && contact.channels[channel] && addressFor(channel, contact, user) !== null);
}

function addressFor(channel: MessageChannel, contact: ContactState, user: Registered): string | null {
  return channel === 'email' ? user.email : contact.verified_phone;
}

/** Whether `now` is in the recipient's quiet hours, and if so when they end. */
export function quietUntil(now: Date, timeZone: string): Date | null {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  const zoned = local.isValid ? local : DateTime.fromJSDate(now, { zone: DEFAULT_TIME_ZONE });
  if (zoned.hour < QUIET_HOURS.startHour && zoned.hour >= QUIET_HOURS.endHour) return null;
  let end = zoned.set({ hour: QUIET_HOURS.endHour, minute: 0, second: 0, millisecond: 0 });
  if (end <= zoned) end = end.plus({ days: 1 });
  return end.toJSDate();
}

export async function loadContact(eventStore: EventStore, userId: string): Promise<ContactState> {
  return (await readStream(eventStore, streams.contact(userId), contactDecider)).state;
}

type Loaded = { state: MessageState; revision: number | null };

/** Whether the slot a waitlist offer's message tells of is still held for its patient (not booked, declined or past). */
async function offerStands(eventStore: EventStore, offer: { doctor_id: string; slot_id: number; until: string }, patientId: string, now: Date): Promise<boolean> {
  if (new Date(offer.until).getTime() <= now.getTime()) return false;
  const { state } = await readStream(eventStore, streams.waitlist(offer.doctor_id, patientId), waitlistDecider);
  return state.status === 'offered' && state.offer?.slot_id === offer.slot_id;
}

/**
 * Sends one message if it is due: checks it still applies (its appointment, its recipient, quiet hours), takes it up
 * for one attempt (an append only one process wins), sends it on the first channel left, and records the outcome.
 * Returns whether a send was made.
 */
export async function dispatchMessage(deps: MessagingDeps, messageId: string): Promise<boolean> {
  const stream = streams.message(messageId);
  const now = deps.clock();
  const stored = await deps.eventStore.readStream(stream);
  let loaded: Loaded = { state: stored.reduce((state, event) => messageDecider.evolve(state, toRecorded(event) as unknown as MessageEvent), messageDecider.initialState()), revision: stored.at(-1)?.revision ?? null };
  // Each step follows from the message's queueing (and so from what queued it: a booking, an approval).
  const queuedBy = stored[0] ? toRecorded(stored[0]) : null;
  const context = systemContext(now, queuedBy?.event_id ?? null, queuedBy?.metadata.correlation_id);
  const decide = async (command: MessageCommand) => {
    const result = await handleCommand(deps.eventStore, stream, messageDecider, command, context, loaded);
    loaded = { state: result.state, revision: result.events.length ? result.events[result.events.length - 1]!.revision : loaded.revision };
    return result;
  };
  const { state } = loaded;
  if (state.status === 'none') return false;
  const message = state.message;
  // A sign-in code is sent while its request waits, never later (its code is not kept anywhere to send again).
  if (isOneTimeCode(message.kind) || !message.recipient_id) {
    await decide({ type: 'Cancel', data: { reason: 'stale' } });
    return false;
  }
  const user = await loadUser(deps.eventStore, message.recipient_id);
  if (user.status !== 'registered' || !user.active) {
    await decide({ type: 'Cancel', data: { reason: 'recipient_gone' } });
    return false;
  }
  if (message.waitlist_offer && !(await offerStands(deps.eventStore, message.waitlist_offer, message.recipient_id, now))) {
    await decide({ type: 'Cancel', data: { reason: 'offer_ended' } });
    return false;
  }
  let startsAt = state.start ? new Date(state.start) : null;
  if (message.appointment_id && (message.kind === 'appointment_reminder' || message.kind === 'appointment_requested')) {
    const { state: appointment } = await appointmentsOf(deps.eventStore).current(streams.appointment(message.appointment_id));
    const wanted = message.kind === 'appointment_reminder' ? 'confirmed' : 'requested';
    if (appointment.status !== wanted || appointment.consultation_begun || new Date(appointment.appointment.start).getTime() <= now.getTime()) {
      await decide({ type: 'Cancel', data: { reason: 'appointment_closed' } });
      return false;
    }
    if (message.kind === 'appointment_requested' && appointment.appointment.start !== state.start) {
      // A request that moved before this went out: the move's own message tells of the new time.
      await decide({ type: 'Cancel', data: { reason: 'appointment_closed' } });
      return false;
    }
    if (message.kind === 'appointment_reminder' && appointment.appointment.start !== state.start) {
      // The consultation moved: the reminder follows it, at its offset before the new time (at once if that is past).
      const start = new Date(appointment.appointment.start);
      const dueAt = new Date(Math.max(now.getTime(), start.getTime() - (message.offset_minutes ?? 0) * 60_000));
      await decide({ type: 'Defer', data: { due_at: dueAt, reason: 'appointment_moved', start: appointment.appointment.start } });
      if (dueAt.getTime() > now.getTime()) return false;
      startsAt = start;
    }
  }
  const contact = await loadContact(deps.eventStore, message.recipient_id);
  const timeZone = contact.time_zone ?? DEFAULT_TIME_ZONE;
  const urgent = message.kind === 'appointment_reminder' && startsAt !== null && startsAt.getTime() - now.getTime() <= QUIET_HOURS_URGENT_MINUTES * 60_000;
  const quiet = urgent ? null : quietUntil(now, timeZone);
  if (quiet) {
    await decide({ type: 'Defer', data: { due_at: quiet, reason: 'quiet_hours', start: loaded.state.status === 'none' ? null : loaded.state.start } });
    return false;
  }
  const channels = channelsFor(deps.senders, contact, user);
  if (channels.length === 0) {
    await decide({ type: 'Cancel', data: { reason: 'no_channel' } });
    return false;
  }
  const started = await decide({ type: 'StartAttempt', data: { now, channels, lease_ms: deps.leaseMs ?? MESSAGE_ATTEMPT_LEASE_MS } });
  const attempt = started.state.status === 'sending' && started.events.length > 0 ? started.state.current : null;
  if (!attempt) return false; // another process has it, or nothing is left to try
  const language: LanguageCode = user.language ?? DEFAULT_LANGUAGE;
  const to = addressFor(attempt.channel, contact, user)!;
  const rendered = renderMessage(message.kind, language, {
    doctor: message.doctor_name ?? '',
    when: startsAt ? messageTime(startsAt, language, timeZone) : '',
    link: messageLink(deps.publicUrl, message.kind, message.appointment_id),
    minutes: message.kind === 'waitlist_offer' ? WAITLIST_HOLD_MINUTES : PHONE_SIGN_IN.codeTtlSeconds / 60,
  });
  const sender = deps.senders.get(attempt.channel)!;
  try {
    const sent = await sender.send({
      message_id: message.message_id,
      idempotency_key: channelSendKey(message.idempotency_key, attempt.channel),
      channel: attempt.channel,
      kind: message.kind,
      language,
      to,
      ...rendered,
    });
    await decide({ type: 'RecordSent', data: { channel: attempt.channel, attempt: attempt.attempt, provider_message_id: sent.provider_message_id, to_masked: maskAddress(to) } });
    return true;
  } catch (error) {
    const permanent = error instanceof ChannelSendError && error.permanent;
    deps.logger.warn({ messageId, channel: attempt.channel, provider: sender.provider, permanent, error: error instanceof Error ? error.message : String(error) }, 'message send failed');
    await decide({
      type: 'RecordFailure',
      data: { channel: attempt.channel, attempt: attempt.attempt, error: error instanceof Error ? error.message : 'send failed', permanent, now: deps.clock(), channels },
    });
    return false;
  }
}

/** How many messages are sent at once: providers answer in tens of milliseconds, so sends overlap. */
const DISPATCH_CONCURRENCY = 16;

/** Sends every message due by now, a page at a time from the pending index (never a scan of history). */
export async function dispatchDueMessages(deps: MessagingDeps & { lookups: MessageLookups; pageSize?: number }): Promise<number> {
  const now = deps.clock();
  let sent = 0;
  let running: Array<Promise<void>> = [];
  await forEachPage<DueMessage>(
    (after, limit) => deps.lookups.messagesDueBy(now, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (due) => {
      running.push(
        dispatchMessage(deps, due.message_id).then(
          (done) => void (done && sent++),
          (error: unknown) => deps.logger.error({ err: error, messageId: due.message_id }, 'message dispatch failed'),
        ),
      );
      if (running.length >= DISPATCH_CONCURRENCY) {
        await Promise.all(running);
        running = [];
      }
    },
  );
  await Promise.all(running);
  return sent;
}
