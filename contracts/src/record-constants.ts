/**
 * Clinical records' constants: the seeds' texts, limits, report types and prescription vocabularies (seed 001 §3, §5,
 * §8, §9), written here once. No zod: the frontend imports this subpath (`@telemed/contracts/record-constants`)
 * without the schemas.
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
  /**
   * Uploads one person may have under way at once (per server process). An upload may trickle for as long as bytes keep
   * coming (slow mobile networks), so without a bound one account could hold any number of connections and open files.
   */
  uploadsInFlightPerUser: 3,
  /**
   * The earliest report date taken (YYYY-MM-DD). Seed 001 bounds it only above (not after today); a date before this is
   * a typing slip (0202 for 2022), never a report anyone holds.
   */
  earliestReportDate: '1900-01-01',
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
  tooManyFields: 'The form has more fields than an upload takes',
  reportTypeRequired: 'Choose a report type',
  reportDateFuture: 'Report date cannot be later than today',
  reportDateTooEarly: 'Report date cannot be earlier than 1 January 1900',
  reportDateRequired: 'Choose the report date',
  reportDateInvalid: 'Report date must be a date (YYYY-MM-DD)',
  patientNameRequired: 'Patient name is required',
  patientRefOtherAccount: "This patient ID is another patient's account on this platform: use this patient's own ID, or leave it empty",
  notesDraftEmpty: 'Write something before saving a draft',
  notesFinalIncomplete: 'Save Notes needs the patient name and a chief complaint or a clinical assessment',
  notesNotAllowed: 'Only the doctor of this appointment writes its notes',
  appointmentNotOpen: (status: string) => `Records can be added to a confirmed or completed appointment; this one is ${status}`,
  notYourAppointment: 'Only the doctor of this appointment can do this',
  recordNotFound: 'Record not found',
  fileNotFound: 'File not found',
  fileErased: "This file can no longer be read: its owner's data was erased",
  prescriptionNotFound: 'Prescription not found',
  verificationNotFound: 'No prescription has this verification code',
  patientNotFound: 'Patient not found',
  malformedUpload: 'The upload could not be read. Please try again.',
  uploadsInFlight: `You have ${RECORD_LIMITS.uploadsInFlightPerUser} uploads under way. Please wait for one to finish.`,
  storageFull: (limit: string) => `Your records storage is full (${limit}). Uploads are refused until there is room.`,
  storageExceeded: (left: string, limit: string) => `These files do not fit in your records storage: ${left} of your ${limit} is left.`,
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
  strengthNotListed: (medicine: string, strength: string, listed: readonly string[]) =>
    `${medicine} is not listed in the strength ${strength}; choose one of: ${listed.join(', ')}`,
  strengthRequired: (medicine: string, listed: readonly string[]) => `Choose the strength of ${medicine}: ${listed.join(', ')}`,
  dosageFormNotListed: (medicine: string, form: string, listed: string) => `${medicine} in the catalogue is a ${listed}, not a ${form}`,
} as const;

/**
 * What is wrong with a report date (YYYY-MM-DD), or null: given, a real calendar date, not before
 * RECORD_LIMITS.earliestReportDate and not after `today` (India's date). The server and the upload modal both ask this.
 */
export function reportDateProblem(date: string | null | undefined, today: string): string | null {
  if (!date) return RECORD_TEXTS.reportDateRequired;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return RECORD_TEXTS.reportDateInvalid;
  if (date < RECORD_LIMITS.earliestReportDate) return RECORD_TEXTS.reportDateTooEarly;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return RECORD_TEXTS.reportDateInvalid;
  if (date > today) return RECORD_TEXTS.reportDateFuture;
  return null;
}

/** A storage size as people read it: "1 GB", "1.5 GB", "250.4 MB", "12 KB" (binary units, as the limits). */
export function storageSize(bytes: number): string {
  const GB = 1024 * MB;
  const fixed = (n: number) => n.toFixed(1).replace(/\.0$/, '');
  if (bytes >= GB) return `${fixed(bytes / GB)} GB`;
  if (bytes >= MB) return `${fixed(bytes / MB)} MB`;
  return `${Math.floor(bytes / 1024)} KB`;
}

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
/** A first consultation with the doctor, or a follow-up (an earlier consultation of theirs took place). */
export const CONSULTATION_KINDS = ['first', 'follow_up'] as const;
export type ConsultationKind = (typeof CONSULTATION_KINDS)[number];
