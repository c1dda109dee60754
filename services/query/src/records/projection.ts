import { ERASED_VALUE, genericKey, recordedConsultation, recordedFileSize, recordedFileType, recordedNotesChoices, type ConsultationNotesView, type EventData, type StoredPrescriptionLine } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import { forEachMatching } from '../projections/in-pages';

export const RECORD_FILES = 'record_files';
export const MEDICAL_REPORTS = 'medical_reports';
export const PRESCRIPTION_FILES = 'prescription_files';
export const PRESCRIPTIONS = 'prescriptions';
export const PRESCRIPTION_VERIFICATIONS = 'prescription_verifications';
export const CONSULTATION_NOTES = 'consultation_notes';
/**
 * The collection of PrescribedMedicineDoc: each medicine (by generic name) a doctor prescribed a patient, under
 * `<patient_id>~<doctor_id>~<genericKey>`, so "did this doctor prescribe this patient this medicine before?" is one get
 * per line of a new prescription, however many prescriptions came before.
 */
export const PRESCRIBED_MEDICINES = 'prescribed_medicines';
export const prescribedMedicineId = (patientId: string, doctorId: string, generic: string) => `${patientId}~${doctorId}~${genericKey(generic)}`;
export interface PrescribedMedicineDoc {
  _id: string;
  patient_id: string;
  /** The latest prescription that held it. */
  prescription_id: string;
}

/** A stored file, its type and size as read back from the event (recordedFileType, recordedFileSize). */
export interface RecordFileDoc extends Omit<EventData<'RecordFileStored'>, 'file_id' | 'size'> {
  _id: string;
  file_id: string;
  size: number;
  uploaded_at: string;
}

/** What a file's fields read as once its key is destroyed: the same whether the read model saw them before or not. */
const ERASED_FILE = { file_name: ERASED_VALUE, content_type: recordedFileType(ERASED_VALUE), size: recordedFileSize(ERASED_VALUE), sha256: ERASED_VALUE };
export interface MedicalReportDoc extends EventData<'MedicalReportUploaded'> {
  _id: string;
  uploaded_at: string;
  position: number;
}
export interface PrescriptionFileDoc extends EventData<'PrescriptionFileUploaded'> {
  _id: string;
  uploaded_at: string;
  position: number;
}
/** A prescription, its consultation's mode and kind read back checked (recordedConsultation: null once unreadable). */
export interface PrescriptionDoc extends Omit<EventData<'PrescriptionIssued'>, 'lines' | 'consultation_mode' | 'consultation_kind'>, ReturnType<typeof recordedConsultation> {
  _id: string;
  lines: StoredPrescriptionLine[];
  issued_at: string;
  position: number;
}
/** What the public verification page may show: the doctor, the date, and that it exists. Nothing of the patient. */
export interface VerificationDoc {
  _id: string;
  prescription_id: string;
  doctor_id: string;
  doctor_name: string;
  doctor_qualification: string;
  doctor_registration_number: string;
  doctor_medical_council: string;
  issued_at: string;
}
type NotesVersion = Omit<ConsultationNotesView, 'appointment_id' | 'patient_id' | 'doctor_id'>;
export interface NotesDoc {
  _id: string;
  appointment_id: string;
  patient_id: string;
  doctor_id: string;
  /** The latest final notes (what the patient reads). */
  final: NotesVersion | null;
  /** The latest draft saved after them (the doctor's work in progress), or null. */
  draft: NotesVersion | null;
}

const blank = (value: string | null) => (value === null ? null : ERASED_VALUE);
/** A prescription's consultation mode and kind once their key is destroyed: as a rebuild would read them. */
const ERASED_CONSULTATION = recordedConsultation({ consultation_mode: ERASED_VALUE, consultation_kind: ERASED_VALUE });

function parseLines(text: string): StoredPrescriptionLine[] {
  try {
    const lines = JSON.parse(text) as unknown;
    return Array.isArray(lines) ? (lines as StoredPrescriptionLine[]) : [];
  } catch {
    return []; // an erased patient's lines read as "[erased]"
  }
}

/**
 * An erasure blanks what was under the person's personal key: the patient's own reports go (their files' names, types,
 * sizes and digests blanked), and a doctor's name on what they issued. Their clinical records (KeyScope 'clinical')
 * stay readable until the retention period ends (eraseClinical).
 */
