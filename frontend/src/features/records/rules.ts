import type { ConsultationNotesView } from '@telemed/contracts';
import { DURATION_UNITS, FREQUENCIES, RECORD_LIMITS, type ReportTypeId } from '@telemed/contracts/record-constants';
import { prescribedMedicineLabel } from '@telemed/contracts/medicine-search';
import type { MessageId } from '../../i18n/useT';
import { englishText, type Say } from './texts';

/**
 * The rules of the upload, notes and prescription forms (seed 001 §4, §5, §9), pure so that tests can hold them.
 * The limits come from contracts/src/record-constants.ts; the texts from the `records` catalogue (the seeds' English is
 * contracts' RECORD_TEXTS, which records/texts.test.ts holds it to), said by `say` in the screen's language.
 */

/** Seed 001 §4: progress is capped at 90 % until the server answers. */
export const UPLOAD_PROGRESS_CAP = 90;
/** Seed 001 §4: the modal reports the upload about 0.5 s after finishing. */
export const UPLOADED_CLOSE_DELAY_MS = 500;
/** Seed 001 §2: 'Notes saved! ✅' (records.notesSavedCheck) shows for 2 seconds. */
export const NOTES_SAVED_MS = 2000;
/** Seed 001 §9: medicine search. */
export const MEDICINE_SEARCH = { minChars: 2, debounceMs: 300, limit: 10, closeAfterBlurMs: 150 } as const;
/** Below MUI's `sm` breakpoint the modals take the whole screen. */
export const PHONE_QUERY = '(max-width:599.95px)';
/** Seed 001 §2: reports and previous prescriptions shown in the call before expanding. */
export const RECENT_SHOWN = 2;

