import type { ParticipantDisconnected } from '@telemed/contracts';
import { PARTICIPANT_DISCONNECTED_SUBJECT, TRANSIENT_SUBJECT_PREFIX, type Bus, type BusSubscription, type Logger, type ReadStore } from '@telemed/platform';
import type { ConsultationFacts } from './signalling';
import type { GuardedSocket } from './socket-guard';

/** "This person's call socket is back": crosses replicas on `telemed.transient.call.<user id>`, so any replica's grace ends. */
export const CALL_ATTACHED_SUBJECTS = `${TRANSIENT_SUBJECT_PREFIX}call.>`;
const attachedSubject = (userId: string) => `${TRANSIENT_SUBJECT_PREFIX}call.${userId}`;

type Participant = { user_id: string; present: boolean; connection_id: string };

const key = (userId: string, appointmentId: string) => `${userId} ${appointmentId}`;

/**
 * The sockets that carry peer-to-peer calls (issue 13). A socket is attached to a consultation when its user says so
 * (`call_attach`, on joining and after every reconnect) or signals in it. When the last attached socket of a
 * participant on this replica closes, a grace starts; if no socket of theirs is attached to that consultation again
 * on any replica before it ends, and they are still present in the open p2p call, the write side is asked to record
 * them as gone (reason disconnected), so the other side no longer shows them.
 */
export function createCallSockets(options: { bus: Bus; readStore: ReadStore; logger: Logger; graceMs: number }) {
  const consultations = options.readStore.collection<ConsultationFacts & { provider?: string; participants?: Participant[] }>('consultations');
  const { logger } = options;
  /** socket → the calls it carries (keys of user with appointment). */
  const carried = new Map<GuardedSocket, Set<string>>();
  /** user with appointment → the sockets on this replica that carry that call. */
  const carriers = new Map<string, Set<GuardedSocket>>();
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
    let calls = carried.get(guarded);
    if (!calls) {
      carried.set(guarded, (calls = new Set()));
      guarded.socket.once('close', () => detach(guarded));
    }
    const call = key(userId, appointmentId);
    if (calls.has(call)) return;
    calls.add(call);
    let sockets = carriers.get(call);
    if (!sockets) carriers.set(call, (sockets = new Set()));
    sockets.add(guarded);
    cancelGrace(userId, appointmentId);
    options.bus
      .publishTransient(attachedSubject(userId), { user_id: userId, appointment_id: appointmentId })
      .catch((error: unknown) => logger.warn({ err: error }, 'call attachment not published'));
  }

  function detach(guarded: GuardedSocket) {
    const calls = carried.get(guarded);
    carried.delete(guarded);
    for (const call of calls ?? []) {
      const sockets = carriers.get(call);
      sockets?.delete(guarded);
      if (sockets && sockets.size > 0) continue; // another socket of theirs here still carries it
      carriers.delete(call);
      if (graces.has(call)) continue;
      const [userId, appointmentId] = call.split(' ') as [string, string];
      // The connection that was live when the socket dropped: a join since (another device) is not theirs to end.
      const atDrop = connectionOf(userId, appointmentId);
      const timer = setTimeout(() => {
        graces.delete(call);
        void reportIfStillPresent(userId, appointmentId, atDrop);
      }, options.graceMs);
      timer.unref();
      graces.set(call, timer);
    }
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
    },
    async stop() {
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
      for (const timer of graces.values()) clearTimeout(timer);
      graces.clear();
      carried.clear();
      carriers.clear();
    },
  };
}