async function erasePersonal(userId: string, store: CollectionSource): Promise<void> {
  const files = store.collection<RecordFileDoc>(RECORD_FILES);
  await forEachMatching(files, { patient_id: userId, kind: 'report' }, (f) => files.patch(f._id, ERASED_FILE));
  // The patient's own reports go at once (their type and date too, which no longer read): their files, listed by no
  // report, answer 410.
  const reports = store.collection<MedicalReportDoc>(MEDICAL_REPORTS);
  await forEachMatching(reports, { patient_id: userId }, (r) => reports.delete(r._id));
  const prescriptions = store.collection<PrescriptionDoc>(PRESCRIPTIONS);
  await forEachMatching(prescriptions, { doctor_id: userId }, (p) => prescriptions.patch(p._id, { doctor_name: ERASED_VALUE, doctor_contact: blank(p.doctor_contact) }));
  const verifications = store.collection<VerificationDoc>(PRESCRIPTION_VERIFICATIONS);
  await forEachMatching(verifications, { doctor_id: userId }, (v) => verifications.patch(v._id, { doctor_name: ERASED_VALUE }));
}

/** The retention period of an erased patient's clinical records ended (their key is destroyed): blank them too. */
async function eraseClinical(userId: string, store: CollectionSource): Promise<void> {
  const files = store.collection<RecordFileDoc>(RECORD_FILES);
  await forEachMatching(files, { patient_id: userId, kind: 'prescription_file' }, (f) => files.patch(f._id, ERASED_FILE));
  const pfiles = store.collection<PrescriptionFileDoc>(PRESCRIPTION_FILES);
  await forEachMatching(pfiles, { patient_id: userId }, (p) =>
    pfiles.patch(p._id, { patient_name: ERASED_VALUE, patient_ref: blank(p.patient_ref), medication_summary: blank(p.medication_summary), additional_notes: blank(p.additional_notes) }),
  );
  const prescriptions = store.collection<PrescriptionDoc>(PRESCRIPTIONS);
  const verifications = store.collection<VerificationDoc>(PRESCRIPTION_VERIFICATIONS);
  // The medicines they were prescribed go with the prescriptions' lines (their names are in the ids).
  const medicines = store.collection<PrescribedMedicineDoc>(PRESCRIBED_MEDICINES);
  await forEachMatching(medicines, { patient_id: userId }, (m) => medicines.delete(m._id));
  await forEachMatching(prescriptions, { patient_id: userId }, async (p) => {
    await prescriptions.patch(p._id, {
      patient_name: ERASED_VALUE,
      patient_age: blank(p.patient_age),
      patient_gender: blank(p.patient_gender),
      diagnosis: blank(p.diagnosis),
      advice: blank(p.advice),
      follow_up: blank(p.follow_up),
      lines: [],
      ...ERASED_CONSULTATION,
      // The prescriber's registration number as printed (it names the doctor) goes with the record.
      doctor_registration_number: ERASED_VALUE,
    });
    // Its public check still says it was genuine, and by whom as far as that is still known.
    await verifications.patch(p.verification_code, { doctor_registration_number: ERASED_VALUE });
  });
  const notes = store.collection<NotesDoc>(CONSULTATION_NOTES);
  const blankNotes = (n: NotesVersion | null): NotesVersion | null =>
    n && {
      ...n,
      patient_name: blank(n.patient_name),
      patient_ref: blank(n.patient_ref),
      chief_complaint: blank(n.chief_complaint),
      clinical_assessment: blank(n.clinical_assessment),
      treatment_plan: blank(n.treatment_plan),
      follow_up_instructions: blank(n.follow_up_instructions),
      additional_notes: blank(n.additional_notes),
    };
  await forEachMatching(notes, { patient_id: userId }, (n) => notes.patch(n._id, { final: blankNotes(n.final), draft: blankNotes(n.draft) }));
}

