import { z } from './zod';
import { safeText, type TextKind } from './safe-text';
import { FOLLOW_UP_LIMITS } from './follow-ups';

/**
 * Clinical records (issue 14): consultation notes, e-prescriptions, the doctor's uploaded prescription files and the
 * patient's uploaded reports. The seeds' texts and limits (seed 001 §3, §5, §8, §9) are written here once.
 */

export * from './record-constants';
import {
  CONSULTATION_KINDS,
  CONSULTATION_MODES,
  DURATION_UNITS,
  FOLLOW_UP_VALUES,
  FREQUENCIES,
  NOTE_TEMPLATES,
  PRIORITY_LEVELS,
  RECORD_LIMITS,
  RECORD_TEXTS,
  REPORT_FILE_TYPES,
  REPORT_TYPE_IDS,
  TPG_LISTS,
} from './record-constants';

/**
 * Text people type into a record: never control characters, bidirectional overrides or unpaired surrogates (the
 * product's one rule for typed text, see safe-text.ts), which would make a name or a medicine on an e-prescription read
 * differently from what is stored. A single line for names and short fields, multi-line for the free text.
 */
const optionalText = (max: number = RECORD_LIMITS.textChars, kind: TextKind = 'multiline') => safeText(kind).max(max).nullish().transform((v) => v ?? null);

export const recordParamsSchema = z.object({ appointment_id: z.string().min(1).max(64) });
export const recordIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/**
 * The notes' fields as a save records them (ConsultationNotesSaved) and as they are read (the view): one shape.
 * `patient_ref` is the modal's "patient ID" (the clinic's own reference, not a user id).
 */
export const consultationNotesFields = {
  patient_name: z.string().nullable(),
  patient_ref: z.string().nullable(),
  chief_complaint: z.string().nullable(),
  clinical_assessment: z.string().nullable(),
  treatment_plan: z.string().nullable(),
  follow_up_instructions: z.string().nullable(),
  additional_notes: z.string().nullable(),
  priority_level: z.enum(PRIORITY_LEVELS),
  follow_up_required: z.enum(FOLLOW_UP_VALUES),
  template: z.enum(NOTE_TEMPLATES).nullable(),
};
export type ConsultationNotesFields = { [K in keyof typeof consultationNotesFields]: z.infer<(typeof consultationNotesFields)[K]> };

/**
 * The notes as the event records them. Priority, follow-up and template are health data too (an 'urgent_care' visit,
 * an urgent follow-up), so in the log they are ciphertext under the patient's key like the text: plain strings here,
 * checked as their choices on the request, and read back through `recordedNotesChoices`.
 */
export const consultationNotesEventFields = {
  ...consultationNotesFields,
  priority_level: z.string(),
  follow_up_required: z.string(),
  template: z.string().nullable(),
};

const oneOf = <T extends string>(choices: readonly T[], value: string | null, otherwise: T | null) =>
  choices.includes(value as T) ? (value as T) : otherwise;

/**
 * The choices a notes event recorded, as their types: a value that is not one of them (its key destroyed, so it reads
 * as erased) falls back to the first save's defaults (medium, no, none).
 */
export function recordedNotesChoices(data: { priority_level: string; follow_up_required: string; template: string | null }) {
  return {
    priority_level: oneOf(PRIORITY_LEVELS, data.priority_level, 'medium')!,
    follow_up_required: oneOf(FOLLOW_UP_VALUES, data.follow_up_required, 'no')!,
    template: oneOf(NOTE_TEMPLATES, data.template, null),
  };
}

/**
 * A stored file's size as RecordFileStored recorded it: a number (written before the size was encrypted) or its
 * decimal digits; one that no longer reads (its key destroyed: ERASED_VALUE) counts as 0 bytes.
 */
export function recordedFileSize(size: number | string): number {
  if (typeof size === 'number') return Number.isSafeInteger(size) && size >= 0 ? size : 0;
  return /^\d{1,15}$/.test(size) ? Number(size) : 0;
}

/** A stored file's type as recorded: one of REPORT_FILE_TYPES, else (its key destroyed) application/octet-stream. */
export function recordedFileType(contentType: string): string {
  return (REPORT_FILE_TYPES as readonly string[]).includes(contentType) ? contentType : 'application/octet-stream';
}

/**
 * A prescription's consultation mode and kind as PrescriptionIssued recorded them (in clear before they were
 * encrypted, ciphertext after): each one of its choices, or null when it no longer reads (its key destroyed).
 */
