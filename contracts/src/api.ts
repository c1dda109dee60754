import { z } from './zod';
import { DOCTOR_CITY_MAX_LENGTH, MAX_NOTES_LENGTH, MAX_REASON_LENGTH, DOCTOR_LIST_MAX_LIMIT, DOCTOR_LIST_DEFAULT_LIMIT, MY_APPOINTMENTS_MAX_LIMIT } from './constants';
import { accountTypeSchema } from './events';
import { safeLine, safeText } from './safe-text';
import { calendarDateSchema, slotIdSchema, timezoneSchema, wallTimeSchema } from './time-fields';
import { LANGUAGE_CODES } from './languages';
import { appointmentStatusSchema } from './appointment-status';

/** Wire shapes of the HTTP API (snake_case), shared by the services, the frontend and the OpenAPI document. */

export const errorResponseSchema = z
  .object({
    detail: z.union([
      z.string(),
      z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
    ]),
    /**
     * What went wrong, as a stable name that screens translate (the detail may be reworded): a rule's own code
     * (ERROR_CODES), else the text's key in the catalogues in snake_case, else the status's (contracts/error-codes.ts).
     */
    code: z.string().openapi({ example: 'not_found' }),
    /** The values in a detail with holes, in order (the translated message's `{0}`, `{1}`). */
    values: z.array(z.string()).optional(),
  })
  .openapi('Error');

const hhmmss = z.string().regex(/^\d{2}:\d{2}:\d{2}$/, 'Expected HH:MM:SS');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');
/** The caller's zone for rendering local dates and times; empty or absent means India. */
export const timezoneQuerySchema = z.object({
  timezone_str: z.union([timezoneSchema, z.literal('')]).optional().openapi({ example: 'Asia/Kolkata', description: 'IANA time zone' }),
});
const phoneNumber = safeText()
  .trim()
  .regex(/^\+?[0-9 ()-]{6,20}$/, 'Expected a phone number such as +91 98765 43210');
/** Ids in paths and bodies: opaque, but never control characters. */
export const idSchema = safeText().min(1).max(64);

// ---- users

export const doctorFieldsSchema = z.object({
  specialty: z.string(),
  qualification: z.string(),
  consultation_fee: z.number(),
  appointment_duration_minutes: z.number().int(),
  registration_number: z.string().nullable(),
  medical_council: z.string().nullable(),
  city: z.string().nullable().openapi({ description: 'Where the doctor practises; null when not given' }),
  languages: z.array(z.enum(LANGUAGE_CODES)).openapi({ description: 'The languages the doctor consults in (ISO 639-1), in the order the product lists languages; empty when not given' }),
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
    /** The language the person chose (issue 33); null until they choose one. */
    language: z.enum(LANGUAGE_CODES).nullable(),
  })
  .openapi('Me');

export const updateMeRequestSchema = z
  .strictObject({
    name: safeLine(120).optional(),
    phone_number: phoneNumber.nullable().optional(),
    specialty: safeLine(80).optional(),
    qualification: safeLine(120).optional(),
    consultation_fee: z.number().nonnegative().max(1_000_000).optional(),
    registration_number: safeLine(40).nullable().optional(),
    medical_council: safeLine(120).nullable().optional(),
    /** Doctors: the city they practise in, shown on their public page; null clears it. */
    city: safeLine(DOCTOR_CITY_MAX_LENGTH).nullable().optional(),
    /** The language of the person's screens and messages: one of the ten. */
    language: z.enum(LANGUAGE_CODES).optional(),
    /** Doctors: the languages they consult in, at least one, each once. */
    languages: z
      .array(z.enum(LANGUAGE_CODES))
      .min(1)
      .max(LANGUAGE_CODES.length)
      .refine((codes) => new Set(codes).size === codes.length, 'Each language once')
      .optional(),
  })
  .openapi('UpdateMeRequest');

export const subscribeRequestSchema = z.strictObject({ doctor_id: idSchema }).openapi('SubscribeRequest');

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
  .object({
    doctor_id: z.string(),
    name: z.string(),
    phone_number: z.string().nullable(),
    ...doctorFieldsSchema.shape,
    accepting_bookings: z.boolean().openapi({
      description: 'False while the doctor takes no bookings (their account is inactive, or an institution they practise through has deactivated them): no slot of theirs is offered',
    }),
  })
  .openapi('Doctor');

export const doctorWithSlotsSchema = doctorSchema.extend({ availableSlots: z.array(slotSchema) }).openapi('DoctorWithSlots');

export const doctorListQuerySchema = z.object({
  /** Only doctors who consult in this language. */
  language: z.enum(LANGUAGE_CODES).optional().openapi({ example: 'hi' }),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(DOCTOR_LIST_MAX_LIMIT).default(DOCTOR_LIST_DEFAULT_LIMIT),
});

