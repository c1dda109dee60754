import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ParticipantDisconnected } from '@telemed/contracts';
import { PARTICIPANT_DISCONNECTED_SUBJECT, TRANSIENT_SUBJECT_PREFIX, type Bus, type BusSubscription, type Logger, type ReadCollection, type ReadStore } from '@telemed/platform';
import type { ConsultationFacts } from './signalling';
import type { GuardedSocket } from './socket-guard';
import { CallCarriers, callKey as key, callOf } from './call-carriers';

/** "This person's call socket is back": crosses replicas on `telemed.transient.call.<user id>`, so any replica's grace ends. */
export const CALL_ATTACHED_SUBJECTS = `${TRANSIENT_SUBJECT_PREFIX}call.>`;
const attachedSubject = (userId: string) => `${TRANSIENT_SUBJECT_PREFIX}call.${userId}`;
/** "Does a socket of yours carry this person's call?" on `telemed.transient.call-probe.<user id>`: a replica that holds one says so on the attached subject. */
export const CALL_PROBE_SUBJECTS = `${TRANSIENT_SUBJECT_PREFIX}call-probe.>`;
const probeSubject = (userId: string) => `${TRANSIENT_SUBJECT_PREFIX}call-probe.${userId}`;

/** Open consultations read per page when the graces are armed again at start. */
export const REARM_PAGE_SIZE = 100;

/** The open consultations' index (the consultations projection's `open_consultations`: one document per call in progress). */
interface OpenConsultation {
  _id: string;
  ends_at: string;
}

type Participant = { user_id: string; present: boolean; connection_id: string };
type CallAttached = { user_id: string; appointment_id: string };

/**
 * The sockets that carry peer-to-peer calls (issue 13). A socket is attached to a consultation when its user says so
 * (`call_attach`, on joining and after every reconnect) or signals in it. When the last attached socket of a
 * participant on this replica closes, a grace starts; if no socket of theirs is attached to that consultation again
 * on any replica before it ends, and they are still present in the open p2p call, the write side is asked to record
 * them as gone (reason disconnected), so the other side no longer shows them. The graces live in memory: at start they
 * are derived again from the read model for everyone present in an open call (`rearmFromStore`).
 */