/** Clinical records by patient: files, reports, prescription files, e-prescriptions (and their public verification), notes. */
export const clinicalRecordsProjection = defineProjection({
  name: 'clinical_records',
  // 2: an erasure keeps the clinical records (legal hold) until ClinicalRecordsDestroyed.
  // 3: an erasure removes the patient's own reports (whose type and date are encrypted now, so unreadable after it).
  // 4: a file's type and size are encrypted too: read back checked, and blanked with its name when its key goes.
  // 5: a prescription's consultation mode and kind are encrypted too: read back checked, null once their key goes.
  // 6: the prescriber's registration number as printed is under the patient's clinical key: blanked when the hold ends.
  // 7: prescribed_medicines, each medicine a doctor prescribed a patient (a follow-up's refills looked up by id).
  // 8: the free text of notes, e-prescriptions, reports and prescription files is kept sealed (sealedInReadModels).
  // 9: so are the patient's name and details on them, a report's particulars and a stored file's name.
  version: 9,
  collections: [RECORD_FILES, MEDICAL_REPORTS, PRESCRIPTION_FILES, PRESCRIPTIONS, PRESCRIPTION_VERIFICATIONS, CONSULTATION_NOTES, PRESCRIBED_MEDICINES],
  indexes: [
    { collection: RECORD_FILES, field: 'patient_id' },
    // A patient's records newest first.
    { collection: MEDICAL_REPORTS, fields: ['patient_id', 'position'] },
    { collection: PRESCRIPTION_FILES, fields: ['patient_id', 'position'] },
    { collection: PRESCRIPTION_FILES, field: 'doctor_id' },
    { collection: PRESCRIPTIONS, fields: ['patient_id', 'position'] },
    { collection: PRESCRIPTIONS, field: 'doctor_id' },
    { collection: PRESCRIBED_MEDICINES, field: 'patient_id' },
    { collection: PRESCRIPTION_VERIFICATIONS, field: 'doctor_id' },
    { collection: CONSULTATION_NOTES, field: 'patient_id' },
  ],
  handles: ['RecordFileStored', 'MedicalReportUploaded', 'PrescriptionFileUploaded', 'PrescriptionIssued', 'ConsultationNotesSaved', 'PersonalDataErased', 'ClinicalRecordsDestroyed'],
  ignores: [
    'accounts', 'sessions', 'institutions', 'schedule', 'appointments', 'consultations', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed',
    'MedicineCatalogueImported',
  ],
  apply: async (event, store) => {
    const at = event.metadata.occurred_at;
    switch (event.type) {
      case 'PersonalDataErased':
        return erasePersonal(event.data.user_id, store);
      case 'ClinicalRecordsDestroyed':
        return eraseClinical(event.data.user_id, store);
      case 'RecordFileStored':
        return store
          .collection<RecordFileDoc>(RECORD_FILES)
          .put({ _id: event.data.file_id, ...event.data, content_type: recordedFileType(event.data.content_type), size: recordedFileSize(event.data.size), uploaded_at: at });
      case 'MedicalReportUploaded':
        return store.collection<MedicalReportDoc>(MEDICAL_REPORTS).put({ _id: event.data.report_id, ...event.data, uploaded_at: at, position: event.position });
      case 'PrescriptionFileUploaded':
        return store.collection<PrescriptionFileDoc>(PRESCRIPTION_FILES).put({ _id: event.data.record_id, ...event.data, uploaded_at: at, position: event.position });
      case 'PrescriptionIssued': {
        const d = event.data;
        await store.collection<VerificationDoc>(PRESCRIPTION_VERIFICATIONS).put({
          _id: d.verification_code,
          prescription_id: d.prescription_id,
          doctor_id: d.doctor_id,
          doctor_name: d.doctor_name,
          doctor_qualification: d.doctor_qualification,
          doctor_registration_number: d.doctor_registration_number,
          doctor_medical_council: d.doctor_medical_council,
          issued_at: at,
        });
        const lines = parseLines(d.lines);
        const medicines = store.collection<PrescribedMedicineDoc>(PRESCRIBED_MEDICINES);
        for (const line of lines) await medicines.put({ _id: prescribedMedicineId(d.patient_id, d.doctor_id, line.generic_name), patient_id: d.patient_id, prescription_id: d.prescription_id });
        return store.collection<PrescriptionDoc>(PRESCRIPTIONS).put({ _id: d.prescription_id, ...d, ...recordedConsultation(d), lines, issued_at: at, position: event.position });
      }
      case 'ConsultationNotesSaved': {
        const { appointment_id, patient_id, doctor_id, is_draft, ...fields } = event.data;
        const notes = store.collection<NotesDoc>(CONSULTATION_NOTES);
        const version: NotesVersion = { ...fields, ...recordedNotesChoices(fields), is_draft, saved_at: at };
        const doc = (await notes.get(appointment_id)) ?? { _id: appointment_id, appointment_id, patient_id, doctor_id, final: null, draft: null };
        return notes.put(is_draft ? { ...doc, draft: version } : { ...doc, final: version, draft: null });
      }
    }
  },
});
