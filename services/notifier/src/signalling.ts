import {
  CONSULTATION_TEXTS,
  SIGNAL_TYPES,
  entryFor,
  ignoring,
  type ClientSignal,
  type EventTable,
  type RecordedEvent,
  type ServerMessage,
} from '@telemed/contracts';
import { TRANSIENT_SUBJECT_PREFIX, type Bus, type BusSubscription, type Logger, type ReadStore } from '@telemed/platform';
import type { SocketSessions } from './sessions';
import type { GuardedSocket } from './socket-guard';
import { SignalBudgets, type SignalLimits } from './signal-budget';

/** What signalling needs of a consultation (the consultations read model). */
export interface ConsultationFacts {
  _id: string;
  appointment_id: string;
  patient_id: string;
  doctor_id: string;
  status: 'active' | 'ended';
  started_at: string;
  ends_at: string;
  ended_at: string | null;
  auto_ended: boolean;
}

/** Consultation events, as the relay publishes them. */
export const CONSULTATION_SUBJECTS = 'telemed.events.consultation.>';
/** Signals for one recipient cross replicas on `telemed.transient.signal.<user id>`: never stored, at most once. */
export const SIGNAL_SUBJECTS = `${TRANSIENT_SUBJECT_PREFIX}signal.>`;
const signalSubject = (userId: string) => `${TRANSIENT_SUBJECT_PREFIX}signal.${userId}`;

const SIGNAL_TYPE_SET: ReadonlySet<string> = new Set(SIGNAL_TYPES);
export const isSignal = (message: { type: string } | null): message is ClientSignal => !!message && SIGNAL_TYPE_SET.has(message.type);

interface RelayedSignal {
  to: string;
  message: ClientSignal & { from_user_id: string };
}

/** The consultation_update each event makes, or none (the notifier is sent the consultations' events only). */
const UPDATE_OF = {
  ConsultationStarted: 'started',
  ConsultationJoined: 'joined',
  ConsultationLeft: 'left',
  ConsultationEnded: 'ended',
  ConsultationAutoEnded: 'auto_ended',
  ConsultationMessagePosted: 'message',
  ...ignoring('accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet'),
  ...ignoring('VideoProviderEventReceived'),
} as const satisfies EventTable<'started' | 'joined' | 'left' | 'ended' | 'auto_ended' | 'message'>;

/**
 * Peer-to-peer signalling of consultations over the notifier's sockets: an offer, answer, ICE candidate or hang-up is
 * relayed only to the other participant of that appointment, only while its consultation is open (started, not
 * ended, before its limit). Anything else is refused and logged without its payload. Across replicas, signals go
 * through the bus's transient subjects; consultation events from the log become `consultation_update` messages for
 * both participants (the auto-end among them).
 */
