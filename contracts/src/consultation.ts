import { z } from './zod';
import { safeText } from './safe-text';

/** The video consultation (seed 001 §4, §9; issue 13): limits, texts and wire shapes, written once. */

/** Seed 001 §9: maximum call length. The server's default for CONSULTATION_MAX_MINUTES. */
export const CONSULTATION_MAX_MINUTES = 30;
/** Seed 001 §4: the warning shows once when this many minutes or fewer remain. */
export const CONSULTATION_WARNING_MINUTES = 5;
/** Issue 13: joining opens this many minutes before the appointment's start (CONSULTATION_EARLY_JOIN_MINUTES). */
export const CONSULTATION_EARLY_JOIN_MINUTES = 15;
/** Seed 001 §4: the summary appears this long after leaving. */
export const CONSULTATION_SUMMARY_DELAY_MS = 500;
/** Longest chat message (characters). */
export const CONSULTATION_MESSAGE_MAX_LENGTH = 2000;
/** Largest page of chat messages. */
export const CONSULTATION_MESSAGES_MAX_LIMIT = 200;

export const CONSULTATION_TEXTS = {
  notStarted: 'This consultation has not started yet',
  ended: 'This consultation has ended',
  appointmentNotConfirmed: (status: string) => `This appointment is ${status}, not confirmed: there is no consultation to join`,
  /** The 409 before the window: says when it opens (UTC instant), and how early that is. */
  notOpenYet: (opensAt: string, minutes: number) => `The consultation opens at ${opensAt}, ${minutes} minutes before the appointment starts`,
  timePassed: "This appointment's time has passed without a consultation",
  /** Seed 001 §2 (summary subtitle, auto-ended). */
  autoEndedSubtitle: 'Your session ended automatically due to time limit',
  /** Seed 001 §2 (call view warning). */
  timeWarning: (remaining: string) => `Your consultation will end in ${remaining}. Please wrap up your session.`,
  signalRefused: 'This consultation is not open to you',
  /** A signal over its sender's signalling budget (`rtc_limited`): not relayed. */
  signalLimited: 'Too many call signals in a short time: this one was not passed on',
  /** A lobby announcement or watch from someone who is not the patient or doctor of a confirmed appointment. */
  lobbyRefused: "This appointment's lobby is not open to you",
} as const;

export const videoProviderSchema = z.enum(['p2p', 'livekit']);

/**
 * The notifier's word that a participant's call socket dropped and was not attached again within the grace (peer to
 * peer), on a transient bus subject: the command side records it through the consultation's rules.
 */
export const participantDisconnectedSchema = z.strictObject({
  appointment_id: z.string().min(1).max(64),
  user_id: z.string().min(1).max(64),
  connection_id: z.string().min(1).max(64),
});
export type ParticipantDisconnected = z.infer<typeof participantDisconnectedSchema>;
export type VideoProviderKind = z.infer<typeof videoProviderSchema>;

/** One RTCIceServer as a browser takes it. `ICE_SERVERS` is a JSON array of these. */
export const iceServerSchema = z
  .strictObject({
    urls: z.union([z.string().regex(/^(stun|stuns|turn|turns):/), z.array(z.string().regex(/^(stun|stuns|turn|turns):/)).min(1)]),
    username: z.string().optional(),
    credential: z.string().optional(),
  })
  .openapi('IceServer');
export type IceServer = z.infer<typeof iceServerSchema>;
export const iceServersSchema = z.array(iceServerSchema);

export const consultationParamsSchema = z.object({ appointment_id: z.string().min(1).max(64) });

export const joinConsultationResponseSchema = z
  .object({
    provider: videoProviderSchema,
    room: z.string(),
    /** The server's start of the call (the first join): the duration continues from here after a reload. */
    started_at: z.string(),
    /** When the server ends the call (the limit): the warning and the remaining time follow from this. */
    ends_at: z.string(),
    ice_servers: iceServersSchema,
    /** LiveKit only: where to connect, and a token for this room and this person, valid no longer than the time left. */
    url: z.string().optional(),
    token: z.string().optional(),
    /** This join's connection: a later join of the same person replaces it (the older tab is told over the socket). */
    connection_id: z.string(),
    /** The server's clock when answering, so a client can correct its own. */
    server_time: z.string(),
  })
  .openapi('JoinConsultationResponse');
export type JoinConsultationResponse = z.infer<typeof joinConsultationResponseSchema>;

export const leaveConsultationSchema = z
  .strictObject({ connection_id: z.string().max(64).optional() })
  .openapi('LeaveConsultationRequest');

export const consultationStatusSchema = z.enum(['waiting', 'active', 'ended']);

export const consultationParticipantSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  role: z.enum(['patient', 'doctor']),
  /** Seed 001 role display names: Healthcare Provider, Patient. */
  role_display_name: z.string(),
  present: z.boolean(),
  joined_at: z.string().nullable(),
  left_at: z.string().nullable(),
});

export const consultationViewSchema = z
  .object({
    appointment_id: z.string(),
    status: consultationStatusSchema,
    provider: videoProviderSchema.nullable(),
    room: z.string().nullable(),
    started_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    ended_by: z.string().nullable(),
    auto_ended: z.boolean(),
    duration_seconds: z.number().int().nonnegative(),
    participants: z.array(consultationParticipantSchema),
    server_time: z.string(),
  })
  .openapi('Consultation');
export type ConsultationView = z.infer<typeof consultationViewSchema>;

export const consultationCommandResponseSchema = z
  .object({ appointment_id: z.string(), status: consultationStatusSchema, auto_ended: z.boolean() })
  .openapi('ConsultationCommandResult');

export const postConsultationMessageSchema = z
  .strictObject({ text: safeText('multiline').trim().min(1, 'A message needs text').max(CONSULTATION_MESSAGE_MAX_LENGTH) })
  .openapi('ConsultationMessageRequest');

export const consultationMessageSchema = z
  .object({ message_id: z.string(), sender_id: z.string(), sender_name: z.string(), text: z.string(), sent_at: z.string() })
  .openapi('ConsultationMessage');

export const consultationMessagesQuerySchema = z.object({
  /** Messages sent after this one (its message_id), oldest first. */
  after: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(CONSULTATION_MESSAGES_MAX_LIMIT).default(100),
});

export const consultationMessagesResponseSchema = z
  .object({ messages: z.array(consultationMessageSchema) })
  .openapi('ConsultationMessages');

/** The room of an appointment's consultation, on either provider. */
export const consultationRoom = (appointmentId: string) => `consultation-${appointmentId}`;
export function appointmentIdOfRoom(room: string): string | null {
  return room.startsWith('consultation-') && room.length > 'consultation-'.length ? room.slice('consultation-'.length) : null;
}
