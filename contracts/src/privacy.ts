import { z } from './zod';
import { blogContentSchema } from './blog';
import { CONSENT_LANGUAGES } from './consent-notice';
import { consultationNotesViewSchema, medicalReportViewSchema, prescriptionFileViewSchema, prescriptionViewSchema } from './records';

/**
 * Wire shapes and texts of the person's privacy rights (issue 12): who saw my data (the access log, from the
 * PersonalDataAccessed audit events) and the export of everything the product holds about me.
 */

/** Why someone read another person's data. */
export const ACCESS_PURPOSES = ['care', 'institution_audit', 'institution_administration', 'platform_administration'] as const;
export type AccessPurpose = (typeof ACCESS_PURPOSES)[number];

/** How the purposes read on the person's screen. */
export const ACCESS_PURPOSE_LABELS: Record<AccessPurpose, string> = {
  care: 'Your care (the doctor treating you)',
  institution_audit: "Institution audit (the clinic of your doctor)",
  institution_administration: 'Institution administration (staff and contact lists)',
  platform_administration: 'Platform administration (operators)',
};

/** What was read, by resource kind: how each reads on the person's screen. */
export const ACCESS_RESOURCES = [
  'appointment_history',
  'doctor_appointments',
  'pending_requests',
  'institution_appointments',
  'institution_staff',
  'institution_doctors',
  'user_accounts',
  'consultation_messages',
  'consultation',
  'clinical_records',
  'consultation_notes',
  'prescription',
  'record_file',
] as const;
export type AccessResource = (typeof ACCESS_RESOURCES)[number];
export const ACCESS_RESOURCE_LABELS: Record<AccessResource, string> = {
  appointment_history: "An appointment's details and history",
  doctor_appointments: "A doctor's list of appointments",
  pending_requests: "A doctor's appointment requests",
  institution_appointments: "An institution's appointments",
  institution_staff: "An institution's staff list (contact details)",
  institution_doctors: "An institution's doctors and invitations (contact details)",
  user_accounts: "The platform's list of accounts (name, e-mail, phone)",
  consultation_messages: "A video consultation's chat",
  consultation: 'A video consultation: who is in it, and when',
  clinical_records: 'Your medical records (reports, prescriptions, uploaded files)',
  consultation_notes: "A consultation's notes",
  prescription: 'A prescription',
  record_file: 'A file of your medical records',
};

export const PRIVACY_TEXTS = {
  /** Health data is never shown unless the reading of it is on record. */
  auditUnavailable: 'This data cannot be shown right now because the access could not be recorded. Please try again.',
} as const;

export const ACCESS_LOG_MAX_LIMIT = 100;
export const ACCESS_LOG_DEFAULT_LIMIT = 20;

export const accessLogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ACCESS_LOG_MAX_LIMIT).default(ACCESS_LOG_DEFAULT_LIMIT),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'Expected the next_cursor of the previous page')
    .optional()
    .openapi({ description: 'next_cursor of the previous page: the page continues with older accesses' }),
});

export const accessLogEntrySchema = z
  .object({
    id: z.string(),
    who: z.object({
      user_id: z.string(),
      /** null once that person's account is gone or erased. */
      name: z.string().nullable(),
      role: z.enum(['patient', 'doctor', 'admin']),
      /** Their role in the institution they read through (ADMIN, STAFF, DOCTOR, ...), when they did. */
      institution_role: z.string().nullable(),
    }),
    institution: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
    what: z.object({
      resource: z.enum(ACCESS_RESOURCES),
      description: z.string(),
      route: z.string(),
      /** The items of yours it showed (appointment ids, or `contact_details`). */
      items: z.array(z.string()),
    }),
    when: z.string(),
    why: z.enum(ACCESS_PURPOSES),
    why_label: z.string(),
  })
  .openapi('AccessLogEntry');
export const accessLogResponseSchema = z
  .object({ entries: z.array(accessLogEntrySchema), next_cursor: z.string().nullable() })
  .openapi('AccessLog');
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;
export type AccessLogPage = z.infer<typeof accessLogResponseSchema>;

const sharedWithSchema = z.object({
  user_id: z.string(),
  name: z.string().nullable(),
  role: z.string(),
  institution: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  purpose: z.enum(ACCESS_PURPOSES),
  at: z.string(),
});