export function createSignalling(options: {
  bus: Bus;
  readStore: ReadStore;
  sessions: SocketSessions;
  logger: Logger;
  clock: () => Date;
  waitForPosition(position: number): Promise<unknown>;
  /** Told of every consultation event first (the lobby drops those who joined the call). */
  onConsultationEvent?(event: RecordedEvent): void;
  /** Told of every signal it relays: the sending socket carries that call. */
  onRelayed?(guarded: GuardedSocket, senderId: string, appointmentId: string): void;
  /** The per-person and per-consultation budgets (SIGNAL_LIMITS unless given). */
  signalLimits?: Partial<SignalLimits>;
}) {
  const consultations = options.readStore.collection<ConsultationFacts>('consultations');
  const { logger, sessions } = options;
  const budgets = new SignalBudgets(options.signalLimits);
  const subscriptions: BusSubscription[] = [];

  /** The other participant when the sender may signal in this consultation now, else null. */
  async function recipientFor(senderId: string, appointmentId: string): Promise<string | null> {
    const consultation = await consultations.get(appointmentId);
    if (!consultation || consultation.status !== 'active') return null;
    if (Date.parse(consultation.ends_at) <= options.clock().getTime()) return null;
    if (senderId === consultation.patient_id) return consultation.doctor_id;
    if (senderId === consultation.doctor_id) return consultation.patient_id;
    return null;
  }

  /**
   * Per sending socket, its latest signal's relay. Signals are relayed in the order the socket sent them: each one's
   * lookup starts at once, but it is published only after the one before it (lookups are I/O, e.g. MongoDB, and finish
   * in any order). The bus keeps that order from there: in process it delivers at once; core NATS keeps the order of
   * one connection's messages on one subject, and all of one recipient's signals go on their own subject.
   */
  const lastRelay = new WeakMap<GuardedSocket, Promise<void>>();

  /**
   * A signal as received, `bytes` its frame's size. One over its sender's budget is answered `rtc_limited` at once and
   * costs nothing more: no lookup, no relay.
   */
  function onSignal(guarded: GuardedSocket, senderId: string, message: ClientSignal, bytes: number): Promise<void> {
    const over = budgets.charge(senderId, message.appointment_id, message.type, bytes, Date.now());
    if (over) {
      if (over.first) logger.warn({ type: message.type, user_id: senderId, limit: over.limit }, 'signals not relayed: over the sender\'s signalling budget');
      const limited: ServerMessage = { type: 'rtc_limited', appointment_id: message.appointment_id, limit: over.limit, retry_after_ms: over.retryAfterMs, detail: CONSULTATION_TEXTS.signalLimited };
      guarded.send(JSON.stringify(limited));
      return Promise.resolve();
    }
    const recipient = recipientFor(senderId, message.appointment_id);
    recipient.catch(() => {}); // awaited below, after the previous signal; until then its failure is not unhandled
    const relayed = (lastRelay.get(guarded) ?? Promise.resolve()).then(() => relay(guarded, senderId, message, recipient));
    lastRelay.set(guarded, relayed.catch(() => {}));
    return relayed;
  }

  async function relay(guarded: GuardedSocket, senderId: string, message: ClientSignal, lookup: Promise<string | null>): Promise<void> {
    const recipient = await lookup;
    if (!recipient) {
      // Who tried and what kind, never the payload (session descriptions and candidates carry addresses).
      logger.warn({ type: message.type, user_id: senderId }, 'signal refused: not a participant of an open consultation');
      guarded.send(JSON.stringify({ type: 'rtc_refused', appointment_id: message.appointment_id, detail: CONSULTATION_TEXTS.signalRefused } satisfies ServerMessage));
      return;
    }
    options.onRelayed?.(guarded, senderId, message.appointment_id);
    const relayed: RelayedSignal = { to: recipient, message: { ...message, from_user_id: senderId } };
    await options.bus.publishTransient(signalSubject(recipient), relayed);
  }

  function deliverSignal(_subject: string, payload: unknown): void {
    const relayed = payload as RelayedSignal;
    if (typeof relayed?.to !== 'string' || typeof relayed.message?.type !== 'string') return;
    sessions.send(relayed.to, relayed.message);
  }

  async function onConsultationEvent(event: RecordedEvent): Promise<void> {
    options.onConsultationEvent?.(event);
    const kind = entryFor(UPDATE_OF, event.type);
    if (!kind) return;
    await options.waitForPosition(event.position);
    const data = event.data as { appointment_id: string; user_id?: string; connection_id?: string; replaced_connection_id?: string | null; message_id?: string };
    const consultation = await consultations.get(data.appointment_id);
    if (!consultation) return;
    const message: ServerMessage = {
      type: 'consultation_update',
      event_id: event.event_id,
      data: {
        appointment_id: data.appointment_id,
        event: kind,
        user_id: event.type === 'ConsultationEnded' ? (event.data as { ended_by: string }).ended_by : (data.user_id ?? null),
        connection_id: data.connection_id ?? null,
        replaced_connection_id: data.replaced_connection_id ?? null,
        status: kind === 'ended' || kind === 'auto_ended' ? 'ended' : 'active',
        started_at: consultation.started_at,
        ends_at: consultation.ends_at,
        occurred_at: event.metadata.occurred_at,
        auto_ended: kind === 'auto_ended',
        message_id: data.message_id ?? null,
      },
    };
    sessions.send(consultation.patient_id, message);
    sessions.send(consultation.doctor_id, message);
  }

  return {
    onSignal,
    onConsultationEvent,
    async start(subscribeEvents: (subject: string, suffix: string, handle: (event: RecordedEvent) => unknown) => Promise<unknown>) {
      subscriptions.push(await options.bus.subscribeTransient(SIGNAL_SUBJECTS, deliverSignal));
      await subscribeEvents(CONSULTATION_SUBJECTS, '-consultations', onConsultationEvent);
    },
    async stop() {
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
    },
  };
}
