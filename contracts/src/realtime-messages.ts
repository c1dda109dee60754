import * as v from 'valibot';
import { SIGNAL_SDP_MAX_LENGTH } from './realtime-codes';

/**
 * Every message of the real-time channel (`/ws/{userId}`), in both directions, with the one parser the notifier and
 * the frontend share. Valibot rather than zod: the frontend bundles this (zod's eval probe trips the CSP, and zod is
 * large), and valibot's schemas are plain functions.
 */

const timestamp = v.pipe(v.string(), v.maxLength(64));
const appointmentId = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const sdp = v.pipe(v.string(), v.minLength(1), v.maxLength(SIGNAL_SDP_MAX_LENGTH));
const optionalNullable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));
/** An RTCIceCandidateInit, or null for the end of candidates. */
const iceCandidate = v.nullable(
  v.strictObject({
    candidate: v.pipe(v.string(), v.maxLength(1024)),
    sdpMid: optionalNullable(v.pipe(v.string(), v.maxLength(64))),
    sdpMLineIndex: optionalNullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1024))),
    usernameFragment: optionalNullable(v.pipe(v.string(), v.maxLength(256))),
  }),
);

/**
 * Peer-to-peer signalling of a consultation: relayed only to the other participant of that appointment, only while
 * its consultation is open. The server adds `from_user_id` when it relays.
 */
export const SIGNAL_TYPES = ['rtc_offer', 'rtc_answer', 'rtc_ice_candidate', 'rtc_hang_up'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];
/** The signalling budgets a sender can be over (`rtc_limited`). */
export const SIGNAL_LIMIT_KINDS = ['signals', 'bytes', 'offers'] as const;
export type SignalLimit = (typeof SIGNAL_LIMIT_KINDS)[number];

const signalEntries = {
  rtc_offer: { type: v.literal('rtc_offer'), appointment_id: appointmentId, sdp },
  rtc_answer: { type: v.literal('rtc_answer'), appointment_id: appointmentId, sdp },
  rtc_ice_candidate: { type: v.literal('rtc_ice_candidate'), appointment_id: appointmentId, candidate: iceCandidate },
  rtc_hang_up: { type: v.literal('rtc_hang_up'), appointment_id: appointmentId },
} satisfies Record<SignalType, v.ObjectEntries>;
const clientSignals = [
  v.strictObject(signalEntries.rtc_offer),
  v.strictObject(signalEntries.rtc_answer),
  v.strictObject(signalEntries.rtc_ice_candidate),
  v.strictObject(signalEntries.rtc_hang_up),
] as const;
const relayedSignals = [
  v.strictObject({ ...signalEntries.rtc_offer, from_user_id: v.string() }),
  v.strictObject({ ...signalEntries.rtc_answer, from_user_id: v.string() }),
  v.strictObject({ ...signalEntries.rtc_ice_candidate, from_user_id: v.string() }),
  v.strictObject({ ...signalEntries.rtc_hang_up, from_user_id: v.string() }),
] as const;
export type ClientSignal = v.InferOutput<(typeof clientSignals)[number]>;

/**
 * Lobby presence, transient and kept by the notifier: `lobby_enter` says "I am waiting in this appointment's lobby"
 * until `lobby_leave`, the socket closing or joining the call; `lobby_watch` asks whether the other participant is
 * waiting, without announcing (the doctor's dashboard). Only the appointment's patient and doctor, confirmed only.
 * `call_attach` says "this socket carries my call" (sent on joining and after every reconnect): in a peer-to-peer call,
 * a socket that drops and is not attached again within the grace marks its user as gone.
 */
export const PRESENCE_MESSAGE_TYPES = ['lobby_enter', 'lobby_leave', 'lobby_watch', 'call_attach'] as const;
const presenceMessages = PRESENCE_MESSAGE_TYPES.map((type) => v.strictObject({ type: v.literal(type), appointment_id: appointmentId }));
type PresenceType = (typeof PRESENCE_MESSAGE_TYPES)[number];
export type PresenceMessage = { [T in PresenceType]: { type: T; appointment_id: string } }[PresenceType];

const clientMessageSchema = v.variant('type', [
  v.object({ type: v.literal('heartbeat'), timestamp: v.optional(v.union([timestamp, v.number()])) }),
  ...clientSignals,
  ...presenceMessages,
]);
/** What a client sends. Anything else is ignored. */
export type ClientMessage = ClientSignal | PresenceMessage | { type: 'heartbeat'; timestamp?: string | number };

/** What an `appointment_status_change` says happened (the seeds' words: approved, not confirmed). */
export const APPOINTMENT_STATUS_CHANGES = ['requested', 'approved', 'rejected', 'cancelled', 'expired', 'no_show', 'times_proposed', 'moved'] as const;
export type AppointmentStatusChange = (typeof APPOINTMENT_STATUS_CHANGES)[number];
/** What a `waitlist_update` says a place now is. */
export const WAITLIST_UPDATE_STATUSES = ['waiting', 'offered', 'closed'] as const;
/** What happened in a consultation, as `consultation_update` says. */
export const CONSULTATION_UPDATE_EVENTS = ['started', 'joined', 'left', 'ended', 'auto_ended', 'message'] as const;

