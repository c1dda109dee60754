import { z } from './zod';
import { SIGNAL_SDP_MAX_LENGTH } from './consultation';

/**
 * The real-time channel (`/ws/{userId}?token=`): every message type in both directions and every close code, shared
 * by the notifier and the frontend.
 */

export * from './realtime-codes';

const timestamp = z.string().max(64);

const appointmentId = z.string().min(1).max(64);
const sdp = z.string().min(1).max(SIGNAL_SDP_MAX_LENGTH);
/** An RTCIceCandidateInit, or null for the end of candidates. */
const iceCandidate = z
  .strictObject({
    candidate: z.string().max(1024),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(1024).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .nullable();

/**
 * Peer-to-peer signalling of a consultation (issue 13): relayed only to the other participant of that appointment,
 * only while its consultation is open. The server adds `from_user_id` when it relays.
 */
const signalShapes = {
  rtc_offer: { sdp },
  rtc_answer: { sdp },
  rtc_ice_candidate: { candidate: iceCandidate },
  rtc_hang_up: {},
} as const;
export const SIGNAL_TYPES = Object.keys(signalShapes) as Array<keyof typeof signalShapes>;
export type SignalType = (typeof SIGNAL_TYPES)[number];
/** The signalling budgets a sender can be over (`rtc_limited`). */
export const SIGNAL_LIMIT_KINDS = ['signals', 'bytes', 'offers'] as const;
export type SignalLimit = (typeof SIGNAL_LIMIT_KINDS)[number];

const clientSignals = [
  z.strictObject({ type: z.literal('rtc_offer'), appointment_id: appointmentId, ...signalShapes.rtc_offer }),
  z.strictObject({ type: z.literal('rtc_answer'), appointment_id: appointmentId, ...signalShapes.rtc_answer }),
  z.strictObject({ type: z.literal('rtc_ice_candidate'), appointment_id: appointmentId, ...signalShapes.rtc_ice_candidate }),
  z.strictObject({ type: z.literal('rtc_hang_up'), appointment_id: appointmentId }),
] as const;

/**
 * Lobby presence (issue 13), transient and kept by the notifier: `lobby_enter` says "I am waiting in this appointment's
 * lobby" until `lobby_leave`, the socket closing or joining the call; `lobby_watch` asks whether the other participant
 * is waiting, without announcing (the doctor's dashboard). Only the appointment's patient and doctor, confirmed only.
 * `call_attach` says "this socket carries my call" (sent on joining and after every reconnect): in a peer-to-peer
 * call, a socket that drops and is not attached again within the grace marks its user as gone.
 */
const presenceMessages = [
  z.strictObject({ type: z.literal('lobby_enter'), appointment_id: appointmentId }),
  z.strictObject({ type: z.literal('lobby_leave'), appointment_id: appointmentId }),
  z.strictObject({ type: z.literal('lobby_watch'), appointment_id: appointmentId }),
  z.strictObject({ type: z.literal('call_attach'), appointment_id: appointmentId }),
] as const;
export type PresenceMessage = z.infer<(typeof presenceMessages)[number]>;
export const PRESENCE_MESSAGE_TYPES: ReadonlyArray<PresenceMessage['type']> = ['lobby_enter', 'lobby_leave', 'lobby_watch', 'call_attach'];

/** What a client sends. Anything else is ignored. */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heartbeat'), timestamp: z.union([timestamp, z.number()]).optional() }),
  ...clientSignals,
  ...presenceMessages,
]);
export type ClientSignal = z.infer<(typeof clientSignals)[number]>;
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
    data: appointmentMessageData.extend({
      rejection_reason: z.string().nullable().optional(),
      cancelled_by: z.enum(['patient', 'doctor']).nullable().optional(),
    }),
  }),
  // Signalling as relayed: what the other participant sent, and who that was.
  ...clientSignals.map((schema) => schema.extend({ from_user_id: z.string() })),
  /** A signal the server would not relay (not a participant, or the consultation is not open), without detail. */
  z.object({ type: z.literal('rtc_refused'), appointment_id: z.string(), detail: z.string() }),
  /**
   * A signal not relayed because its sender is over a signalling budget: their signals or bytes per window (all their
   * sockets together), or their offers in this consultation per window. It may be sent again after `retry_after_ms`.
   */
  z.object({
    type: z.literal('rtc_limited'),
    appointment_id: z.string(),
    limit: z.enum(SIGNAL_LIMIT_KINDS),
    retry_after_ms: z.number().int().min(0),
    detail: z.string(),
  }),
  /** Something happened in a consultation the user takes part in: a join (replacing an older connection), a leave, the end. */
  z.object({
    type: z.literal('consultation_update'),
    event_id: z.string(),
    data: z.object({
      appointment_id: z.string(),
      event: z.enum(['started', 'joined', 'left', 'ended', 'auto_ended', 'message']),
      user_id: z.string().nullable(),
      connection_id: z.string().nullable(),
      replaced_connection_id: z.string().nullable(),
      status: z.enum(['active', 'ended']),
      started_at: z.string().nullable(),
      ends_at: z.string().nullable(),
      occurred_at: z.string(),
      auto_ended: z.boolean(),
      message_id: z.string().nullable(),
    }),
  }),
  /** The other participant of a confirmed appointment entered (`present`) or left its lobby. */
  z.object({
    type: z.literal('lobby_presence'),
    appointment_id: z.string(),
    user_id: z.string(),
    role: z.enum(['patient', 'doctor']),
    present: z.boolean(),
  }),
  /** A lobby message the server would not take (not the appointment's patient or doctor, or not confirmed). */
  z.object({ type: z.literal('lobby_refused'), appointment_id: z.string(), detail: z.string() }),
  z.object({
    type: z.literal('schedule_update'),
    event_id: z.string(),
    data: z.object({ slot_id: z.number().int(), status: z.enum(['open']) }),
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
