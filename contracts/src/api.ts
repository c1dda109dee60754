import { z } from './zod';
import { MAX_NOTES_LENGTH, MAX_REASON_LENGTH, DOCTOR_LIST_MAX_LIMIT, DOCTOR_LIST_DEFAULT_LIMIT } from './constants';
import { accountTypeSchema } from './events';

/** Wire shapes of the HTTP API (snake_case), shared by the services, the frontend and the OpenAPI document. */

export const errorResponseSchema = z
  .object({
    detail: z.union([
      z.string(),
      z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
    ]),
  })
  .openapi('Error');

const hhmmss = z.string().regex(/^\d{2}:\d{2}:\d{2}$/, 'Expected HH:MM:SS');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');
export const timezoneQuerySchema = z.object({
  timezone_str: z.string().max(64).optional().openapi({ example: 'Asia/Kolkata', description: 'IANA time zone' }),
});

// ---- users

export const doctorFieldsSchema = z.object({
  specialty: z.string(),
  qualification: z.string(),
  consultation_fee: z.number(),
  appointment_duration_minutes: z.number().int(),
  registration_number: z.string().nullable(),
  medical_council: z.string().nullable(),
});

export const meResponseSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    account_type: accountTypeSchema,
    doctor: doctorFieldsSchema.nullable(),
  })
  .openapi('Me');

const trimmed = (max: number) => z.string().trim().min(1).max(max);
export const updateMeRequestSchema = z
  .strictObject({
    name: trimmed(120).optional(),
    phone_number: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{6,20}$/, 'Expected a phone number such as +91 98765 43210')
      .nullable()
      .optional(),
    specialty: trimmed(80).optional(),
    qualification: trimmed(120).optional(),
    consultation_fee: z.number().nonnegative().max(1_000_000).optional(),
    registration_number: trimmed(40).nullable().optional(),
    medical_council: trimmed(120).nullable().optional(),
  })
  .openapi('UpdateMeRequest');

export const subscribeRequestSchema = z.strictObject({ doctor_id: z.string().min(1).max(64) }).openapi('SubscribeRequest');

// ---- doctors and slots

export const slotSchema = z
  .object({
    slot_id: z.number().int(),
    slot_date: isoDate,
    start_time: hhmmss,
    end_time: hhmmss,
    is_available: z.boolean(),
    start_at: z.string().openapi({ description: 'UTC instant of the start' }),
    end_at: z.string(),
  })
  .openapi('Slot');

export const doctorSchema = z
  .object({ doctor_id: z.string(), name: z.string(), phone_number: z.string().nullable(), ...doctorFieldsSchema.shape })
  .openapi('Doctor');

export const doctorWithSlotsSchema = doctorSchema.extend({ availableSlots: z.array(slotSchema) }).openapi('DoctorWithSlots');

export const doctorListQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(DOCTOR_LIST_MAX_LIMIT).default(DOCTOR_LIST_DEFAULT_LIMIT),
});

export const availableSlotsResponseSchema = z.object({ slots: z.array(slotSchema) }).openapi('AvailableSlots');

// ---- schedule

export const availabilitySlotInputSchema = z.strictObject({
  slot_date: isoDate,
  start_time: hhmmss,
  end_time: hhmmss,
});
export const setAvailabilityRequestSchema = z
  .strictObject({
    slots: z.array(availabilitySlotInputSchema).max(5000),
    timezone: z.string().max(64).optional().openapi({ example: 'Asia/Kolkata' }),
  })
  .openapi('SetAvailabilityRequest');

export const scheduleSlotSchema = slotSchema
  .extend({ is_booked: z.boolean(), status: z.enum(['available', 'booked']) })
  .openapi('ScheduleSlot');

export const setAvailabilityResponseSchema = z
  .object({
    status: z.literal('success'),
    opened: z.number().int(),
    withdrawn: z.number().int(),
    unchanged: z.number().int(),
  })
  .openapi('SetAvailabilityResponse');

// ---- appointments

export const appointmentStatusSchema = z.enum(['requested', 'confirmed', 'rejected', 'cancelled', 'completed']);
export type AppointmentStatus = z.infer<typeof appointmentStatusSchema>;

export const requestAppointmentSchema = z
  .strictObject({
    slot_id: z.number().int().openapi({ example: 17000000123 }),
    notes: z.string().trim().min(1, 'Reason for visit is required').max(MAX_NOTES_LENGTH),
  })
  .openapi('AppointmentRequest');

