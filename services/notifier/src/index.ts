import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  WS_CLOSE,
  WS_MAX_INCOMING_BYTES,
  parseClientMessage,
  type RecordedEvent,
  type ServerMessage,
} from '@telemed/contracts';
import { type AccessAudit, type Bus, type BusSubscription, type Logger, type ReadStore, type TokenCheck, type TokenService } from '@telemed/platform';
import type { AppointmentFacts } from './messages';
import { createSocketAuthenticator } from './socket-auth';
import { createDeliveries } from './deliveries';
import { SocketSessions } from './sessions';
import { GuardedSocket, type SocketLimits } from './socket-guard';
import { RecentIds } from './recent-ids';
import { createSignalling, isSignal } from './signalling';
import { createLobby } from './lobby';
import { createCallSockets } from './call-sockets';
import type { SignalLimits } from './signal-budget';

export { messagesFor } from './messages';
export { SIGNAL_LIMITS } from './signal-budget';

/** Close codes and reasons of the real-time channel (kept here under its old name for importers). */
export const CLOSE = WS_CLOSE;

const WS_PATH = /^\/ws\/([A-Za-z0-9_-]{1,64})$/;
export const APPOINTMENT_SUBJECTS = 'telemed.events.appointment.>';
/** Events that end what a socket stands on: its session, or its user's account. */
export const SESSION_ENDED_SUBJECT = 'telemed.events.session.SessionEnded';
export const USER_DEACTIVATED_SUBJECT = 'telemed.events.user.UserDeactivated';
/** An erased account's sockets close as a deactivated one's do. */
export const USER_ERASED_SUBJECT = 'telemed.events.user.PersonalDataErased';
/** A slot freed by a rejection, cancellation or expiry: the doctor's schedule changes without their own action. */
export const SLOT_RELEASED_SUBJECT = 'telemed.events.slot.SlotReleased';
/** A patient's waitlist place: joined, a slot held for them, the hold ended, closed. */
export const WAITLIST_SUBJECTS = 'telemed.events.waitlist.>';

export const DEFAULT_SOCKET_LIMITS = {
  maxSocketsPerUser: 10,
  maxBufferedBytes: 1024 * 1024,
  messageRateLimit: 20,
  messageRateWindowMs: 10_000,
  signalRateLimit: 60,
} as const;

export interface NotifierOptions {
  tokens: TokenService;
  readStore: ReadStore;
  /**
   * The appointment as its messages show it: the fields read models keep sealed (a visit's reason, a rejection's)
   * opened, and its people as they are now. A lookup the read side implements (services/query's
   * appointmentMessageView), wired by main.ts: the notifier imports nothing from the read side.
   */
  appointmentView: (stored: AppointmentFacts & { _id: string }) => Promise<AppointmentFacts>;
  bus: Bus;
  logger: Logger;
  /**
   * Records a message that shows a doctor another person's data (a patient's request) before it is sent, as a read of
   * the same data through the API is; a message whose record cannot be written is not sent.
   */
  audit: Pick<AccessAudit, 'recordFor'>;
  /** Says why a verified token may no longer be used (ended session, deactivated account), or null. */
  checkToken?: TokenCheck;
  /** Resolves once the read models include this log position (the messages name people from them). */
  waitForPosition(position: number): Promise<unknown>;
  /** A socket that sends no heartbeat for this long is closed (the seeds' clients beat every 30 s). */
  idleTimeoutMs?: number;
  /** A durable consumer name: after a restart this replica gets what was published while it was down. */
  durableName?: string;
  limits?: Partial<SocketLimits & { maxSocketsPerUser: number }>;
  onDelivered?(count: number): void;
  /** The time signalling is checked against (a consultation's limit); tests inject one. */
  clock?: () => Date;
  /** How long a peer-to-peer participant's dropped call socket may stay away before they are recorded as gone. */
  disconnectGraceMs?: number;
  /** Budgets of relayed signals per person and per consultation (SIGNAL_LIMITS unless given). */
  signalLimits?: Partial<SignalLimits>;
}

/**
 * Real-time notifications: authenticates `/ws/{userId}?token=` before anything else, keeps each user's sockets
 * (bound to the session that opened them), and turns appointment events from the bus into the seeds' messages
 * for the users they concern. Each replica consumes the bus and delivers to its own sockets.
 */
