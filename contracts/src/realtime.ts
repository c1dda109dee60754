import { z } from './zod';

/**
 * The real-time channel (`/ws/{userId}?token=`): every message type in both directions and every close code, shared
 * by the notifier and the frontend.
 */

export * from './realtime-codes';

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
    data: appointmentMessageData.extend({
      rejection_reason: z.string().nullable().optional(),
      cancelled_by: z.enum(['patient', 'doctor']).nullable().optional(),
    }),
  }),
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
