import { z } from './zod';

/**
 * Clinical records (issue 14): consultation notes, e-prescriptions, the doctor's uploaded prescription files and the
 * patient's uploaded reports. The seeds' texts and limits (seed 001 §3, §5, §8, §9) are written here once.
 */

export const MB = 1024 * 1024;

export const RECORD_LIMITS = {
  /** Seed 001 §9: prescription file max 10 MB. */
  prescriptionFileBytes: 10 * MB,
  /** Seed 001 §9: report file max 20 MB. */
  reportFileBytes: 20 * MB,
  /** Files in one report upload (the modal takes several; a bound keeps one request finite). */
  reportFilesPerUpload: 10,
  /** Text fields of the forms. */
  textChars: 4000,
  shortTextChars: 200,
  /** Lines in one e-prescription. */
  prescriptionLines: 30,
} as const;

/** The seeds' messages (§5, §8), answered as `detail`. */
export const RECORD_TEXTS = {
  prescriptionFileTooLarge: 'File size must be less than 10MB',
  prescriptionFileType: 'Please select a valid file type (PDF, JPG, PNG, DOC, DOCX)',
  reportFileTooLarge: (file: string) => `File "${file}" is too large. Maximum size is 20MB.`,
  reportFileType: (file: string) => `File "${file}" is not a supported format.`,
  uploadPrescriptionFailed: 'Failed to upload prescription. Please try again.',
  saveNotesFailed: 'Failed to save notes. Please try again.',
  uploadReportsFailed: 'Failed to upload reports. Please try again.',
  // Ours, where the seeds give none.
  multipartRequired: 'Content-Type must be multipart/form-data',
  fileRequired: 'Select a file to upload',
  oneFileOnly: 'Upload one prescription file at a time',
  tooManyFiles: `Upload at most ${10} files at a time`,
  reportTypeRequired: 'Choose a report type',
  reportDateFuture: 'Report date cannot be later than today',
  patientNameRequired: 'Patient name is required',
  notesDraftEmpty: 'Write something before saving a draft',
  notesFinalIncomplete: 'Save Notes needs the patient name and a chief complaint or a clinical assessment',
  notesNotAllowed: 'Only the doctor of this appointment writes its notes',
  notesNotFound: 'No notes yet',
  appointmentNotOpen: (status: string) => `Records can be added to a confirmed or completed appointment; this one is ${status}`,
  notYourAppointment: 'Only the doctor of this appointment can do this',
  recordNotFound: 'Record not found',
  fileNotFound: 'File not found',
  fileErased: "This file can no longer be read: its owner's data was erased",
  prescriptionNotFound: 'Prescription not found',
  verificationNotFound: 'No prescription has this verification code',
  patientNotFound: 'Patient not found',
  malformedUpload: 'The upload could not be read. Please try again.',
  // The e-prescription's rules (Telemedicine Practice Guidelines 2020).
  prescriberOnly: 'Only the doctor of this appointment can issue its prescription',
  consultationNotHeld: 'A prescription can be issued only for a consultation that has taken place or is under way',
  registrationMissing: 'Add your medical registration number and council to your profile before issuing prescriptions',
  prescriptionEmpty: 'Add at least one medicine',
  prohibited: (medicine: string) =>
    `${medicine} cannot be prescribed by teleconsultation: it is a prohibited medicine (Schedule X of the Drugs and Cosmetics Rules or the NDPS Act) under the Telemedicine Practice Guidelines 2020`,
  listANeedsVideo: (medicine: string) =>
    `${medicine} is on List A of the Telemedicine Practice Guidelines 2020: it can be prescribed in a video consultation, or re-prescribed as a refill in a follow-up`,
  listBNeedsFollowUp: (medicine: string) =>
    `${medicine} is on List B of the Telemedicine Practice Guidelines 2020: it can be prescribed only in a follow-up consultation`,
  unknownMedicine: (id: string) => `No medicine in the catalogue has the id ${id}`,
} as const;

/** Seed 001 §3: the report types, with the API's ids. */
export const REPORT_TYPES = [
  { id: 'lab', name: 'Lab Results' },
  { id: 'xray', name: 'X-Ray' },
  { id: 'mri_ct', name: 'MRI/CT Scan' },
  { id: 'ultrasound', name: 'Ultrasound' },
  { id: 'ecg', name: 'ECG/EKG' },
  { id: 'pathology', name: 'Pathology' },
  { id: 'prescription', name: 'Prescription' },
  { id: 'other', name: 'Other' },
] as const;
export const REPORT_TYPE_IDS = REPORT_TYPES.map((t) => t.id) as unknown as readonly ['lab', 'xray', 'mri_ct', 'ultrasound', 'ecg', 'pathology', 'prescription', 'other'];
export type ReportTypeId = (typeof REPORT_TYPE_IDS)[number];

