import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { toLocalSlotFields, DEFAULT_TIMEZONE, type RecordedEvent } from '@telemed/contracts';
import { TokenError, type Bus, type BusSubscription, type Logger, type ReadStore, type TokenService } from '@telemed/platform';

/** Close codes and reasons of the seeds' real-time channel. */
export const CLOSE = {
  tokenRequired: { code: 4001, reason: 'Authentication token is required' },
  invalidToken: { code: 4002, reason: 'Invalid authentication token' },
  userMismatch: { code: 4003, reason: 'User ID mismatch or invalid token payload' },
  userNotFound: { code: 4004, reason: 'User not found' },
  authFailed: { code: 4005, reason: 'Authentication failed' },
} as const;

const WS_PATH = /^\/ws\/([A-Za-z0-9_-]{1,64})$/;

interface AppointmentLookup {
  patient_id: string;
  doctor_id: string;
  patient_name: string;
  doctor_name: string;
  notes: string;
  start: string;
  end: string;
  rejection_reason: string | null;
}

/**
 * Real-time notifications: authenticates `/ws/{userId}?token=`, keeps each user's open sockets, and turns
 * appointment events from the bus into the seeds' messages for the users they concern.
 */
export function createNotifier(deps: { tokens: TokenService; readStore: ReadStore; bus: Bus; logger: Logger }) {
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Map<string, Set<WebSocket>>();
  let subscription: BusSubscription | null = null;

  const send = (userId: string, message: unknown) => {
    const text = JSON.stringify(message);
    for (const socket of sockets.get(userId) ?? []) if (socket.readyState === socket.OPEN) socket.send(text);
  };

  async function authenticate(userId: string, token: string | null): Promise<{ code: number; reason: string } | null> {
    if (!token) return CLOSE.tokenRequired;
    try {
      const claims = await deps.tokens.verify(token);
      if (claims.user_id !== userId) return CLOSE.userMismatch;
      const user = await deps.readStore.collection<{ _id: string; active?: boolean }>('users').get(userId);
      return user && user.active !== false ? null : CLOSE.userNotFound;
    } catch (error) {
      return error instanceof TokenError ? CLOSE.invalidToken : CLOSE.authFailed;
    }
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = WS_PATH.exec(url.pathname);
    if (!match) return false;
    const userId = match[1]!;
    wss.handleUpgrade(req, socket, head, (ws) => {
      // Authenticate before anything else; messages sent meanwhile are ignored.
      void authenticate(userId, url.searchParams.get('token')).then((failure) => {
        if (failure) return ws.close(failure.code, failure.reason);
        let set = sockets.get(userId);
        if (!set) sockets.set(userId, (set = new Set()));
        set.add(ws);
        ws.on('close', () => {
          set.delete(ws);
          if (set.size === 0) sockets.delete(userId);
        });
        ws.on('message', (raw) => {
          let message: { type?: unknown };
          try {
            message = JSON.parse(String(raw)) as { type?: unknown };
          } catch {
            return;
          }
          if (message.type === 'heartbeat') ws.send(JSON.stringify({ type: 'heartbeat_response', timestamp: new Date().toISOString() }));
        });
        ws.send(JSON.stringify({ type: 'connection_established', user_id: userId, timestamp: new Date().toISOString() }));
      });
    });
    return true;
  }

  async function onEvent(event: RecordedEvent) {
    const appointmentId = (event.data as { appointment_id?: string }).appointment_id;
    if (!appointmentId) return;
    const appointment = await deps.readStore.collection<AppointmentLookup & { _id: string }>('appointments').get(appointmentId);
    if (!appointment) return;
    const local = toLocalSlotFields(appointment.start, appointment.end, DEFAULT_TIMEZONE);
    const common = {
      appointment_id: appointmentId,
      patient_name: appointment.patient_name,
      doctor_name: appointment.doctor_name,
      slot_date: local.slot_date,
      slot_time: local.start_time,
      start_at: appointment.start,
    };
    if (event.type === 'AppointmentRequested') {
      send(appointment.doctor_id, {
        type: 'appointment_request',
        data: { ...common, notes: appointment.notes, appointment_data: { ...common, notes: appointment.notes, status: 'requested' } },
      });
      return;
    }
    const status = { AppointmentApproved: 'approved', AppointmentRejected: 'rejected', AppointmentCancelled: 'cancelled', AppointmentExpired: 'expired' }[
      event.type as string
    ];
    if (!status) return;
    const reason = event.type === 'AppointmentRejected' ? (event.data.reason ?? null) : null;
    const message = { type: 'appointment_status_change', status, data: { ...common, rejection_reason: reason } };
    send(appointment.patient_id, message);
    if (event.type === 'AppointmentCancelled' && event.data.cancelled_by === 'patient') send(appointment.doctor_id, message);
  }

  return {
    handleUpgrade,
    async start(waitForProjection: (position: number) => Promise<unknown>) {
      subscription = await deps.bus.subscribe('telemed.events.appointment.>', async (message) => {
        const event = message.payload as RecordedEvent;
        await waitForProjection(event.position);
        await onEvent(event);
      });
    },
    openSockets: () => [...sockets.values()].reduce((n, s) => n + s.size, 0),
    async stop() {
      await subscription?.unsubscribe();
      for (const set of sockets.values()) for (const ws of set) ws.close(1001, 'Server shutting down');
      wss.close();
    },
  };
}