const PRESCRIPTION_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png', 'doc', 'docx'];
const REPORT_EXTENSIONS = [...PRESCRIPTION_EXTENSIONS, 'dcm', 'dicom'];
const REPORT_MIME = ['application/pdf', 'image/jpeg', 'image/png', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/dicom'];

const extensionOf = (name: string) => (name.includes('.') ? name.split('.').pop()!.toLowerCase() : '');

/** The prescription file's message, or null when it may be sent (one file, 10 MB, the seeds' types). */
export function prescriptionFileError(file: { name: string; size: number }, say: Say = englishText): string | null {
  if (file.size > RECORD_LIMITS.prescriptionFileBytes) return say('records.prescriptionFileTooLarge');
  if (!PRESCRIPTION_EXTENSIONS.includes(extensionOf(file.name))) return say('records.prescriptionFileType');
  return null;
}

/** A report file's message, or null (20 MB each; the seeds' types, DICOM by type or a .dcm name). */
export function reportFileError(file: { name: string; size: number; type: string }, say: Say = englishText): string | null {
  if (file.size > RECORD_LIMITS.reportFileBytes) return say('records.reportFileTooLarge', { file: file.name });
  if (!REPORT_EXTENSIONS.includes(extensionOf(file.name)) && !REPORT_MIME.includes(file.type)) return say('records.reportFileType', { file: file.name });
  return null;
}

/** Adds picked files to the chosen ones: a file with the same name and size as one already there is ignored. */
export function addFiles<F extends { name: string; size: number; type: string }>(chosen: F[], picked: F[], say: Say = englishText): { files: F[]; errors: string[] } {
  const files = [...chosen];
  const errors: string[] = [];
  for (const file of picked) {
    if (files.some((f) => f.name === file.name && f.size === file.size)) continue;
    const error = reportFileError(file, say);
    if (error) errors.push(error);
    else files.push(file);
  }
  return { files, errors };
}

/** Seed 001 §5: a single file's name can pre-select the report type. */
export function reportTypeFromName(name: string): ReportTypeId | null {
  const n = name.toLowerCase();
  if (/x-?ray/.test(n)) return 'xray';
  if (/mri|(^|[^a-z])ct([^a-z]|$)/.test(n)) return 'mri_ct';
  if (/ultrasound|echo/.test(n)) return 'ultrasound';
  if (/ecg|ekg/.test(n)) return 'ecg';
  if (/lab|blood/.test(n)) return 'lab';
  return null;
}

/** What the progress bar shows: the bytes sent, never above 90 % before the server has answered. */
export function shownProgress(loaded: number, total: number, answered: boolean): number {
  if (answered) return 100;
  if (total <= 0) return 0;
  return Math.min(UPLOAD_PROGRESS_CAP, Math.floor((loaded / total) * 100));
}

/** Today in India as YYYY-MM-DD (the server's rule: a report date not after today, India). */
export function todayInIndia(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

// ---- Consultation notes ----

export type Priority = 'low' | 'medium' | 'high' | 'urgent';
export type FollowUp = 'no' | 'routine' | 'urgent';
export type TemplateId = 'general_consultation' | 'follow_up_visit' | 'prescription_renewal' | 'urgent_care';

export interface NotesFields {
  patient_name: string;
  patient_id: string;
  chief_complaint: string;
  clinical_assessment: string;
  treatment_plan: string;
  follow_up_instructions: string;
  additional_notes: string;
  priority_level: Priority;
  follow_up_required: FollowUp;
  template: TemplateId | null;
}

export const emptyNotes = (patientName = '', patientId = ''): NotesFields => ({
  patient_name: patientName,
  patient_id: patientId,
  chief_complaint: '',
  clinical_assessment: '',
  treatment_plan: '',
  follow_up_instructions: '',
  additional_notes: '',
  priority_level: 'medium',
  follow_up_required: 'no',
  template: null,
});

type TemplateText = Pick<NotesFields, 'chief_complaint' | 'clinical_assessment' | 'treatment_plan' | 'follow_up_instructions'>;

/** Seed 001 §3: the four templates with default text for the complaint, assessment, plan and follow-up (message ids). */
export const NOTE_TEMPLATE_TEXTS: Record<TemplateId, Record<'name' | keyof TemplateText, MessageId>> = {
  general_consultation: {
    name: 'records.templateGeneralConsultation',
    chief_complaint: 'records.templateGeneralComplaint',
    clinical_assessment: 'records.templateGeneralAssessment',
    treatment_plan: 'records.templateGeneralPlan',
    follow_up_instructions: 'records.templateGeneralFollowUp',
  },
  follow_up_visit: {
    name: 'records.templateFollowUpVisit',
    chief_complaint: 'records.templateFollowUpComplaint',
    clinical_assessment: 'records.templateFollowUpAssessment',
    treatment_plan: 'records.templateFollowUpPlan',
    follow_up_instructions: 'records.templateFollowUpFollowUp',
  },
  prescription_renewal: {
    name: 'records.templatePrescriptionRenewal',
    chief_complaint: 'records.templateRenewalComplaint',
    clinical_assessment: 'records.templateRenewalAssessment',
    treatment_plan: 'records.templateRenewalPlan',
    follow_up_instructions: 'records.templateRenewalFollowUp',
  },
  urgent_care: {
    name: 'records.templateUrgentCare',
    chief_complaint: 'records.templateUrgentComplaint',
    clinical_assessment: 'records.templateUrgentAssessment',
    treatment_plan: 'records.templateUrgentPlan',
    follow_up_instructions: 'records.templateUrgentFollowUp',
  },
};

/**
 * Seed 001 §4: a template fills only the empty fields (with its text in the language `say` speaks); Urgent Care sets
 * priority and follow-up to urgent, Follow-up Visit sets follow-up to routine.
 */
export function applyTemplate(fields: NotesFields, template: TemplateId, say: Say = englishText): NotesFields {
  const text = NOTE_TEMPLATE_TEXTS[template];
  const fill = (key: keyof TemplateText) => (fields[key].trim() === '' ? say(text[key]) : fields[key]);
  const next: NotesFields = {
    ...fields,
    template,
    chief_complaint: fill('chief_complaint'),
    clinical_assessment: fill('clinical_assessment'),
    treatment_plan: fill('treatment_plan'),
    follow_up_instructions: fill('follow_up_instructions'),
  };
  if (template === 'urgent_care') return { ...next, priority_level: 'urgent', follow_up_required: 'urgent' };
  if (template === 'follow_up_visit') return { ...next, follow_up_required: 'routine' };
  return next;
}

const TEXT_KEYS = ['patient_name', 'patient_id', 'chief_complaint', 'clinical_assessment', 'treatment_plan', 'follow_up_instructions', 'additional_notes'] as const;

/** Seed 001 §5: Save as Draft needs any one text field non-blank. */
export const canSaveDraft = (f: NotesFields) => TEXT_KEYS.some((k) => f[k].trim() !== '');
/** Seed 001 §5: Save Notes needs a patient name plus a chief complaint or a clinical assessment. */
export const canSaveNotes = (f: NotesFields) => f.patient_name.trim() !== '' && (f.chief_complaint.trim() !== '' || f.clinical_assessment.trim() !== '');

/** The notes as the API takes them (blank text as null). */
export function notesBody(f: NotesFields, isDraft: boolean) {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  return {
    patient_name: text(f.patient_name),
    patient_id: text(f.patient_id),
    chief_complaint: text(f.chief_complaint),
    clinical_assessment: text(f.clinical_assessment),
    treatment_plan: text(f.treatment_plan),
    follow_up_instructions: text(f.follow_up_instructions),
    additional_notes: text(f.additional_notes),
    priority_level: f.priority_level,
    follow_up_required: f.follow_up_required,
    template: f.template,
    is_draft: isDraft,
  };
}

/** Saved notes (GET /consultations/{id}/notes) as the modal's fields; none saved reads as the server's empty notes. */
export function savedNotesFields(saved: ConsultationNotesView | null): NotesFields {
  if (!saved) return emptyNotes();
  const text = (v: string | null) => v ?? '';
  return {
    patient_name: text(saved.patient_name),
    patient_id: text(saved.patient_ref),
    chief_complaint: text(saved.chief_complaint),
    clinical_assessment: text(saved.clinical_assessment),
    treatment_plan: text(saved.treatment_plan),
    follow_up_instructions: text(saved.follow_up_instructions),
    additional_notes: text(saved.additional_notes),
    priority_level: saved.priority_level,
    follow_up_required: saved.follow_up_required,
    template: saved.template,
  };
}

/**
 * Only the fields edited since `from` (what was saved when the modal opened), with `is_draft`: the server merges a save
 * into the latest notes, so a field this save leaves out keeps what another surface (the in-call panel) saved since.
 */
export function notesChanges(f: NotesFields, from: NotesFields, isDraft: boolean) {
  const body = notesBody(f, isDraft);
  const base = notesBody(from, isDraft);
  const keys = Object.keys(body) as Array<keyof typeof body>;
  return Object.fromEntries(keys.filter((k) => k === 'is_draft' || body[k] !== base[k]).map((k) => [k, body[k]])) as Partial<typeof body> & { is_draft: boolean };
}

// ---- Quick prescription builder ----

export type Frequency = (typeof FREQUENCIES)[number];
export type DurationUnit = (typeof DURATION_UNITS)[number];

export interface LineDraft {
  medicine: string;
  medicine_id: string | null;
  /** The picked medicine's generic composition (free text has none): what the line is written as. */
  generic_name: string | null;
  /** The strengths the picked catalogue medicine lists (none for free text): the strength is one of them. */
  strengths: string[];
  strength: string;
  /** The picked medicine's form (free text has none). */
  dosage_form: string | null;
  dosage: string;
  frequency: Frequency;
  custom_schedule: string;
  duration_value: number;
  duration_unit: DurationUnit;
  instructions: string;
}

export interface SessionLine {
  medicine_id: string | null;
  medicine: string;
  /** Shown only: the server finds the generic from the catalogue itself. */
  generic_name: string | null;
  strength: string | null;
  dosage_form: string | null;
  dosage: string;
  frequency: Frequency;
  custom_schedule: string | null;
  duration_value: number;
  duration_unit: DurationUnit;
  instructions: string | null;
  /** Seed 001 §3: when it was added (shown as the time of day). */
  addedAt: Date;
}

/** Seed 001 §5: after adding, the form resets to once daily for 1 day. */
export const emptyLine = (): LineDraft => ({ medicine: '', medicine_id: null, generic_name: null, strengths: [], strength: '', dosage_form: null, dosage: '', frequency: 'once_daily', custom_schedule: '', duration_value: 1, duration_unit: 'days', instructions: '' });

/**
 * Seed 001 §5: Add needs a medicine and a dosage (after trimming) and a duration of at least 1; and, for a catalogue
 * medicine listed in several strengths, the one chosen (the server refuses a line without it).
 */
export const canAddLine = (d: LineDraft) =>
  d.medicine.trim() !== '' && d.dosage.trim() !== '' && Number.isFinite(d.duration_value) && d.duration_value >= 1 && (d.strengths.length <= 1 || d.strengths.includes(d.strength));

/** A picked suggestion in the draft: its id, name, generic, form and strengths, the strength chosen when it lists only one. */
export const pickMedicine = (d: LineDraft, m: { id: string; name: string; generic_name?: string; strengths: string[]; dosage_form: string | null }): LineDraft => ({
  ...d,
  medicine: m.name,
  medicine_id: m.id,
  generic_name: m.generic_name ?? null,
  strengths: m.strengths,
  strength: m.strengths.length === 1 ? m.strengths[0]! : '',
  dosage_form: m.dosage_form,
});

/** Typing in the medicine field makes it free text again: no id, form or listed strengths. */
export const typeMedicine = (d: LineDraft, text: string): LineDraft => ({ ...d, medicine: text, medicine_id: null, generic_name: null, strengths: [], strength: d.medicine_id ? '' : d.strength, dosage_form: null });

/** The line as the session list keeps it: the custom schedule only for a custom frequency; instructions optional. */
export function toSessionLine(d: LineDraft, now = new Date()): SessionLine {
  return {
    medicine_id: d.medicine_id,
    medicine: d.medicine.trim(),
    generic_name: d.generic_name,
    strength: d.strength.trim() === '' ? null : d.strength.trim(),
    dosage_form: d.dosage_form,
    dosage: d.dosage.trim(),
    frequency: d.frequency,
    custom_schedule: d.frequency === 'custom' && d.custom_schedule.trim() !== '' ? d.custom_schedule.trim() : null,
    duration_value: Math.floor(d.duration_value),
    duration_unit: d.duration_unit,
    instructions: d.instructions.trim() === '' ? null : d.instructions.trim(),
    addedAt: now,
  };
}

/** A session line as the API's prescription line. */
export const lineBody = ({ addedAt: _addedAt, generic_name: _generic, ...line }: SessionLine) => line;

export const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`);

/** The patient's particulars the Guidelines' e-prescription carries and no profile holds: asked in the builder. */
export const GENDERS = [
  ['female', 'records.genderFemale'],
  ['male', 'records.genderMale'],
  ['other', 'records.genderOther'],
] as const satisfies ReadonlyArray<readonly [string, MessageId]>;
export type Gender = (typeof GENDERS)[number][0];

/** The age as the API takes it: a whole number of years from 0 to 130, or null when blank or not one. */
export function ageBody(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const age = Number(text.trim());
  return age <= 130 ? age : null;
}

/** How a line's medicine reads in the session list: as on the e-prescription, the generic in capitals, the brand after it. */
export const lineLabel = (line: Pick<SessionLine, 'medicine' | 'generic_name' | 'strength' | 'dosage_form'>) => prescribedMedicineLabel(line);

/** The notes as compared for unsaved changes: the fields as the API takes them (blank and spaces alike). */
export const notesKey = (f: NotesFields) => JSON.stringify(notesBody(f, true));

/** Whether two line drafts hold the same input (a line being written differs from emptyLine()). */
export const sameLine = (a: LineDraft, b: LineDraft) => JSON.stringify(a) === JSON.stringify(b);