export const availableSlotsResponseSchema = z.object({ slots: z.array(slotSchema) }).openapi('AvailableSlots');
/** Longest window of GET /doctors/{id}/available-slots?from=&days= (beyond the availability horizon). */
export const AVAILABLE_SLOTS_MAX_DAYS = 92;
export const availableSlotsQuerySchema = timezoneQuerySchema.extend({
  from: calendarDateSchema
    .optional()
    .openapi({ description: 'First local date (in timezone_str) of a window of days; with days. Without both: every upcoming slot' }),
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(AVAILABLE_SLOTS_MAX_DAYS)
    .optional()
    .openapi({ description: `Days in the window from \`from\` (default today), 1 to ${AVAILABLE_SLOTS_MAX_DAYS}; default 7 when from is given` }),
});

/** One slot as the confirm page shows it: the server's facts, never what a URL claims. */
export const slotFactsSchema = slotSchema
  .omit({ is_available: true })
  .extend({
    doctor: z.object({ doctor_id: z.string(), name: z.string(), specialty: z.string(), qualification: z.string(), consultation_fee: z.number() }),
    availability: z.enum(['open', 'requested_by_you', 'taken', 'past', 'withdrawn', 'not_accepting']),
  })
  .openapi('SlotFacts');
/** The public doctor page (no sign-in): the profile a patient chooses by, and the open slots of the next days. */
export const PUBLIC_SLOT_DAYS_DEFAULT = 7;
export const PUBLIC_SLOT_DAYS_MAX = 14;
export const publicDoctorParamsSchema = z.object({ doctor_id: idSchema });
export const publicDoctorQuerySchema = timezoneQuerySchema.extend({
  days: z.coerce.number().int().min(1).max(PUBLIC_SLOT_DAYS_MAX).default(PUBLIC_SLOT_DAYS_DEFAULT),
});
export const publicDoctorProfileSchema = z
  .object({
    doctor_id: z.string(),
    name: z.string(),
    ...doctorFieldsSchema.shape,
    /** Open, future slots starting within `days` days, soonest first (none while the doctor is not accepting bookings). */
    slots: z.array(slotSchema),
    days: z.number().int(),
    /** False while the doctor takes no bookings (deactivated by an institution they practise through). */
    accepting_bookings: z.boolean(),
  })
  .openapi('PublicDoctorProfile');
export const slotParamsSchema = z.object({
  slot_id: z
    .string()
    .regex(/^\d{1,16}$/, 'A slot id is a positive integer')
    .transform(Number)
    .pipe(slotIdSchema),
});

// ---- schedule

export const availabilitySlotInputSchema = z
  .strictObject({
    slot_date: calendarDateSchema,
    start_time: wallTimeSchema,
    end_time: wallTimeSchema,
  })
  .refine((slot) => slot.end_time > slot.start_time, { message: 'A slot ends after it starts', path: ['end_time'] });