export function createNotifier(options: NotifierOptions) {
  const limits = { ...DEFAULT_SOCKET_LIMITS, ...options.limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_INCOMING_BYTES });
  const sessions = new SocketSessions(limits.maxSocketsPerUser);
  const delivered = new RecentIds(10_000);
  // Sessions and users ended recently: a socket whose authentication read a read model that had not caught up yet
  // is closed when it is added (the read model is behind by far fewer than this many endings).
  const endedSessions = new RecentIds(10_000);
  const deactivatedUsers = new RecentIds(10_000);
  const idleTimeoutMs = options.idleTimeoutMs ?? 90_000;
  const subscriptions: BusSubscription[] = [];
  const users = options.readStore.collection<{ _id: string; active?: boolean }>('users');
  const appointments = options.readStore.collection<AppointmentFacts & { _id: string }>('appointments');
  const { logger } = options;
  const lobby = createLobby({ ...options, sessions });
  const callSockets = createCallSockets({ ...options, graceMs: options.disconnectGraceMs ?? 15_000 });
  const authenticate = createSocketAuthenticator({ ...options, users });
  const { onAppointmentEvent, onSlotReleased, onWaitlistEvent } = createDeliveries({ ...options, sessions, delivered, appointments });
  const signalling = createSignalling({
    ...options,
    sessions,
    clock: options.clock ?? (() => new Date()),
    onConsultationEvent: (event) => lobby.onConsultationEvent(event),
    onRelayed: (guarded, senderId, appointmentId) => callSockets.signalled(guarded, senderId, appointmentId),
  });

  function keepAlive(guarded: GuardedSocket) {
    const idle = () => guarded.close(CLOSE.idle);
    let timer = setTimeout(idle, idleTimeoutMs);
    guarded.socket.on('close', () => clearTimeout(timer));
    return () => {
      clearTimeout(timer);
      timer = setTimeout(idle, idleTimeoutMs);
    };
  }

  function serve(guarded: GuardedSocket, userId: string, sessionId: string | null) {
    if ((sessionId && endedSessions.has(sessionId)) || deactivatedUsers.has(userId)) {
      return guarded.close(CLOSE.invalidToken);
    }
    sessions.add(userId, sessionId, guarded);
    const beat = keepAlive(guarded);
    guarded.socket.on('message', (raw, isBinary) => {
      const text = isBinary ? '' : String(raw);
      const message = isBinary ? null : parseClientMessage(text);
      // Signals spend a budget of their own (a call's setup is a burst); everything else, known or not, the general one.
      if (!guarded.admit(Date.now(), isSignal(message) ? 'signal' : 'general') || isBinary) return;
      if (isSignal(message)) {
        signalling.onSignal(guarded, userId, message, Buffer.byteLength(text)).catch((error: unknown) => logger.error({ err: error }, 'signal relay failed'));
        return;
      }
      if (!message) return logMalformedSignal(text, userId);
      if (message.type === 'lobby_enter' || message.type === 'lobby_leave' || message.type === 'lobby_watch') {
        lobby.onMessage(guarded, userId, message).catch((error: unknown) => logger.error({ err: error }, 'lobby message failed'));
        return;
      }
      if (message.type === 'call_attach') {
        callSockets.onAttach(guarded, userId, message.appointment_id).catch((error: unknown) => logger.error({ err: error }, 'call attach failed'));
        return;
      }
      if (message.type !== 'heartbeat') return; // anything that is not a known message is ignored
      beat();
      guarded.send(serialize({ type: 'heartbeat_response', timestamp: new Date().toISOString() }));
    });
    guarded.send(serialize({ type: 'connection_established', user_id: userId, timestamp: new Date().toISOString() }));
  }

  /** A frame that claims to be signalling but is not valid is ignored and logged: its type and size, never its content. */
  function logMalformedSignal(text: string, userId: string): void {
    if (!text.includes('"rtc_')) return;
    let type: unknown;
    try {
      type = (JSON.parse(text) as { type?: unknown } | null)?.type;
    } catch {
      type = null;
    }
    if (typeof type === 'string' && type.startsWith('rtc_')) logger.warn({ type: type.slice(0, 32), bytes: text.length, user_id: userId }, 'ignored a malformed signalling message');
  }

  function onConnection(ws: WebSocket, userId: string, token: string | null) {
    const guarded = new GuardedSocket(ws, limits, logger);
    void authenticate(userId, token)
      .then((result) => {
        if ('refused' in result) return guarded.close(result.refused);
        if (ws.readyState !== ws.OPEN) return;
        serve(guarded, userId, result.sessionId);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'socket setup failed');
        guarded.close(CLOSE.authFailed);
      });
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = WS_PATH.exec(url.pathname);
    if (!match) return false;
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, match[1]!, url.searchParams.get('token')));
    return true;
  }

  function onSessionEnded(event: RecordedEvent) {
    const { session_id } = event.data as { session_id: string };
    endedSessions.add(session_id);
    sessions.closeSession(session_id, CLOSE.invalidToken);
  }

  function onUserDeactivated(event: RecordedEvent) {
    const { user_id } = event.data as { user_id: string };
    deactivatedUsers.add(user_id);
    sessions.closeUser(user_id, CLOSE.invalidToken);
  }

  const consumerName = (suffix: string) => (options.durableName ? `${options.durableName}${suffix}` : undefined);

  return {
    handleUpgrade,
    async start() {
      const subscribe = async (subject: string, suffix: string, handle: (event: RecordedEvent) => unknown) =>
        subscriptions.push(
          await options.bus.subscribe(subject, async (message) => void (await handle(message.payload as RecordedEvent)), {
            durableName: consumerName(suffix),
          }),
        );
      await subscribe(APPOINTMENT_SUBJECTS, '', onAppointmentEvent);
      await subscribe(SESSION_ENDED_SUBJECT, '-sessions', onSessionEnded);
      await subscribe(USER_DEACTIVATED_SUBJECT, '-users', onUserDeactivated);
      await subscribe(USER_ERASED_SUBJECT, '-erasures', onUserDeactivated);
      await subscribe(SLOT_RELEASED_SUBJECT, '-slots', onSlotReleased);
      await subscribe(WAITLIST_SUBJECTS, '-waitlist', onWaitlistEvent);
      await lobby.start();
      await callSockets.start();
      await signalling.start(subscribe);
    },
    openSockets: () => sessions.count,
    async stop() {
      await signalling.stop();
      await lobby.stop();
      await callSockets.stop();
      for (const subscription of subscriptions.splice(0)) await subscription.unsubscribe();
      sessions.closeAll(CLOSE.shutdown);
      wss.close();
    },
  };
}

function serialize(message: ServerMessage): string {
  return JSON.stringify(message);
}
