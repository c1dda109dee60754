import { recordedFileSize } from '@telemed/contracts';
import { defineProjection } from '../projections/projection';

export const RECORD_STORAGE = 'record_storage';

type FileKind = 'report' | 'prescription_file';

/**
 * What one patient's records hold in files: the bytes (plain, before encryption) and the count of every file stored
 * under them (their reports and their doctors' prescription files), and the log position of the latest. One document
 * per patient, so the storage quota's check reads one document however long the history.
 */
export interface RecordStorageDoc {
  _id: string;
  patient_id: string;
  bytes: number;
  files: number;
  /** The same by kind: an erasure ends one kind's files (their key destroyed), so its count goes with them. */
  by_kind: Record<FileKind, { bytes: number; files: number }>;
  /** The position of the latest upload event counted: the write side knows which of its uploads are in. */
  position: number;
}

const none = () => ({ bytes: 0, files: 0 });

/** The totals of `by_kind`, with the position. */
function storage(patientId: string, byKind: RecordStorageDoc['by_kind'], position: number): RecordStorageDoc {
  const kinds = Object.values(byKind);
  return {
    _id: patientId,
    patient_id: patientId,
    bytes: kinds.reduce((n, k) => n + k.bytes, 0),
    files: kinds.reduce((n, k) => n + k.files, 0),
    by_kind: byKind,
    position,
  };
}

export const recordStorageProjection = defineProjection({
  name: 'record_storage',
  // 2: sizes are ciphertext in the log (read back through recordedFileSize); counted by kind, and a kind whose key an
  // erasure destroys (the patient's reports at PersonalDataErased, prescription files at ClinicalRecordsDestroyed) is
  // counted no more, so a rebuild after the erasure (when those sizes no longer read) gives the same documents.
  version: 2,
  collections: [RECORD_STORAGE],
  // An upload is its files (RecordFileStored) then the record naming them, in one append: the record moves the
  // position on, so a document at or past an upload's position (the one its command answered) has counted it.
  handles: ['RecordFileStored', 'MedicalReportUploaded', 'PrescriptionFileUploaded', 'PersonalDataErased', 'ClinicalRecordsDestroyed'],
  ignores: [
    'accounts', 'sessions', 'institutions', 'schedule', 'appointments', 'consultations', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed',
    'ConsultationNotesSaved', 'PrescriptionIssued', 'MedicineCatalogueImported',
  ],
  apply: async (event, store) => {
    const docs = store.collection<RecordStorageDoc>(RECORD_STORAGE);
    if (event.type === 'PersonalDataErased' || event.type === 'ClinicalRecordsDestroyed') {
      const doc = await docs.get(event.data.user_id);
      if (!doc || doc.position >= event.position) return;
      const ended: FileKind = event.type === 'PersonalDataErased' ? 'report' : 'prescription_file';
      return docs.put(storage(doc.patient_id, { ...doc.by_kind, [ended]: none() }, event.position));
    }
    if (event.type !== 'RecordFileStored' && event.type !== 'MedicalReportUploaded' && event.type !== 'PrescriptionFileUploaded') return;
    const patientId = event.data.patient_id;
    const doc = (await docs.get(patientId)) ?? storage(patientId, { report: none(), prescription_file: none() }, 0);
    if (doc.position >= event.position) return; // counted already
    if (event.type !== 'RecordFileStored') return docs.put({ ...doc, position: event.position });
    const kind = doc.by_kind[event.data.kind];
    const byKind = { ...doc.by_kind, [event.data.kind]: { bytes: kind.bytes + recordedFileSize(event.data.size), files: kind.files + 1 } };
    return docs.put(storage(patientId, byKind, event.position));
  },
});
