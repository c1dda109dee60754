import { CONSULTATION_TEXTS, entryFor, ignoring, type EventTable, type RecordedEvent, type ServerMessage } from '@telemed/contracts';
import { TRANSIENT_SUBJECT_PREFIX, type Bus, type BusSubscription, type Logger, type ReadStore } from '@telemed/platform';
import type { SocketSessions } from './sessions';
import type { GuardedSocket } from './socket-guard';

/** Lobby notices cross replicas on `telemed.transient.lobby.<addressee>`: never stored, at most once. */
export const LOBBY_SUBJECTS = `${TRANSIENT_SUBJECT_PREFIX}lobby.>`;
const lobbySubject = (userId: string) => `${TRANSIENT_SUBJECT_PREFIX}lobby.${userId}`;

type Role = 'patient' | 'doctor';

/** What each event does to a consultation's lobby: joining the call takes the joiner out, the end empties it. */
const LOBBY_CHANGE = {
  ConsultationJoined: 'joiner_leaves',
  ConsultationEnded: 'emptied',
  ConsultationAutoEnded: 'emptied',
  ...ignoring('accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet'),
  ...ignoring('ConsultationStarted', 'ConsultationLeft', 'ConsultationMessagePosted', 'VideoProviderEventReceived'),
} as const satisfies EventTable<'joiner_leaves' | 'emptied'>;

/**
 * What replicas tell each other: a participant's presence changed (for `to`, the other participant), or `from` asks
 * whether `to` is waiting (a replica holding `to` in that lobby answers with a presence).
 */
type LobbyNotice =
  | { kind: 'presence'; to: string; appointment_id: string; user_id: string; role: Role; present: boolean }
  | { kind: 'probe'; to: string; appointment_id: string; from: string };

/** What the lobby needs of an appointment (the appointments read model). */
interface AppointmentParties {
  _id: string;
  patient_id: string;
  doctor_id: string;
  status: string;
}

interface Held {
  role: Role;
  other: string;
  sockets: Set<GuardedSocket>;
}

/**
 * Lobby presence (issue 13): who is waiting in a confirmed appointment's lobby, kept in memory by the replica that
 * holds the waiting person's socket, never as events. Entering tells the other participant (on whichever replica
 * their sockets are) and asks whether they are waiting too; leaving, the socket closing, or joining the call takes
 * the presence away and says so. Only the appointment's patient and doctor may announce or ask.
 */
