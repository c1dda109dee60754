import { z } from './zod';

/**
 * The real-time channel (`/ws/{userId}?token=`): every message type in both directions and every close code, shared
 * by the notifier and the frontend.
 */

/** Close codes and reasons. 4001–4005 are the seeds' authentication errors (the client does not reconnect). */
export const WS_CLOSE = {
  tokenRequired: { code: 4001, reason: 'Authentication token is required' },
  invalidToken: { code: 4002, reason: 'Invalid authentication token' },
  userMismatch: { code: 4003, reason: 'User ID mismatch or invalid token payload' },
  userNotFound: { code: 4004, reason: 'User not found' },
  authFailed: { code: 4005, reason: 'Authentication failed' },
  idle: { code: 4008, reason: 'No heartbeat' },
  /** More sockets of one user than allowed: the oldest is closed (the client does not reconnect). */
  tooManySockets: { code: 4009, reason: 'Too many connections for this user' },
  /** The client sent faster than allowed. */
  rateLimited: { code: 1008, reason: 'Message rate limit exceeded' },
  /** The client did not read what was sent to it. */
  tooSlow: { code: 1008, reason: 'Client is not reading its messages' },
  shutdown: { code: 1001, reason: 'Server shutting down' },
  userInitiated: { code: 1000, reason: 'User initiated disconnect' },
} as const;

export const WS_AUTH_CLOSE_CODES: readonly number[] = [4001, 4002, 4003, 4004, 4005];
/** Codes after which the client must not reconnect on its own. */
export const WS_TERMINAL_CLOSE_CODES: readonly number[] = [...WS_AUTH_CLOSE_CODES, WS_CLOSE.tooManySockets.code];

/** The largest frame a client may send; its only message is a heartbeat of a few dozen bytes. */
export const WS_MAX_INCOMING_BYTES = 4 * 1024;

const timestamp = z.string().max(64);

/** What a client sends. Anything else is ignored. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heartbeat'), timestamp: z.union([timestamp, z.number()]).optional() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

const appointmentMessageData = z.looseObject({
  appointment_id: z.string(),
  patient_name: z.string().optional(),
  doctor_name: z.string().optional(),
  slot_date: z.string().optional(),
  slot_time: z.string().optional(),
  start_at: z.string().optional(),
  occurred_at: z.string().optional(),
});

/** What the server sends. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('connection_established'), user_id: z.string(), timestamp }),
  z.object({ type: z.literal('heartbeat_response'), timestamp }),
  z.object({
    type: z.literal('appointment_request'),
    event_id: z.string(),
    data: appointmentMessageData.extend({ notes: z.string().optional(), appointment_data: z.record(z.string(), z.unknown()).optional() }),
  }),
  z.object({
    type: z.literal('appointment_status_change'),
    event_id: z.string(),
    status: z.string(),
    data: appointmentMessageData.extend({ rejection_reason: z.string().nullable().optional() }),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** Parses a text frame into a known message, or null for anything else (not JSON, not an object, unknown type). */
export function parseMessage<T>(schema: z.ZodType<T>, raw: string): T | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
