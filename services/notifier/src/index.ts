import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RecordedEvent } from '@telemed/contracts';
import { TokenError, type Bus, type BusSubscription, type Logger, type ReadStore, type TokenService } from '@telemed/platform';
import { messagesFor, type AppointmentFacts } from './messages';
import { SocketSessions } from './sessions';

export { messagesFor } from './messages';

/** Close codes and reasons of the seeds' real-time channel. */
export const CLOSE = {
  tokenRequired: { code: 4001, reason: 'Authentication token is required' },
  invalidToken: { code: 4002, reason: 'Invalid authentication token' },
  userMismatch: { code: 4003, reason: 'User ID mismatch or invalid token payload' },
  userNotFound: { code: 4004, reason: 'User not found' },
  authFailed: { code: 4005, reason: 'Authentication failed' },
  idle: { code: 4008, reason: 'No heartbeat' },
  shutdown: { code: 1001, reason: 'Server shutting down' },
} as const;

const WS_PATH = /^\/ws\/([A-Za-z0-9_-]{1,64})$/;
export const APPOINTMENT_SUBJECTS = 'telemed.events.appointment.>';
const RECENT_EVENTS = 10_000;

export interface NotifierOptions {
  tokens: TokenService;
  readStore: ReadStore;
  bus: Bus;
  logger: Logger;
  /** Resolves once the read models include this log position (the messages name people from them). */
  waitForPosition(position: number): Promise<unknown>;
  /** A socket that sends no heartbeat for this long is closed (the seeds' clients beat every 30 s). */
  idleTimeoutMs?: number;
  /** A durable consumer name: after a restart this replica gets what was published while it was down. */
  durableName?: string;
  onDelivered?(count: number): void;
}

/**
 * Real-time notifications: authenticates `/ws/{userId}?token=` before anything else, keeps each user's sockets,
 * and turns appointment events from the bus into the seeds' messages for the users they concern. Each replica
 * consumes the bus and delivers to its own sockets.
 */
export function createNotifier(options: NotifierOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const sessions = new SocketSessions();
  const recent = new Set<string>();
  const idleTimeoutMs = options.idleTimeoutMs ?? 90_000;
  let subscription: BusSubscription | null = null;
  const users = options.readStore.collection<{ _id: string; active?: boolean }>('users');
  const appointments = options.readStore.collection<AppointmentFacts & { _id: string }>('appointments');

  async function authenticate(userId: string, token: string | null): Promise<{ code: number; reason: string } | null> {
    if (!token) return CLOSE.tokenRequired;
    try {
      const claims = await options.tokens.verify(token);
      if (claims.user_id !== userId) return CLOSE.userMismatch;
      const user = await users.get(userId);
      return user && user.active !== false ? null : CLOSE.userNotFound;
    } catch (error) {
      if (error instanceof TokenError) return CLOSE.invalidToken;
      options.logger.error({ err: error }, 'socket authentication failed');
      return CLOSE.authFailed;
    }
  }

  function keepAlive(ws: WebSocket) {
    let timer = setTimeout(() => ws.close(CLOSE.idle.code, CLOSE.idle.reason), idleTimeoutMs);
    const beat = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ws.close(CLOSE.idle.code, CLOSE.idle.reason), idleTimeoutMs);
    };
    ws.on('close', () => clearTimeout(timer));
    return beat;
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = WS_PATH.exec(url.pathname);
    if (!match) return false;
    const userId = match[1]!;
    wss.handleUpgrade(req, socket, head, (ws) => {
      void authenticate(userId, url.searchParams.get('token')).then((failure) => {
        if (failure) return ws.close(failure.code, failure.reason);
        sessions.add(userId, ws);
        const beat = keepAlive(ws);
        ws.on('message', (raw) => {
          let message: { type?: unknown };
          try {
            message = JSON.parse(String(raw)) as { type?: unknown };
          } catch {
            return;
          }
          if (message.type === 'heartbeat') {
            beat();
            ws.send(JSON.stringify({ type: 'heartbeat_response', timestamp: new Date().toISOString() }));
          }
        });
        ws.send(JSON.stringify({ type: 'connection_established', user_id: userId, timestamp: new Date().toISOString() }));
      });
    });
    return true;
  }

  async function onEvent(event: RecordedEvent) {
    if (recent.has(event.event_id)) return; // the bus delivers at least once
    const appointmentId = (event.data as { appointment_id?: string }).appointment_id;
    if (!appointmentId) return;
    await options.waitForPosition(event.position);
    const appointment = await appointments.get(appointmentId);
    if (!appointment) return;
    let delivered = 0;
    for (const { user_id, message } of messagesFor(event, appointment)) delivered += sessions.send(user_id, message);
    recent.add(event.event_id);
    if (recent.size > RECENT_EVENTS) recent.delete(recent.values().next().value!);
    options.onDelivered?.(delivered);
  }

  return {
    handleUpgrade,
    async start() {
      subscription = await options.bus.subscribe(APPOINTMENT_SUBJECTS, (message) => onEvent(message.payload as RecordedEvent), {
        durableName: options.durableName,
      });
    },
    openSockets: () => sessions.count,
    async stop() {
      await subscription?.unsubscribe();
      sessions.closeAll(CLOSE.shutdown.code, CLOSE.shutdown.reason);
      wss.close();
    },
  };
}