/** Seed 001 §9. */
export const PRIORITY_LEVELS = ['low', 'medium', 'high', 'urgent'] as const;
export const FOLLOW_UP_VALUES = ['no', 'routine', 'urgent'] as const;
export const NOTE_TEMPLATES = ['general_consultation', 'follow_up_visit', 'prescription_renewal', 'urgent_care'] as const;
export const FREQUENCIES = ['once_daily', 'twice_daily', 'three_times_daily', 'four_times_daily', 'custom'] as const;
export const DURATION_UNITS = ['days', 'weeks', 'months'] as const;

/** How a frequency reads on the prescription. */
export const FREQUENCY_LABELS: Record<(typeof FREQUENCIES)[number], string> = {
  once_daily: 'Once daily',
  twice_daily: 'Twice daily',
  three_times_daily: 'Three times daily',
  four_times_daily: 'Four times daily',
  custom: 'Custom',
};

/** The types an upload may be, by content; DICOM only for reports. */
export const PRESCRIPTION_FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'] as const;
export const REPORT_FILE_TYPES = [...PRESCRIPTION_FILE_TYPES, 'application/dicom'] as const;
export type RecordFileType = (typeof REPORT_FILE_TYPES)[number];

/** The Telemedicine Practice Guidelines 2020's lists (Annexure), and the medicines never prescribed by teleconsultation. */
export const TPG_LISTS = ['O', 'A', 'B', 'prohibited'] as const;
export type TpgList = (typeof TPG_LISTS)[number];
export const CONSULTATION_MODES = ['video', 'audio', 'chat'] as const;
export type ConsultationMode = (typeof CONSULTATION_MODES)[number];

const optionalText = (max: number = RECORD_LIMITS.textChars) => z.string().max(max).nullish().transform((v) => v ?? null);

export const recordParamsSchema = z.object({ appointment_id: z.string().min(1).max(64) });
export const recordIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The notes modal's fields (seed 001 §2, §3) and the in-call panel's text (as `additional_notes` or `clinical_assessment`). */
export const consultationNotesSchema = z
  .strictObject({
    patient_name: optionalText(RECORD_LIMITS.shortTextChars),
    patient_id: optionalText(RECORD_LIMITS.shortTextChars),
    chief_complaint: optionalText(),
    clinical_assessment: optionalText(),
    treatment_plan: optionalText(),
    follow_up_instructions: optionalText(),
    additional_notes: optionalText(),
    priority_level: z.enum(PRIORITY_LEVELS).default('medium'),
    follow_up_required: z.enum(FOLLOW_UP_VALUES).default('no'),
    template: z.enum(NOTE_TEMPLATES).nullish().transform((v) => v ?? null),
    is_draft: z.boolean(),
  })
  .openapi('ConsultationNotesRequest');
export type ConsultationNotesInput = z.infer<typeof consultationNotesSchema>;

export const consultationNotesViewSchema = z
  .object({
    appointment_id: z.string(),
    patient_id: z.string(),
    doctor_id: z.string(),
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
    is_draft: z.boolean(),
    saved_at: z.string(),
  })
  .openapi('ConsultationNotes');
export type ConsultationNotesView = z.infer<typeof consultationNotesViewSchema>;

export const prescriptionLineSchema = z.strictObject({
  medicine_id: z.string().min(1).max(64).nullish().transform((v) => v ?? null),
  medicine: z.string().trim().min(1).max(RECORD_LIMITS.shortTextChars),
  dosage: z.string().trim().min(1).max(RECORD_LIMITS.shortTextChars),
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
    /** Not in the issue's shape but in the Guidelines' format: follow-up advice, and the patient's age and gender (the profile holds neither). */
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

export const prescriptionViewSchema = z
  .object({
    prescription_id: z.string(),
    appointment_id: z.string(),
    patient_id: z.string(),
    doctor_id: z.string(),
    issued_at: z.string(),
    verification_code: z.string(),
    verification_url: z.string(),
    consultation_mode: z.enum(CONSULTATION_MODES),
    consultation_kind: z.enum(['first', 'follow_up']),
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
  report_date: z.iso.date(),
  medical_facility: optionalText(RECORD_LIMITS.shortTextChars),
  doctor_name: optionalText(RECORD_LIMITS.shortTextChars),
  report_summary: optionalText(),
  additional_notes: optionalText(),
  appointment_id: z.string().min(1).max(64).nullish().transform((v) => v ?? null),
});
export const prescriptionFileFieldsSchema = z.object({
  patient_name: z.string().trim().min(1, RECORD_TEXTS.patientNameRequired).max(RECORD_LIMITS.shortTextChars),
  patient_id: optionalText(RECORD_LIMITS.shortTextChars),
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
    name: z.string(),
    manufacturer: z.string().nullable(),
    strength: z.string().nullable(),
    dosage_form: z.string().nullable(),
    tpg_list: z.enum(TPG_LISTS).nullable(),
  })
  .openapi('MedicineSuggestion');
export type MedicineSuggestion = z.infer<typeof medicineSuggestionSchema>;

/** A person's file name as shown back: the last path segment, no control characters, at most 200 characters. */
export function displayFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (base === '' || base === '.' || base === '..' ? 'file' : base).slice(0, 200);
}
