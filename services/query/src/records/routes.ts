import { API_TEXTS, RECORD_TEXTS, notFound, recordFileName, attachmentDisposition, type RecordsResponse } from '@telemed/contracts';
import { BlobErasedError, BlobNotFoundError, HttpError, StreamedBody, Subjects, policies, type AccessAudit, type ApiRouter, type BlobStore, type ReadStore } from '@telemed/platform';
import { suggestion, type MedicineCatalogue } from '@telemed/medicines';
import type { AppointmentDoc } from '../projections';
import { CONSULTATION_NOTES, RECORD_FILES, type NotesDoc, type RecordFileDoc } from './projection';
import { NO_STORE, authoredOnly, recordAccessRules } from './access';
import { patientRecords } from './patient-records';
import { prescriptionQueryRoutes } from './prescription-routes';

/** What the record routes need: the read models, the blobs, the audit, and where the product is reached (for links). */
export interface RecordQueryDeps {
  readStore: ReadStore;
  blobs: BlobStore;
  audit: AccessAudit;
  medicines: MedicineCatalogue;
  publicUrl: string;
}

/** The clinical records' reads: a patient's records and their files, e-prescriptions, consultation notes, medicines. */
export function recordQueryRoutes(api: ApiRouter, deps: RecordQueryDeps): void {
  patientRecordRoutes(api, deps);
  prescriptionQueryRoutes(api, deps);
  notesAndMedicineRoutes(api, deps);
}

/** A patient's records, by themself or by those who may read them, and the files of those records. */
function patientRecordRoutes(api: ApiRouter, deps: RecordQueryDeps): void {
  const { readStore } = deps;
  const files = readStore.collection<RecordFileDoc>(RECORD_FILES);
  const { accessTo, AUTHOR, wroteFor, auditRead, erasedFileOnceTheirs, authorOf } = recordAccessRules(readStore, deps.audit);
  const recordsOf = (patientId: string) => patientRecords(readStore, patientId);

  const itemsOf = (r: RecordsResponse) => [...r.reports.map((x) => x.id), ...r.prescriptions.map((x) => x.id), ...r.prescription_files.map((x) => x.id)];

  api.implement('getMyRecords', {
    policy: policies.anyUser,
    handler: async ({ auth }) => ({ body: await recordsOf(auth.user_id), headers: NO_STORE }),
  });

  api.implement('getPatientRecords', {
    policy: policies.anyUser,
    handler: async ({ params, auth, req }) => {
      // Access first: nothing of the patient is loaded for a caller who may not read it, but for a doctor what they wrote.
      const access = await accessTo(auth, params.patient_id);
      if (!access && !(await wroteFor(auth, params.patient_id))) throw notFound(RECORD_TEXTS.patientNotFound);
      const records = access ? await recordsOf(params.patient_id) : authoredOnly(await recordsOf(params.patient_id), auth.user_id);
      if (access !== 'self') await auditRead(auth, req, params.patient_id, access || AUTHOR, 'clinical_records', 'GET /api/v1/patients/:patient_id/records', itemsOf(records));
      return { body: records, headers: NO_STORE };
    },
  });

  api.implement('downloadRecordFile', {
    policy: policies.anyUser,
    handler: async ({ params, auth, req, res }) => {
      const file = await files.get(params.id);
      const access = file && ((await authorOf(file)) === auth.user_id ? AUTHOR : await accessTo(auth, file.patient_id));
      if (file && !access && (await erasedFileOnceTheirs(auth, file))) throw new HttpError(410, RECORD_TEXTS.fileErased);
      if (!file || !access) throw notFound(RECORD_TEXTS.fileNotFound);
      let stream;
      try {
        stream = await deps.blobs.open(file.blob_id);
      } catch (error) {
        if (error instanceof BlobErasedError) throw new HttpError(410, RECORD_TEXTS.fileErased);
        if (error instanceof BlobNotFoundError) throw notFound(RECORD_TEXTS.fileNotFound);
        throw error;
      }
      // Recorded once the file can be given (a refusal shows nothing, so it is not a read), before its first byte.
      if (access !== 'self') {
        try {
          await auditRead(auth, req, file.patient_id, access, 'record_file', 'GET /api/v1/records/files/:id', [file.record_id]);
        } catch (error) {
          stream.destroy();
          throw error;
        }
      }
      // Saved under an extension of the type its content is (never the uploader's .html or .svg for a PDF).
      res.set('Content-Disposition', attachmentDisposition(recordFileName(file.file_name, file.content_type)));
      res.set('Content-Length', String(file.size));
      res.set('Cache-Control', 'private, no-store');
      return { body: new StreamedBody(stream, file.content_type) };
    },
  });
}

/** A consultation's notes for its patient and doctor, and the medicine suggestions a prescription is written with. */
function notesAndMedicineRoutes(api: ApiRouter, deps: RecordQueryDeps): void {
  const { readStore, audit } = deps;
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const notes = readStore.collection<NotesDoc>(CONSULTATION_NOTES);

  api.implement('getConsultationNotes', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ params, auth, req }) => {
      const appointment = await appointments.get(params.appointment_id);
      if (!appointment || (appointment.patient_id !== auth.user_id && appointment.doctor_id !== auth.user_id)) throw notFound(API_TEXTS.appointmentNotFound);
      const doc = await notes.get(params.appointment_id);
      const version = appointment.doctor_id === auth.user_id ? (doc?.draft ?? doc?.final) : doc?.final;
      // "No notes yet" is an ordinary answer to the appointment's own participants, not an error (the in-call panel and
      // the notes modal ask before anything is saved); a patient is told the same while only a draft exists. Anyone
      // else was answered 404 above, so the answer says nothing about whose appointment it is.
      if (!doc || !version) return { body: null, headers: NO_STORE };
      await audit.record(auth, req, { purpose: 'care', resource: 'consultation_notes', route: 'GET /api/v1/consultations/:appointment_id/notes', subjects: new Subjects().add(doc.patient_id, doc.appointment_id) });
      return { body: { appointment_id: doc.appointment_id, patient_id: doc.patient_id, doctor_id: doc.doctor_id, ...version }, headers: NO_STORE };
    },
  });

  api.implement('searchMedicines', {
    policy: policies.anyUser,
    handler: async ({ query }) => ({ body: (await deps.medicines.current()).search(query.q, query.limit).map(suggestion) }),
  });
}
