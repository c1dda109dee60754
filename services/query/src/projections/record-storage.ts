import { defineProjection } from './projection';

export const RECORD_STORAGE = 'record_storage';

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
  /** The position of the latest upload event counted: the write side knows which of its uploads are in. */
  position: number;
}

export const recordStorageProjection = defineProjection({
  name: 'record_storage',
  version: 1,
  collections: [RECORD_STORAGE],
  // An upload is its files (RecordFileStored) then the record naming them, in one append: the record moves the
  // position on, so a document at or past an upload's position (the one its command answered) has counted it.
  handles: ['RecordFileStored', 'MedicalReportUploaded', 'PrescriptionFileUploaded'],
  apply: async (event, store) => {
    if (event.type !== 'RecordFileStored' && event.type !== 'MedicalReportUploaded' && event.type !== 'PrescriptionFileUploaded') return;
    const docs = store.collection<RecordStorageDoc>(RECORD_STORAGE);
    const patientId = event.data.patient_id;
    const doc = (await docs.get(patientId)) ?? { _id: patientId, patient_id: patientId, bytes: 0, files: 0, position: 0 };
    if (doc.position >= event.position) return; // counted already
    const added = event.type === 'RecordFileStored' ? { bytes: doc.bytes + event.data.size, files: doc.files + 1 } : {};
    await docs.put({ ...doc, ...added, position: event.position });
  },
});