export const setAvailabilityRequestSchema = z
  .strictObject({
    slots: z.array(availabilitySlotInputSchema).max(5000),
    timezone: timezoneSchema.optional(),
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

export { appointmentStatusSchema, type AppointmentStatus } from './appointment-status';

const reasonText = safeText('multiline').trim().max(MAX_REASON_LENGTH);

export const requestAppointmentSchema = z
  .strictObject({
    slot_id: slotIdSchema,
    notes: safeText('multiline').trim().min(1, 'Reason for visit is required').max(MAX_NOTES_LENGTH),
    follow_up_of: idSchema.optional().openapi({
      description: "A follow-up (issue 35): the earlier completed consultation whose doctor offered one; the slot must be that doctor's, starting before the offer's end",
    }),
  })
  .openapi('AppointmentRequest');

export const rejectAppointmentSchema = z
  .strictObject({ reason: reasonText.nullable().optional() })
  .openapi('RejectAppointmentRequest');
export const rejectQuerySchema = z.object({ rejection_reason: reasonText.optional() });
export const cancelAppointmentSchema = z
  .strictObject({ reason: reasonText.nullable().optional() })
  .openapi('CancelAppointmentRequest');

const slotTimesSchema = z.object({ slot_id: z.number().int(), slot_date: isoDate, start_time: hhmmss, end_time: hhmmss, start_at: z.string() });
/** Where a moved appointment was before its last move, and who moved it (issue 35); null when it never moved. */
const movedFromSchema = z
  .object({ start_at: z.string().openapi({ description: 'UTC instant of the start before the last move' }), by: z.enum(['patient', 'doctor']) })
  .nullable();

/** Other times the doctor offered (issue 35), not yet answered, and until when; null when there is no such offer. */
const proposalSchema = z
  .object({ slots: z.array(slotTimesSchema), expires_at: z.string().openapi({ description: 'UTC instant after which the offer is closed and the appointment cancelled' }) })
  .nullable()
  .openapi('ProposedTimes');

/** A follow-up its doctor offered after a completed consultation (issue 35): until when, at what fee, and the one booked on it. */
const followUpOfferSchema = z
  .object({
    until: z.string().openapi({ description: 'UTC instant: a follow-up must start before it' }),
    fee: z.number().openapi({ description: '0: free' }),
    booked_appointment_id: z.string().nullable(),
  })
  .nullable()
  .openapi('FollowUpOffer');
/** The earlier consultation a follow-up was booked on (issue 35): its id and when it was; null for any other appointment. */
const followUpOfSchema = z
  .object({ appointment_id: z.string(), start_at: z.string().openapi({ description: 'UTC instant the earlier consultation started' }) })
  .nullable()
  .openapi('FollowUpOf');

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
    status_reason: z.string().nullable().openapi({ description: "Why it ended so: 'expired', 'cancelled_by_patient', 'cancelled_by_doctor', 'consent_withdrawn' (a request the system closed when the patient withdrew consent), 'late_cancellation' and 'late_no_show' (the patient cancelled inside the doctor's notice; the second counts as a no-show), 'proposal_declined', 'proposal_unanswered', and for a no_show 'patient_absent', 'doctor_absent', 'both_absent'" }),
    cancellation_reason: z
      .string()
      .nullable()
      .openapi({ description: "The reason given with a cancellation, e.g. 'Doctor is no longer available' when the doctor stopped taking bookings" }),
    doctor: z.object({ doctor_id: z.string(), name: z.string(), specialty: z.string() }),
    patient: z.object({ name: z.string(), phone_number: z.string().nullable() }),
    /** Its consultation has begun (someone joined): from then on it ends with the call and cannot be cancelled. */
    consultation_held: z.boolean(),
    /** How many times its patient moved it (issue 35): the screens say so, and offer no move past the rules' limit. */
    reschedules: z.number().int().min(0),
    proposal: proposalSchema,
    follow_up: followUpOfferSchema,
    follow_up_of: followUpOfSchema,
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
    status_reason: z.string().nullable(),
    rejection_reason: z.string().nullable(),
    created_at: z.string(),
    consultation_fee: z.number(),
    /** Its consultation has started (someone joined): what a prescription, issued or uploaded, follows. */
    consultation_held: z.boolean(),
    moved_from: movedFromSchema,
    proposal: proposalSchema,
    follow_up_of: followUpOfSchema,
    slot: slotTimesSchema,
  })
  .openapi('DoctorAppointment');

/** Largest page of an institution's appointment list (GET /institutions/{id}/appointments?limit=). */
export const INSTITUTION_APPOINTMENTS_MAX_LIMIT = 200;

/** Keyset paging of appointment lists: the id of the last appointment of the previous page. */
export const pageCursorSchema = idSchema
  .optional()
  .openapi({ description: 'appointment_id of the last item of the previous page: the page continues after it in the same order (a page shorter than limit is the last)' });

export const myAppointmentsQuerySchema = timezoneQuerySchema.extend({
  status: z
    .string()
    .max(100)
    .regex(/^[a-z_]+(,[a-z_]+)*$/)
    .refine((list) => list.split(',').every((s) => appointmentStatusSchema.safeParse(s).success), {
      message: `Statuses are ${appointmentStatusSchema.options.join(', ')}`,
    })
    .optional()
    .openapi({ description: 'Comma-separated statuses; default requested,confirmed' }),
  include_past: z.enum(['true', 'false']).optional().openapi({ description: 'Include appointments that have ended' }),
  section: z
    .enum(['upcoming', 'past'])
    .optional()
    .openapi({
      description:
        'upcoming: requested and confirmed that have not ended, soonest first; past: ended, declined or cancelled, latest first. Overrides status and include_past',
    }),
  limit: z.coerce.number().int().min(1).max(MY_APPOINTMENTS_MAX_LIMIT).optional().openapi({ description: `At most this many (default and cap ${MY_APPOINTMENTS_MAX_LIMIT})` }),
  cursor: pageCursorSchema,
});

export const pendingAppointmentSchema = z
  .object({
    appointment_id: z.string(),
    patient_id: z.string(),
    patient_name: z.string(),
    patient_phone: z.string().nullable(),
    notes: z.string(),
    created_at: z.string(),
    moved_from: movedFromSchema,
    follow_up_of: followUpOfSchema,
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
/** A ticket that opens one notification socket (`/ws/{userId}?token=<ticket>`) within seconds, in place of the access token. */
export const socketTicketResponseSchema = z.object({ ticket: z.string(), expires_at: z.iso.datetime() }).openapi('SocketTicket');
export type SocketTicket = z.infer<typeof socketTicketResponseSchema>;
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
export type SlotFacts = z.infer<typeof slotFactsSchema>;
export type PublicDoctorProfile = z.infer<typeof publicDoctorProfileSchema>;