export function createCallSockets(options: { bus: Bus; readStore: ReadStore; logger: Logger; graceMs: number; clock?: () => Date }) {
  const consultations = options.readStore.collection<ConsultationFacts & { provider?: string; participants?: Participant[] }>('consultations');
  const openConsultations = options.readStore.collection<OpenConsultation>('open_consultations');
  const clock = options.clock ?? (() => new Date());
  const { logger } = options;
  const carriers = new CallCarriers();
  /** user with appointment → the grace running since their last call socket here closed. */
  const graces = new Map<string, NodeJS.Timeout>();
  const subscriptions: BusSubscription[] = [];

  const participant = (consultation: (ConsultationFacts & { participants?: Participant[] }) | null, userId: string) =>
    consultation && (consultation.patient_id === userId || consultation.doctor_id === userId) ? consultation : null;

  function cancelGrace(userId: string, appointmentId: string) {
    const timer = graces.get(key(userId, appointmentId));
    if (timer) clearTimeout(timer);
    graces.delete(key(userId, appointmentId));
  }

  /** Marks the socket as carrying this person's call; the first time, every replica's grace for them ends. */
  function attach(guarded: GuardedSocket, userId: string, appointmentId: string) {
    if (!guarded.open) return;
    if (!carriers.attach(guarded, key(userId, appointmentId), () => guarded.socket.once('close', () => detach(guarded)))) return;
    cancelGrace(userId, appointmentId);
    announceAttached(userId, appointmentId);
  }

  function announceAttached(userId: string, appointmentId: string) {
    options.bus
      .publishTransient(attachedSubject(userId), { user_id: userId, appointment_id: appointmentId } satisfies CallAttached)
      .catch((error: unknown) => logger.warn({ err: error }, 'call attachment not published'));
  }

  /** Reports the participant gone unless a socket of theirs carries the call again within the grace, on any replica. */
  function armGrace(userId: string, appointmentId: string, atDrop: Promise<string | null>) {
    const call = key(userId, appointmentId);
    const timer = setTimeout(() => {
      graces.delete(call);
      void reportIfStillPresent(userId, appointmentId, atDrop);
    }, options.graceMs);
    timer.unref();
    graces.set(call, timer);
  }

  function detach(guarded: GuardedSocket) {
    for (const call of carriers.detach(guarded)) {
      if (graces.has(call)) continue;
      const { userId, appointmentId } = callOf(call);
      // The connection that was live when the socket dropped: a join since (another device) is not theirs to end.
      armGrace(userId, appointmentId, connectionOf(userId, appointmentId));
    }
  }

  /** A participant without a call socket here: a grace from now, and every replica asked whether it holds one of theirs. */
  function rearm(userId: string, appointmentId: string, connectionId: string): boolean {
    const call = key(userId, appointmentId);
    if (carriers.has(call) || graces.has(call)) return false;
    armGrace(userId, appointmentId, Promise.resolve(connectionId));
    options.bus
      .publishTransient(probeSubject(userId), { user_id: userId, appointment_id: appointmentId } satisfies CallAttached)
      .catch((error: unknown) => logger.warn({ err: error }, 'call probe not published'));
    return true;
  }

  /** Another replica, starting, asks about a call: a socket here that carries it answers as a reattachment would. */
  function onProbe(_subject: string, payload: unknown) {
    const probe = payload as Partial<CallAttached> | null;
    if (typeof probe?.user_id !== 'string' || typeof probe.appointment_id !== 'string') return;
    if (carriers.has(key(probe.user_id, probe.appointment_id))) announceAttached(probe.user_id, probe.appointment_id);
  }

  /** The participant's present connection in the open p2p call, or null. */
  async function connectionOf(userId: string, appointmentId: string): Promise<string | null> {
    try {
      const consultation = await consultations.get(appointmentId);
      if (!consultation || consultation.status !== 'active' || consultation.provider !== 'p2p') return null;
      const current = consultation.participants?.find((p) => p.user_id === userId);
      return current?.present ? current.connection_id : null;
    } catch (error) {
      logger.error({ err: error }, 'could not read the consultation of a dropped call socket');
      return null;
    }
  }

  async function reportIfStillPresent(userId: string, appointmentId: string, atDrop: Promise<string | null>) {
    const [then, now] = await Promise.all([atDrop, connectionOf(userId, appointmentId)]);
    if (!then || then !== now) return;
    const notice: ParticipantDisconnected = { appointment_id: appointmentId, user_id: userId, connection_id: then };
    try {
      await options.bus.publishTransient(PARTICIPANT_DISCONNECTED_SUBJECT, notice);
      logger.info({ appointment_id: appointmentId, user_id: userId }, 'call socket did not come back within the grace');
    } catch (error) {
      logger.error({ err: error }, 'could not report a dropped call socket');
    }
  }

  function onAttachedElsewhere(_subject: string, payload: unknown) {
    const notice = payload as { user_id?: unknown; appointment_id?: unknown };
    if (typeof notice?.user_id === 'string' && typeof notice.appointment_id === 'string') cancelGrace(notice.user_id, notice.appointment_id);
  }

  return {
    /** `call_attach` from a client: only a participant of that consultation attaches a socket to it. */
    async onAttach(guarded: GuardedSocket, userId: string, appointmentId: string) {
      if (participant(await consultations.get(appointmentId), userId)) attach(guarded, userId, appointmentId);
    },
    /** A signal the relay accepted: its socket carries that call. */
    signalled: attach,
    async start() {
      subscriptions.push(await options.bus.subscribeTransient(CALL_ATTACHED_SUBJECTS, onAttachedElsewhere));
      subscriptions.push(await options.bus.subscribeTransient(CALL_PROBE_SUBJECTS, onProbe));
      try {
        const armed = await rearmFromStore({ consultations, openConsultations, now: clock().getTime(), rearm });
        if (armed > 0) logger.info({ armed }, 'call graces armed again for participants without a call socket');
      } catch (error) {
        logger.error({ err: error }, 'could not arm the call graces again at start');
      }
    },
    async stop() {
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
      for (const timer of graces.values()) clearTimeout(timer);
      graces.clear();
      carriers.clear();
    },
  };
}

/**
 * At start: the graces a stopped or crashed process held lived only in its memory. Every participant present in an
 * open peer-to-peer call whose call socket is not here gets one again, measured from now, and every replica is asked
 * whether it holds a socket of theirs (one that does ends the grace, as a reattachment does). From now, not from a
 * stored time: no socket activity is stored (a join is, but a call that has run for twenty minutes since then is not
 * stale), and while the process was down nobody could reconnect; so each participant gets the same grace to come back
 * as after any drop, and one who was gone before the crash stays shown at most the downtime and one grace longer.
 * Reads only the calls in progress (the open consultations' index, a page at a time), never the history.
 */
async function rearmFromStore(deps: {
  consultations: ReadCollection<ConsultationFacts & { provider?: string; participants?: Participant[] }>;
  openConsultations: ReadCollection<OpenConsultation>;
  now: number;
  rearm(userId: string, appointmentId: string, connectionId: string): boolean;
}): Promise<number> {
  let armed = 0;
  let after: OpenConsultation | null = null;
  for (;;) {
    const cursor: Record<string, unknown> = after ? { $or: [{ ends_at: { $gt: after.ends_at } }, { ends_at: after.ends_at, _id: { $gt: after._id } }] } : {};
    const page: OpenConsultation[] = await deps.openConsultations.find(cursor, { sort: { ends_at: 1, _id: 1 }, limit: REARM_PAGE_SIZE });
    for (const open of page) {
      const consultation = await deps.consultations.get(open._id);
      if (!consultation || consultation.status !== 'active' || consultation.provider !== 'p2p') continue;
      if (Date.parse(consultation.ends_at) <= deps.now) continue; // the limit's process manager ends it and everyone's presence
      for (const participant of consultation.participants ?? []) {
        if (participant.present && deps.rearm(participant.user_id, open._id, participant.connection_id)) armed += 1;
      }
    }
    if (page.length < REARM_PAGE_SIZE) return armed;
    after = page[page.length - 1]!;
    await yieldToEventLoop();
  }
}