export function recordedConsultation(data: { consultation_mode: string; consultation_kind: string }) {
  return {
    consultation_mode: oneOf(CONSULTATION_MODES, data.consultation_mode, null),
    consultation_kind: oneOf(CONSULTATION_KINDS, data.consultation_kind, null),
  };
}

/** A text field of a notes save: absent keeps what was saved, null or blank clears it, text replaces it. */
const notesText = (max: number = RECORD_LIMITS.textChars, kind: TextKind = 'multiline') => safeText(kind).max(max).nullable().optional();

/**
 * A save of the notes modal's fields (seed 001 §2, §3) or of the in-call panel's text (as `clinical_assessment`),
 * merged into what was saved before (the latest save, draft or final): a field left out keeps its saved value, an
 * explicit null or blank text clears it. Priority, follow-up and template left out keep theirs too (medium, no and
 * none on the first save). The Save as Draft and Save Notes rules hold for the merged notes.
 */
export const consultationNotesSchema = z
  .strictObject({
    patient_name: notesText(RECORD_LIMITS.shortTextChars, 'line'),
    patient_id: notesText(RECORD_LIMITS.shortTextChars, 'line'),
    chief_complaint: notesText(),
    clinical_assessment: notesText(),
    treatment_plan: notesText(),
    follow_up_instructions: notesText(),
    additional_notes: notesText(),
    priority_level: z.enum(PRIORITY_LEVELS).optional(),
    follow_up_required: z.enum(FOLLOW_UP_VALUES).optional(),
    /**
     * With final notes whose follow-up is required (issue 35): the follow-up the patient may book, within this many days
     * of the consultation (default 7) and at this fee (default 0, free; at most the doctor's consultation fee). Left out,
     * an earlier offer stands; ignored on a draft or when no follow-up is required.
     */
    follow_up_within_days: z.number().int().min(FOLLOW_UP_LIMITS.minDays).max(FOLLOW_UP_LIMITS.maxDays).optional(),
    follow_up_fee: z.number().min(0).max(1_000_000).optional(),
    template: z.enum(NOTE_TEMPLATES).nullable().optional(),
    /**
     * Save as Draft (true) or Save Notes (false). Left out (the in-call panel's save), the notes keep their state: a
     * draft stays a draft, so a draft's fields never reach the patient through a save that did not show them; final
     * notes, or none yet, are saved final.
     */
    is_draft: z.boolean().optional(),
  })
  .openapi('ConsultationNotesRequest');
export type ConsultationNotesInput = z.infer<typeof consultationNotesSchema>;

export const consultationNotesViewSchema = z
  .object({
    appointment_id: z.string(),
    patient_id: z.string(),
    doctor_id: z.string(),
    ...consultationNotesFields,
    is_draft: z.boolean(),
    saved_at: z.string(),
  })
  .openapi('ConsultationNotes');
export type ConsultationNotesView = z.infer<typeof consultationNotesViewSchema>;

export const prescriptionLineSchema = z.strictObject({
  medicine_id: z.string().min(1).max(64).nullish().transform((v) => v ?? null),
  medicine: safeText('line').trim().min(1).max(RECORD_LIMITS.shortTextChars),
  /**
   * The strength chosen for this line: with `medicine_id`, one of the strengths the catalogue lists for it (it may be
   * left out when it lists only one); for a free-text medicine, any.
   */
  strength: optionalText(RECORD_LIMITS.shortTextChars, 'line'),
  /** With `medicine_id`, the catalogue's form of it (left out, it is taken from there); for a free-text medicine, any. */
  dosage_form: optionalText(RECORD_LIMITS.shortTextChars, 'line'),
  dosage: safeText('line').trim().min(1).max(RECORD_LIMITS.shortTextChars),
  frequency: z.enum(FREQUENCIES),
  custom_schedule: optionalText(RECORD_LIMITS.shortTextChars),
  duration_value: z.number().int().min(1).max(365),
  duration_unit: z.enum(DURATION_UNITS),
  instructions: optionalText(RECORD_LIMITS.shortTextChars),
});
export type PrescriptionLineInput = z.infer<typeof prescriptionLineSchema>;

export const issuePrescriptionSchema = z
  .strictObject({
    lines: z.array(prescriptionLineSchema).min(1).max(RECORD_LIMITS.prescriptionLines),
    diagnosis: optionalText(),
    advice: optionalText(),
    /**
     * Not in the issue's shape but in the Guidelines' format: follow-up advice, and the patient's age and gender. The
     * seeds' builder has neither and no profile or appointment holds them, so the builder asks the doctor for them.
     */
    follow_up: optionalText(RECORD_LIMITS.shortTextChars),
    patient_age: z.number().int().min(0).max(130).nullish().transform((v) => v ?? null),
    patient_gender: z.enum(['female', 'male', 'other']).nullish().transform((v) => v ?? null),
  })
  .openapi('IssuePrescriptionRequest');