export const rejectAppointmentSchema = z
  .strictObject({ reason: z.string().trim().max(MAX_REASON_LENGTH).nullable().optional() })
  .openapi('RejectAppointmentRequest');
export const rejectQuerySchema = z.object({ rejection_reason: z.string().trim().max(MAX_REASON_LENGTH).optional() });
export const cancelAppointmentSchema = z
  .strictObject({ reason: z.string().trim().max(MAX_REASON_LENGTH).nullable().optional() })
  .openapi('CancelAppointmentRequest');

const slotTimesSchema = z.object({ slot_id: z.number().int(), slot_date: isoDate, start_time: hhmmss, end_time: hhmmss, start_at: z.string() });

export const appointmentCommandResponseSchema = z
  .object({ appointment_id: z.string(), status: appointmentStatusSchema })
  .openapi('AppointmentCommandResult');

export const patientAppointmentSchema = z
  .object({
    appointment_id: z.string(),
    status: appointmentStatusSchema,
    notes: z.string(),
    created_at: z.string(),
    rejection_reason: z.string().nullable(),
    doctor: z.object({ doctor_id: z.string(), name: z.string(), specialty: z.string() }),
    patient: z.object({ name: z.string(), phone_number: z.string().nullable() }),
    slot: slotTimesSchema,
  })
  .openapi('PatientAppointment');

export const doctorAppointmentSchema = z
  .object({
    appointment_id: z.string(),
    patient_id: z.string(),
    patient_name: z.string(),
    notes: z.string(),
    status: appointmentStatusSchema,
    created_at: z.string(),
    consultation_fee: z.number(),
    slot: slotTimesSchema,
  })
  .openapi('DoctorAppointment');

export const myAppointmentsQuerySchema = timezoneQuerySchema.extend({
  status: z
    .string()
    .regex(/^[a-z]+(,[a-z]+)*$/)
    .optional()
    .openapi({ description: 'Comma-separated statuses; default requested,confirmed' }),
  include_past: z.enum(['true', 'false']).optional().openapi({ description: 'Include appointments that have ended' }),
});

export const pendingAppointmentSchema = z
  .object({
    appointment_id: z.string(),
    patient_id: z.string(),
    patient_name: z.string(),
    patient_phone: z.string().nullable(),
    notes: z.string(),
    created_at: z.string(),
    slot: slotTimesSchema,
  })
  .openapi('PendingAppointment');

export const historyEntrySchema = z
  .object({
    position: z.number().int(),
    event_id: z.string(),
    type: z.string(),
    occurred_at: z.string(),
    actor: z.object({ user_id: z.string(), role: z.string(), name: z.string().nullable() }),
    data: z.record(z.string(), z.unknown()),
  })
  .openapi('HistoryEntry');
export const appointmentHistorySchema = z
  .object({ appointment_id: z.string(), events: z.array(historyEntrySchema) })
  .openapi('AppointmentHistory');

export const subscribeResponseSchema = z.object({ status: z.literal('success'), doctor_id: z.string() });

export type PatientAppointment = z.infer<typeof patientAppointmentSchema>;
export type DoctorAppointment = z.infer<typeof doctorAppointmentSchema>;
export type PendingAppointment = z.infer<typeof pendingAppointmentSchema>;
export type Slot = z.infer<typeof slotSchema>;
export type Doctor = z.infer<typeof doctorSchema>;

// ---- sign-in

export const supportLoginRequestSchema = z
  .strictObject({ email: z.email().max(254), password: z.string().min(1).max(1024) })
  .openapi('SupportLoginRequest');
export const googleLoginRequestSchema = z
  .strictObject({
    token: z.string().min(1).max(4096).openapi({ description: 'The authorization code from the identity provider' }),
    state: z.string().max(512).optional(),
  })
  .openapi('GoogleLoginRequest');
export const refreshRequestSchema = z.strictObject({ refresh_token: z.string().min(1).max(512) }).openapi('RefreshRequest');

export const sessionUserSchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    account_type: accountTypeSchema,
    role: z.enum(['admin', 'doctor', 'user']),
  })
  .openapi('SessionUser');
export const tokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export const loginResponseSchema = tokensSchema.extend({ status: z.literal('success'), user: sessionUserSchema }).openapi('LoginResponse');
export const authorizeResponseSchema = z.object({ authorization_url: z.string() }).openapi('AuthorizeResponse');