const appointmentMessageData = {
  appointment_id: v.string(),
  patient_name: v.optional(v.string()),
  doctor_name: v.optional(v.string()),
  slot_date: v.optional(v.string()),
  slot_time: v.optional(v.string()),
  start_at: v.optional(v.string()),
  occurred_at: v.optional(v.string()),
};

const serverMessageSchema = v.variant('type', [
  v.object({ type: v.literal('connection_established'), user_id: v.string(), timestamp }),
  v.object({ type: v.literal('heartbeat_response'), timestamp }),
  v.object({
    type: v.literal('appointment_request'),
    event_id: v.string(),
    data: v.looseObject({
      ...appointmentMessageData,
      notes: v.optional(v.string()),
      /** A request that is a move (issue 35): its start before the move, and who moved it. */
      moved_from: v.optional(v.object({ start_at: v.string(), by: v.picklist(['patient', 'doctor']) })),
      appointment_data: v.optional(v.record(v.string(), v.unknown())),
    }),
  }),
  v.object({
    type: v.literal('appointment_status_change'),
    event_id: v.string(),
    status: v.picklist(APPOINTMENT_STATUS_CHANGES),
    data: v.looseObject({
      ...appointmentMessageData,
      rejection_reason: optionalNullable(v.string()),
      cancelled_by: optionalNullable(v.picklist(['patient', 'doctor'])),
      /** A move that kept it confirmed (issue 35): where it was before, and who moved it. */
      moved_from: v.optional(v.object({ start_at: v.string(), by: v.picklist(['patient', 'doctor']) })),
      /** A no-show (issue 35): who never came. */
      absent: v.optional(v.picklist(['patient', 'doctor', 'both'])),
    }),
  }),
  // Signalling as relayed: what the other participant sent, and who that was.
  ...relayedSignals,
  /** A signal the server would not relay (not a participant, or the consultation is not open), without detail. */
  v.object({ type: v.literal('rtc_refused'), appointment_id: v.string(), detail: v.string() }),
  /**
   * A signal not relayed because its sender is over a signalling budget: their signals or bytes per window (all their
   * sockets together), or their offers in this consultation per window. It may be sent again after `retry_after_ms`.
   */
  v.object({
    type: v.literal('rtc_limited'),
    appointment_id: v.string(),
    limit: v.picklist(SIGNAL_LIMIT_KINDS),
    retry_after_ms: v.pipe(v.number(), v.integer(), v.minValue(0)),
    detail: v.string(),
  }),
  /** Something happened in a consultation the user takes part in: a join (replacing an older connection), a leave, the end. */
  v.object({
    type: v.literal('consultation_update'),
    event_id: v.string(),
    data: v.object({
      appointment_id: v.string(),
      event: v.picklist(CONSULTATION_UPDATE_EVENTS),
      user_id: v.nullable(v.string()),
      connection_id: v.nullable(v.string()),
      replaced_connection_id: v.nullable(v.string()),
      status: v.picklist(['active', 'ended']),
      started_at: v.nullable(v.string()),
      ends_at: v.nullable(v.string()),
      occurred_at: v.string(),
      auto_ended: v.boolean(),
      message_id: v.nullable(v.string()),
    }),
  }),
  /** The other participant of a confirmed appointment entered (`present`) or left its lobby. */
  v.object({ type: v.literal('lobby_presence'), appointment_id: v.string(), user_id: v.string(), role: v.picklist(['patient', 'doctor']), present: v.boolean() }),
  /** A lobby message the server would not take (not the appointment's patient or doctor, or not confirmed). */
  v.object({ type: v.literal('lobby_refused'), appointment_id: v.string(), detail: v.string() }),
  v.object({ type: v.literal('schedule_update'), event_id: v.string(), data: v.object({ slot_id: v.pipe(v.number(), v.integer()), status: v.picklist(['open']) }) }),
  /**
   * The patient's place on a doctor's waitlist changed (issue 35): a slot is held for them (`offered`), the hold ended
   * and they wait on, or the place closed. What is held and until when is read from GET /waitlist/me.
   */
  v.object({ type: v.literal('waitlist_update'), event_id: v.string(), data: v.object({ doctor_id: v.string(), status: v.picklist(WAITLIST_UPDATE_STATUSES) }) }),
]);
/** What the server sends. */
export type ServerMessage = v.InferOutput<typeof serverMessageSchema>;

function parseFrame<T>(schema: v.GenericSchema<unknown, T>, raw: string): T | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = v.safeParse(schema, value);
  return parsed.success ? parsed.output : null;
}

/** A text frame from a client as a known message, or null for anything else (not JSON, not an object, unknown type). */
export function parseClientMessage(raw: string): ClientMessage | null {
  return parseFrame(clientMessageSchema, raw);
}

/** A text frame from the server as a known message, or null for anything else. */
export function parseServerMessage(raw: string): ServerMessage | null {
  return parseFrame(serverMessageSchema, raw);
}

/** Whether a value is a message the server may send (what the notifier's tests check of what it sent). */
export function isServerMessage(value: unknown): value is ServerMessage {
  return v.is(serverMessageSchema, value);
}