export type IssuePrescriptionInput = z.infer<typeof issuePrescriptionSchema>;

/** A line as stored: the builder's fields plus what the catalogue said of the medicine. */
export const storedPrescriptionLineSchema = z.object({
  medicine_id: z.string().nullable(),
  medicine: z.string(),
  generic_name: z.string(),
  /** The line's one strength (never the catalogue's whole list). */
  strength: z.string().nullable(),
  dosage_form: z.string().nullable(),
  tpg_list: z.enum(TPG_LISTS).nullable(),
  dosage: z.string(),
  frequency: z.enum(FREQUENCIES),
  custom_schedule: z.string().nullable(),
  duration_value: z.number().int(),
  duration_unit: z.enum(DURATION_UNITS),
  instructions: z.string().nullable(),
});
export type StoredPrescriptionLine = z.infer<typeof storedPrescriptionLineSchema>;

/** A medicine's generic name as prescriptions compare it (case, accents and punctuation aside): what a follow-up may refill. */
export const genericKey = (name: string) => name.toLowerCase().normalize('NFD').replace(/\p{M}+/gu, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

export const prescriptionViewSchema = z
  .object({
    prescription_id: z.string(),
    appointment_id: z.string(),
    patient_id: z.string(),
    doctor_id: z.string(),
    issued_at: z.string(),
    verification_code: z.string(),
    verification_url: z.string(),
    /** Null once the patient's clinical records are destroyed (the retention period after an erasure ended). */
    consultation_mode: z.enum(CONSULTATION_MODES).nullable(),
    consultation_kind: z.enum(CONSULTATION_KINDS).nullable(),
    doctor: z.object({
      name: z.string(),
      qualification: z.string(),
      registration_number: z.string(),
      medical_council: z.string(),
      contact: z.string().nullable(),
    }),
    patient: z.object({ name: z.string(), age: z.number().nullable(), gender: z.string().nullable() }),
    diagnosis: z.string().nullable(),
    advice: z.string().nullable(),
    follow_up: z.string().nullable(),
    lines: z.array(storedPrescriptionLineSchema),
  })
  .openapi('Prescription');
export type PrescriptionView = z.infer<typeof prescriptionViewSchema>;

export const prescriptionVerificationSchema = z
  .object({
    genuine: z.boolean(),
    doctor: z.object({ name: z.string(), qualification: z.string(), registration_number: z.string(), medical_council: z.string() }).nullable(),
    issued_on: z.string().nullable(),
  })
  .openapi('PrescriptionVerification');

export const recordFileViewSchema = z.object({
  file_id: z.string(),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number(),
  download_url: z.string(),
});

export const medicalReportViewSchema = z.object({
  kind: z.literal('report'),
  id: z.string(),
  patient_id: z.string(),
  appointment_id: z.string().nullable(),
  report_type: z.enum(REPORT_TYPE_IDS),
  report_type_name: z.string(),
  report_date: z.string(),
  medical_facility: z.string().nullable(),
  doctor_name: z.string().nullable(),
  report_summary: z.string().nullable(),
  additional_notes: z.string().nullable(),
  files: z.array(recordFileViewSchema),
  total_size: z.number(),
  uploaded_at: z.string(),
});
export const prescriptionFileViewSchema = z.object({
  kind: z.literal('prescription_file'),
  id: z.string(),
  patient_id: z.string(),
  doctor_id: z.string(),
  appointment_id: z.string(),
  patient_name: z.string(),
  patient_ref: z.string().nullable(),
  medication_summary: z.string().nullable(),
  additional_notes: z.string().nullable(),
  file: recordFileViewSchema,
  uploaded_at: z.string(),
});
export const prescriptionSummarySchema = z.object({
  kind: z.literal('prescription'),
  id: z.string(),
  patient_id: z.string(),
  doctor_id: z.string(),
  doctor_name: z.string(),
  appointment_id: z.string(),
  diagnosis: z.string().nullable(),
  medicines: z.array(z.object({ medicine: z.string(), dosage: z.string(), frequency: z.string() })),
  issued_at: z.string(),
  pdf_url: z.string(),
});
export const recordsResponseSchema = z
  .object({
    patient_id: z.string(),
    reports: z.array(medicalReportViewSchema),
    prescriptions: z.array(prescriptionSummarySchema),
    prescription_files: z.array(prescriptionFileViewSchema),
  })
  .openapi('PatientRecords');
export type RecordsResponse = z.infer<typeof recordsResponseSchema>;

export const uploadReportResponseSchema = z.object({ report_id: z.string(), files: z.array(recordFileViewSchema), total_size: z.number(), uploaded_at: z.string() }).openapi('ReportUploaded');
export const uploadPrescriptionFileResponseSchema = z.object({ record_id: z.string(), file: recordFileViewSchema, uploaded_at: z.string() }).openapi('PrescriptionFileUploaded');

/** Fields of the report upload (multipart), validated after the files are streamed. */
export const reportFieldsSchema = z.object({
  report_type: z.enum(REPORT_TYPE_IDS, { message: RECORD_TEXTS.reportTypeRequired }),
  /** A calendar date; its bounds (not before 1900, not after today in India) are checked with the clock (reportDateProblem). */
  report_date: z.iso.date({ error: (issue) => (issue.input === null || issue.input === undefined ? RECORD_TEXTS.reportDateRequired : RECORD_TEXTS.reportDateInvalid) }),
  medical_facility: optionalText(RECORD_LIMITS.shortTextChars, 'line'),
  doctor_name: optionalText(RECORD_LIMITS.shortTextChars, 'line'),
  report_summary: optionalText(),
  additional_notes: optionalText(),
  appointment_id: z.string().min(1).max(64).nullish().transform((v) => v ?? null),
});
export const prescriptionFileFieldsSchema = z.object({
  patient_name: safeText('line').trim().min(1, RECORD_TEXTS.patientNameRequired).max(RECORD_LIMITS.shortTextChars),
  patient_id: optionalText(RECORD_LIMITS.shortTextChars, 'line'),
  medication_summary: optionalText(),
  additional_notes: optionalText(),
});

/** Medicine search (seed 001 §7: at least 2 characters, limit 10). */
export const MEDICINE_SEARCH_MIN_CHARS = 2;
export const medicineSearchQuerySchema = z.object({
  q: z.string().trim().min(MEDICINE_SEARCH_MIN_CHARS).max(100),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const medicineSuggestionSchema = z
  .object({
    id: z.string(),
    /** The brand's or the generic's own name. */
    name: z.string(),
    /** The generic composition ("Amoxicillin + Clavulanic acid"); for a generic, its name. */
    generic_name: z.string(),
    manufacturer: z.string().nullable(),
    /** Every strength listed, for display ("500 mg, 650 mg"). */
    strength: z.string().nullable(),
    /** The same one by one: what a prescription line chooses from. */
    strengths: z.array(z.string()),
    dosage_form: z.string().nullable(),
    tpg_list: z.enum(TPG_LISTS).nullable(),
  })
  .openapi('MedicineSuggestion');
export type MedicineSuggestion = z.infer<typeof medicineSuggestionSchema>;

/**
 * A person's file name as shown back: the last path segment, no control characters and no invisible format characters
 * (a right-to-left override makes `scan\u202Efdp.html` read as `scanlmth.pdf`), at most 200 characters.
 */
export function displayFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g, '').trim();
  return (base === '' || base === '.' || base === '..' ? 'file' : base).slice(0, 200);
}

/** ERASED_VALUE (personal-fields.ts), written here so that this module imports no other. */
const ERASED_FILE_NAME = '[erased]';

/** The file name extensions each stored type is saved under (the first when the name has none of them). */
const TYPE_EXTENSIONS: Record<string, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/dicom': ['dcm', 'dicom'],
};

/**
 * A record file's name as it is listed and saved: displayFileName, ending in an extension of the type its content was
 * found to be. The type is decided by content, so a PDF that is also an HTML page, uploaded as `report.html`, is kept
 * as a PDF; saved under its own name it would open as a web page with its script from the reader's disk. It is
 * listed and saved as `report.pdf`.
 */
export function recordFileName(name: string, contentType: string): string {
  const display = displayFileName(name);
  const extensions = TYPE_EXTENSIONS[contentType];
  // An erased name stays as the erasure left it (listed as such; a download of it answers 410 anyway).
  if (!extensions || display === ERASED_FILE_NAME) return display;
  const dot = display.lastIndexOf('.');
  if (dot > 0 && extensions.includes(display.slice(dot + 1).toLowerCase())) return display;
  const base = dot > 0 ? display.slice(0, dot) : display;
  const extension = `.${extensions[0]!}`;
  return `${base.slice(0, 200 - extension.length)}${extension}`;
}

/** A Content-Disposition for saving a file under `name`: a plain ASCII fallback and the UTF-8 name (RFC 6266, 8187). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