export const personalDataExportSchema = z
  .object({
    format: z.literal('telemed-personal-data-export/1'),
    exported_at: z.string(),
    subject_user_id: z.string(),
    profile: z.object({
      user_id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      phone_number: z.string().nullable(),
      account_type: z.enum(['patient', 'doctor', 'admin']),
      registered_at: z.string(),
      active: z.boolean(),
      /** A doctor's practice as kept, null for others: api.ts's doctor fields and the doctor's number (written out, as api.ts imports events.ts, which imports this module). */
      doctor: z
        .object({
          doctor_number: z.number().int(),
          specialty: z.string(),
          qualification: z.string(),
          consultation_fee: z.number(),
          appointment_duration_minutes: z.number().int(),
          registration_number: z.string().nullable(),
          medical_council: z.string().nullable(),
          city: z.string().nullable(),
          languages: z.array(z.string()),
        })
        .nullable(),
      /** Who read your name and contact details (an operator's account pages, an institution's console), from the access log. */
      shared_with: z.array(sharedWithSchema),
      /** Each time a platform admin closed your account: when, the reason recorded, and when it was reopened (null: still closed). */
      deactivations: z.array(z.object({ deactivated_at: z.string(), reason: z.string(), reactivated_at: z.string().nullable() })),
    }),
    consents: z.array(
      z.object({ notice_version: z.string(), language: z.enum(CONSENT_LANGUAGES), text_hash: z.string(), given_at: z.string(), withdrawn_at: z.string().nullable() }),
    ),
    sessions: z.array(z.object({ session_id: z.string(), method: z.string(), started_at: z.string(), ended_at: z.string().nullable(), ended_reason: z.string().nullable() })),
    doctors_followed: z.array(z.object({ doctor_id: z.string(), name: z.string().nullable(), since: z.string() })),
    appointments: z.array(
      z.object({
        appointment_id: z.string(),
        as: z.enum(['patient', 'doctor']),
        slot_id: z.number(),
        start: z.string(),
        end: z.string(),
        status: z.string(),
        status_reason: z.string().nullable(),
        doctor: z.object({ doctor_id: z.string(), name: z.string(), specialty: z.string() }),
        /** Your own words: the reason for the visit (a patient's), or the reason you gave to reject or cancel. */
        notes: z.string().nullable(),
        rejection_reason: z.string().nullable(),
        cancellation_reason: z.string().nullable(),
        consultation_fee: z.number(),
        created_at: z.string(),
        status_history: z.array(z.object({ type: z.string(), occurred_at: z.string(), by: z.string() })),
        shared_with: z.array(sharedWithSchema),
      }),
    ),
    slots_booked: z.array(z.object({ slot_id: z.number(), appointment_id: z.string(), start: z.string(), end: z.string(), doctor_id: z.string() })),
    slots_offered: z.array(z.object({ slot_id: z.number(), start: z.string(), end: z.string(), status: z.string() })),
    institutions: z.array(
      z.object({
        institution_id: z.string(),
        institution_name: z.string().nullable(),
        role: z.string(),
        role_title: z.string().nullable(),
        department: z.string().nullable(),
        specialization: z.string().nullable(),
        is_institution_admin: z.boolean(),
        is_active: z.boolean(),
        added_at: z.string(),
        removed_at: z.string().nullable(),
        contact_details_on_record: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
        shared_with: z.array(sharedWithSchema),
      }),
    ),
    invitations: z.array(
      z.object({
        invitation_id: z.string(),
        institution_id: z.string(),
        institution_name: z.string().nullable(),
        role: z.string(),
        status: z.string(),
        invited_at: z.string(),
        answered_at: z.string().nullable(),
        /** What the institution wrote about you when it invited you (blanked by an erasure). */
        details_on_record: z.object({
          name: z.string(),
          email: z.string(),
          phone: z.string().nullable(),
          role_title: z.string().nullable(),
          department: z.string().nullable(),
          specialization: z.string().nullable(),
        }),
        /** Who at that institution read these details (its console lists pending invitations with them). */
        shared_with: z.array(sharedWithSchema),
      }),
    ),
    /**
     * Your clinical records as a patient (issue 14): your reports, the prescription files and e-prescriptions your
     * doctors gave you, and the final notes of your consultations (never a doctor's draft), each with who read it.
     * Files are listed with their download link (`GET /api/v1/records/files/{id}`), not embedded. Records you wrote
     * as a doctor are your patients' data and are not in your export.
     */
    clinical_records: z.object({
      reports: z.array(medicalReportViewSchema.extend({ shared_with: z.array(sharedWithSchema) })),
      prescriptions: z.array(prescriptionViewSchema.extend({ pdf_url: z.string(), shared_with: z.array(sharedWithSchema) })),
      prescription_files: z.array(prescriptionFileViewSchema.extend({ shared_with: z.array(sharedWithSchema) })),
      consultation_notes: z.array(consultationNotesViewSchema.extend({ shared_with: z.array(sharedWithSchema) })),
    }),
    /**
     * Your video consultations (issue 13): when each started, its limit and end. As the patient, with its whole chat
     * (your health data, whoever wrote each message: `from` is you or the doctor) and who read it; as the doctor, the
     * facts only (the chat is your patient's data, as in their export).
     */
    consultations: z.array(
      z.object({
        appointment_id: z.string(),
        as: z.enum(['patient', 'doctor']),
        status: z.enum(['active', 'ended']),
        started_at: z.string(),
        ends_at: z.string(),
        ended_at: z.string().nullable(),
        auto_ended: z.boolean(),
        messages: z.array(z.object({ message_id: z.string(), from: z.enum(['you', 'patient', 'doctor']), text: z.string(), sent_at: z.string() })),
        shared_with: z.array(sharedWithSchema),
      }),
    ),
    /** Your posts as a doctor (issue 16), drafts and archived ones too, each with its text. */
    blog_posts: z.array(
      z.object({
        post_id: z.string(),
        title: z.string(),
        description: z.string(),
        excerpt: z.string().nullable(),
        category: z.string(),
        tags: z.array(z.string()),
        status: z.string(),
        slug: z.string().nullable(),
        created_at: z.string(),
        updated_at: z.string(),
        published_at: z.string().nullable(),
        views: z.number(),
        /** Its Editor.js blocks; null when none are stored. */
        content: blogContentSchema.nullable(),
      }),
    ),
    /**
     * The pictures you uploaded as a doctor for your posts (issue 16): each with its type, size and the published
     * posts that show it. The file is under `files/blog-images/{image_id}` in the zip export (`?format=zip`); the
     * picture route serves it to you with a short-lived address, which `grant_url` gives you afresh.
     */
    blog_images: z.array(
      z.object({
        image_id: z.string(),
        content_type: z.string(),
        size: z.number(),
        published_in: z.array(z.string()),
        grant_url: z.string(),
      }),
    ),
    /** Messages outside the browser (issue 34): how you are reached, and every message sent to you (never its text again). */
    messaging: z.object({
      channels: z.object({ email: z.boolean(), sms: z.boolean(), whatsapp: z.boolean() }),
      time_zone: z.string().nullable(),
      verified_phone: z.string().nullable(),
      messages: z.array(
        z.object({
          message_id: z.string(),
          kind: z.string(),
          channel: z.string().nullable(),
          to: z.string().nullable(),
          status: z.string(),
          appointment_id: z.string().nullable(),
          at: z.string(),
        }),
      ),
    }),
    access_log: z.array(accessLogEntrySchema),
    /**
     * Your side of the access audit: each read you made of another person's data (as a doctor, an institution's
     * member or a platform admin), newest first: whose (`person-1`, `person-2`...: a label of your export's, numbered
     * by your first read of each person, never their account id), what, through which institution, when and why. The
     * items are the ids the read showed (your appointments' ids, `contact_details`); none of that person's values.
     */
    reads_by_you: z.array(
      z.object({
        id: z.string(),
        whose: z.string(),
        as: z.object({ role: z.enum(['patient', 'doctor', 'admin']), institution_role: z.string().nullable() }),
        institution: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
        what: z.object({ resource: z.enum(ACCESS_RESOURCES), description: z.string(), route: z.string(), items: z.array(z.string()) }),
        when: z.string(),
        why: z.enum(ACCESS_PURPOSES),
        why_label: z.string(),
      }),
    ),
  })
  .openapi('PersonalDataExport');
export type PersonalDataExport = z.infer<typeof personalDataExportSchema>;