export function createLobby(options: { bus: Bus; readStore: ReadStore; sessions: SocketSessions; logger: Logger }) {
  const appointments = options.readStore.collection<AppointmentParties>('appointments');
  const { sessions, logger } = options;
  /** appointment id → user id → that user's sockets waiting in this lobby on this replica. */
  const held = new Map<string, Map<string, Held>>();
  /** socket → the lobbies it announced (appointment id → user id), so its close finds them without a scan. */
  const lobbiesOf = new Map<GuardedSocket, Map<string, string>>();
  const subscriptions: BusSubscription[] = [];

  const publish = (notice: LobbyNotice) =>
    options.bus.publishTransient(lobbySubject(notice.to), notice).catch((error: unknown) => logger.warn({ err: error }, 'lobby notice not published'));

  /** The caller's role and the other participant, for a confirmed appointment they take part in; else null. */
  async function partyOf(userId: string, appointmentId: string): Promise<{ role: Role; other: string } | null> {
    const appointment = await appointments.get(appointmentId);
    if (!appointment || appointment.status !== 'confirmed') return null;
    if (appointment.patient_id === userId) return { role: 'patient', other: appointment.doctor_id };
    if (appointment.doctor_id === userId) return { role: 'doctor', other: appointment.patient_id };
    return null;
  }

  function refuse(guarded: GuardedSocket, userId: string, appointmentId: string, type: string) {
    logger.warn({ type, user_id: userId }, 'lobby message refused: not a participant of a confirmed appointment');
    guarded.send(JSON.stringify({ type: 'lobby_refused', appointment_id: appointmentId, detail: CONSULTATION_TEXTS.lobbyRefused } satisfies ServerMessage));
  }

  /** Takes a user's presence in a lobby away on this replica (some sockets, or all) and tells the other participant. */
  function release(appointmentId: string, userId: string, socket?: GuardedSocket) {
    const lobby = held.get(appointmentId);
    const entry = lobby?.get(userId);
    if (!lobby || !entry) return;
    if (socket) entry.sockets.delete(socket);
    else entry.sockets.clear();
    if (entry.sockets.size > 0) return;
    lobby.delete(userId);
    if (lobby.size === 0) held.delete(appointmentId);
    void publish({ kind: 'presence', to: entry.other, appointment_id: appointmentId, user_id: userId, role: entry.role, present: false });
  }

  function releaseSocket(socket: GuardedSocket) {
    const lobbies = lobbiesOf.get(socket);
    lobbiesOf.delete(socket);
    for (const [appointmentId, userId] of lobbies ?? []) release(appointmentId, userId, socket);
  }

  async function enter(guarded: GuardedSocket, userId: string, appointmentId: string) {
    const party = await partyOf(userId, appointmentId);
    if (!party) return refuse(guarded, userId, appointmentId, 'lobby_enter');
    if (!guarded.open) return;
    let lobby = held.get(appointmentId);
    if (!lobby) held.set(appointmentId, (lobby = new Map()));
    let entry = lobby.get(userId);
    if (!entry) lobby.set(userId, (entry = { ...party, sockets: new Set() }));
    entry.sockets.add(guarded);
    let lobbies = lobbiesOf.get(guarded);
    if (!lobbies) {
      lobbiesOf.set(guarded, (lobbies = new Map()));
      guarded.socket.once('close', () => releaseSocket(guarded));
    }
    lobbies.set(appointmentId, userId);
    await publish({ kind: 'presence', to: party.other, appointment_id: appointmentId, user_id: userId, role: party.role, present: true });
    await publish({ kind: 'probe', to: party.other, appointment_id: appointmentId, from: userId });
  }

  async function watch(guarded: GuardedSocket, userId: string, appointmentId: string) {
    const party = await partyOf(userId, appointmentId);
    if (!party) return refuse(guarded, userId, appointmentId, 'lobby_watch');
    await publish({ kind: 'probe', to: party.other, appointment_id: appointmentId, from: userId });
  }

  function deliver(_subject: string, payload: unknown): void {
    const notice = payload as LobbyNotice;
    if (typeof notice?.to !== 'string' || typeof notice.appointment_id !== 'string') return;
    const mine = held.get(notice.appointment_id)?.get(notice.kind === 'probe' ? notice.to : notice.user_id);
    if (notice.kind === 'probe') {
      if (mine) void publish({ kind: 'presence', to: notice.from, appointment_id: notice.appointment_id, user_id: notice.to, role: mine.role, present: true });
      return;
    }
    const { to, appointment_id, user_id, role, present } = notice;
    sessions.send(to, { type: 'lobby_presence', appointment_id, user_id, role, present } satisfies ServerMessage);
    // Another replica's socket left, but this one still holds the person in the lobby: they are still waiting.
    if (!present && mine) void publish({ ...notice, present: true });
  }

  return {
    async onMessage(guarded: GuardedSocket, userId: string, message: { type: 'lobby_enter' | 'lobby_leave' | 'lobby_watch'; appointment_id: string }) {
      if (message.type === 'lobby_enter') return enter(guarded, userId, message.appointment_id);
      if (message.type === 'lobby_watch') return watch(guarded, userId, message.appointment_id);
      release(message.appointment_id, userId, guarded);
    },
    /** Joining the call takes the person out of the lobby; the consultation's end empties it. */
    onConsultationEvent(event: RecordedEvent) {
      const change = entryFor(LOBBY_CHANGE, event.type);
      const data = event.data as { appointment_id?: string; user_id?: string };
      if (!change || !data.appointment_id) return;
      if (change === 'joiner_leaves' && data.user_id) release(data.appointment_id, data.user_id);
      if (change === 'emptied') {
        for (const userId of [...(held.get(data.appointment_id)?.keys() ?? [])]) release(data.appointment_id, userId);
      }
    },
    async start() {
      subscriptions.push(await options.bus.subscribeTransient(LOBBY_SUBJECTS, deliver));
    },
    async stop() {
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
      held.clear();
      lobbiesOf.clear();
    },
  };
}
