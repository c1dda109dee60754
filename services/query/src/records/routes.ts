import { DateTime } from 'luxon';
import {
  API_TEXTS,
  ERASED_VALUE,
  DEFAULT_TIMEZONE,
  attachmentDisposition,
  genericKey,
  prescribedMedicineLabel,
  RECORD_TEXTS,
  REPORT_TYPES,
  REPORT_TYPE_IDS,
  consultationNotesViewSchema,
  medicineSearchQuerySchema,
  medicineSuggestionSchema,
  notFound,
  prescriptionVerificationSchema,
  prescriptionViewSchema,
  recordFileName,
  recordIdParamsSchema,
  recordParamsSchema,
  recordsResponseSchema,
  z,
  type AccessResource,
  type PrescriptionView,
  type RecordsResponse,
  type ReportTypeId,
  instantRange,
} from '@telemed/contracts';
import { BlobErasedError, BlobNotFoundError, HttpError, StreamedBody, policies, type AccessClaims, type ApiRouter, type BlobStore, type ReadStore } from '@telemed/platform';
import type { Request } from 'express';
import type { AppointmentDoc, UserDoc } from '../projections';
import type { ConsentDoc } from '../consents/projection';
import {
  CONSULTATION_NOTES,
  MEDICAL_REPORTS,
  PRESCRIBED_MEDICINES,
  prescribedMedicineId,
  type PrescribedMedicineDoc,
  PRESCRIPTIONS,
  PRESCRIPTION_FILES,
  PRESCRIPTION_VERIFICATIONS,
  RECORD_FILES,
  type MedicalReportDoc,
  type NotesDoc,
  type PrescriptionDoc,
  type PrescriptionFileDoc,
  type RecordFileDoc,
  type VerificationDoc,
} from './projection';
import { RECORD_STORAGE, type RecordStorageDoc } from './storage-projection';
import { institutionLookups } from '../institutions/routes';
import { Subjects, type AccessAudit } from '@telemed/platform';
import { renderPrescriptionPdf } from './prescription-pdf';
import { suggestion, type MedicineCatalogue } from '@telemed/medicines';

/**
 * Health data is never kept by a cache: not by a proxy, nor in the browser's disk cache of a shared clinic computer
 * after its user signed out (a JSON answer with an ETag is otherwise stored and revalidated).
 */
const NO_STORE = { 'Cache-Control': 'private, no-store' };
const REPORT_NAMES = Object.fromEntries(REPORT_TYPES.map((t) => [t.id, t.name])) as Record<string, string>;
const SEEN = new Set(['confirmed', 'completed']);

/** What the record routes need: the read models, the blobs, the audit, and where the product is reached (for links). */
export interface RecordQueryDeps {
  readStore: ReadStore;
  blobs: BlobStore;
  audit: AccessAudit;
  medicines: MedicineCatalogue;
  publicUrl: string;
}

/**
 * What the write side asks the read models before a prescription: each an indexed question that costs what it answers,
 * whatever the patient's history with the doctor.
 */
export function recordLookups(readStore: ReadStore) {
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const medicines = readStore.collection<PrescribedMedicineDoc>(PRESCRIBED_MEDICINES);
  const storage = readStore.collection<RecordStorageDoc>(RECORD_STORAGE);
  return {
    /** The latest appointment of this patient with this doctor that started before `before` and whose consultation was held (its id), or null. */
    earlierConsultation: async (patientId: string, doctorId: string, before: string) =>
      (await appointments.find({ patient_id: patientId, doctor_id: doctorId, consultation_held: true, start: instantRange({ lt: before }) }, { sort: { start: -1 }, limit: 1 }))[0]?._id ?? null,
    /** Which of these generic names this doctor prescribed this patient before (one get each). */
    prescribedBefore: async (patientId: string, doctorId: string, generics: readonly string[]) => {
      const found = await Promise.all(generics.map(async (generic) => ((await medicines.get(prescribedMedicineId(patientId, doctorId, generic))) ? genericKey(generic) : null)));
      return found.filter((key): key is string => key !== null);
    },
    /** The bytes of the patient's files counted so far, and the log position they are counted up to (0: none). */
    storedBytes: async (patientId: string) => {
      const doc = await storage.get(patientId);
      return { bytes: doc?.bytes ?? 0, position: doc?.position ?? 0 };
    },
  };
}

export function recordQueryRoutes(api: ApiRouter, deps: RecordQueryDeps): void {
  const { readStore, audit } = deps;
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const files = readStore.collection<RecordFileDoc>(RECORD_FILES);
  const prescriptions = readStore.collection<PrescriptionDoc>(PRESCRIPTIONS);
  const verifications = readStore.collection<VerificationDoc>(PRESCRIPTION_VERIFICATIONS);
  const notes = readStore.collection<NotesDoc>(CONSULTATION_NOTES);
  const prescriptionFiles = readStore.collection<PrescriptionFileDoc>(PRESCRIPTION_FILES);
  const users = readStore.collection<UserDoc>('users');
  const consents = readStore.collection<ConsentDoc>('consents');
  const institutions = institutionLookups(readStore);

  /**
   * May this caller read this patient's records, and why? The patient themself; a doctor with a confirmed or
   * completed appointment with them (care); a clinic's doctors allowed to read its appointments, for a patient with a
   * confirmed or completed appointment their institution's console lists (institution_appointments: its doctor was its
   * doctor when it was requested) with a doctor still its member (institution audit): a request alone, rejected or
   * never answered, opens the patient's records to the doctor's institution no more than to the doctor. A clinic's
   * members who are not doctors (its administrators, front desk) manage its appointments, never read clinical records:
   * they have no need to know. And all of it rests on the patient's consent: once they have withdrawn every agreement
   * to the notice, nobody reads their records for care or audit (the authors keep reading what they wrote: AUTHOR).
   * Anyone else: null.
   *
   * The work starts from the caller, never from the patient: the doctor's own appointments with them (the
   * (patient_id, doctor_id) index), or the patient's entries in the caller's institutions' lists. So a caller with no tie to the
   * patient is answered without a read of anything of theirs, in a time that does not follow how much they hold.
   */
  async function accessTo(auth: AccessClaims, patientId: string): Promise<{ purpose: 'care' | 'institution_audit'; institution: { id: string; role: string } | null } | 'self' | null> {
    if (auth.user_id === patientId) return 'self';
    // An erased patient's records kept under the legal hold are their authors' alone (AUTHOR below): nobody cares for
    // an erased person any more, and no institution audits them.
    if (auth.account_type !== 'doctor') return null;
    if ((await users.get(patientId))?.erased_at) return null;
    const seen = (await appointments.find({ patient_id: patientId, doctor_id: auth.user_id, status: { $in: [...SEEN] } }, { limit: 1 })).length > 0;
    // The institution's console decides which appointments it reads (institution_appointments); the records follow it.
    const through = seen ? null : await institutions.institutionReadingPatient(auth.user_id, patientId);
    if (!seen && !through) return null;
    if (!(await consentsToCare(patientId))) return null;
    return seen ? { purpose: 'care', institution: null } : { purpose: 'institution_audit', institution: through };
  }

  /** Whether the patient holds an agreement to the notice they have not withdrawn (any version: a new notice asks them again before their next booking, it does not shut their doctors out). */
  async function consentsToCare(patientId: string): Promise<boolean> {
    return (await consents.find({ user_id: patientId, withdrawn_at: null }, { limit: 1 })).length > 0;
  }

  type Access = Exclude<Awaited<ReturnType<typeof accessTo>>, 'self' | null>;

  /**
   * The doctor who wrote a record reads it whatever became of the appointment (cancelled, its patient erased): they keep
   * it under the Guidelines' hold. Only their own records, and only on their own access.
   */
  const AUTHOR: Access = { purpose: 'care', institution: null };

  /** Whether this doctor wrote any of the patient's records (an e-prescription or a prescription file). */
  async function wroteFor(auth: AccessClaims, patientId: string): Promise<boolean> {
    if (auth.account_type !== 'doctor') return false;
    const mine = { patient_id: patientId, doctor_id: auth.user_id };
    const [files, issued] = await Promise.all([prescriptionFiles.find(mine, { limit: 1 }), prescriptions.find(mine, { limit: 1 })]);
    return files.length + issued.length > 0;
  }

  /** The patient's records this doctor wrote: their e-prescriptions and prescription files (never the patient's reports). */
  function authoredOnly(records: RecordsResponse, doctorId: string): RecordsResponse {
    return { ...records, reports: [], prescriptions: records.prescriptions.filter((p) => p.doctor_id === doctorId), prescription_files: records.prescription_files.filter((p) => p.doctor_id === doctorId) };
  }

  /** The read of another person's records, on their access log (before the answer leaves). */
  async function auditRead(auth: AccessClaims, req: Request, patientId: string, access: Access, resource: AccessResource, route: string, items: string[]) {
    const subjects = new Subjects();
    for (const item of items.length ? items : ['records']) subjects.add(patientId, item);
    await audit.record(auth, req, { purpose: access.purpose, resource, route, institution: access.institution, subjects });
  }

  async function recordAccess(auth: AccessClaims, req: Request, patientId: string, resource: AccessResource, route: string, items: string[]) {
    const access = await accessTo(auth, patientId);
    if (!access) return null;
    if (access !== 'self') await auditRead(auth, req, patientId, access, resource, route, items);
    return access;
  }

  const recordsOf = (patientId: string) => patientRecords(readStore, patientId);

  const itemsOf = (r: RecordsResponse) => [...r.reports.map((x) => x.id), ...r.prescriptions.map((x) => x.id), ...r.prescription_files.map((x) => x.id)];

  api.route({
    method: 'get',
    path: '/records/me',
    summary: "The caller's medical records as a patient: reports, prescriptions and prescription files, newest first",
    tags: ['records'],
    policy: policies.anyUser,
    response: recordsResponseSchema,
    handler: async ({ auth }) => ({ body: await recordsOf(auth.user_id), headers: NO_STORE }),
  });

  api.route({
    method: 'get',
    path: '/patients/:patient_id/records',
    summary: "A patient's records: their doctors (a confirmed or completed appointment), or institution staff allowed to read appointments of their doctors' patients (audited)",
    tags: ['records'],
    policy: policies.anyUser,
    params: z.object({ patient_id: z.string().min(1).max(64) }),
    response: recordsResponseSchema,
    errors: [404, 503],
    handler: async ({ params, auth, req }) => {
      // Access first: nothing of the patient is loaded for a caller who may not read it, but for a doctor what they wrote.
      const access = await accessTo(auth, params.patient_id);
      if (!access && !(await wroteFor(auth, params.patient_id))) throw notFound(RECORD_TEXTS.patientNotFound);
      const records = access ? await recordsOf(params.patient_id) : authoredOnly(await recordsOf(params.patient_id), auth.user_id);
      if (access !== 'self') await auditRead(auth, req, params.patient_id, access || AUTHOR, 'clinical_records', 'GET /api/v1/patients/:patient_id/records', itemsOf(records));
      return { body: records, headers: NO_STORE };
    },
  });

  api.route({
    method: 'get',
    path: '/records/files/:id',
    summary: 'Download a file of a record (its patient, or those who may read their records): its stored type, as an attachment',
    tags: ['records'],
    policy: policies.anyUser,
    params: recordIdParamsSchema,
    errors: [404, 410, 503],
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

  /**
   * A file erased with its patient's data, asked for by a doctor who had an appointment with that patient (the erasure
   * closed it, so whatever its status now: who could read the file before holds its link): it is gone, not unknown.
   * Anyone else learns nothing of it (404).
   */
  async function erasedFileOnceTheirs(auth: AccessClaims, file: RecordFileDoc): Promise<boolean> {
    if (file.file_name !== ERASED_VALUE || auth.account_type !== 'doctor') return false;
    return (await appointments.find({ patient_id: file.patient_id, doctor_id: auth.user_id }, { limit: 1 })).length > 0;
  }

  /** The doctor who uploaded a prescription file's file (a report's files are the patient's: null). */
  async function authorOf(file: RecordFileDoc): Promise<string | null> {
    return file.kind === 'prescription_file' ? ((await prescriptionFiles.get(file.record_id))?.doctor_id ?? null) : null;
  }

  async function prescriptionFor(id: string, auth: AccessClaims, req: Request, route: string): Promise<PrescriptionView> {
    const doc = await prescriptions.get(id);
    const access = doc && (doc.doctor_id === auth.user_id ? 'prescriber' : await recordAccess(auth, req, doc.patient_id, 'prescription', route, [doc._id]));
    if (!doc || !access) throw notFound(RECORD_TEXTS.prescriptionNotFound);
    if (access === 'prescriber') {
      await audit.record(auth, req, { purpose: 'care', resource: 'prescription', route, subjects: new Subjects().add(doc.patient_id, doc._id) });
    }
    return prescriptionView(doc, deps.publicUrl);
  }

  api.route({
    method: 'get',
    path: '/prescriptions/:id',
    summary: 'An e-prescription (its patient, its doctor, or those who may read the patient\'s records)',
    tags: ['records'],
    policy: policies.anyUser,
    params: recordIdParamsSchema,
    response: prescriptionViewSchema,
    errors: [404, 503],
    handler: async ({ params, auth, req }) => ({ body: await prescriptionFor(params.id, auth, req, 'GET /api/v1/prescriptions/:id'), headers: NO_STORE }),
  });

  api.route({
    method: 'get',
    path: '/prescriptions/:id/pdf',
    summary: 'The e-prescription as a PDF in the Telemedicine Practice Guidelines 2020 format, with its verification QR code',
    tags: ['records'],
    policy: policies.anyUser,
    params: recordIdParamsSchema,
    errors: [404, 503],
    handler: async ({ params, auth, req, res }) => {
      const view = await prescriptionFor(params.id, auth, req, 'GET /api/v1/prescriptions/:id/pdf');
      res.set('Content-Disposition', `attachment; filename="prescription-${view.prescription_id}.pdf"`);
      res.set('Cache-Control', 'private, no-store');
      return { body: new StreamedBody(await renderPrescriptionPdf(view), 'application/pdf') };
    },
  });

  api.route({
    method: 'get',
    path: '/verify/:code',
    summary: "Public check of a prescription's QR code: only the doctor, the date and whether it is genuine (nothing of the patient)",
    tags: ['records'],
    policy: policies.public,
    params: z.object({ code: z.string().min(1).max(64) }),
    response: prescriptionVerificationSchema,
    handler: async ({ params }): Promise<{ body: z.infer<typeof prescriptionVerificationSchema> }> => {
      const found = await verifications.get(params.code);
      if (!found) return { body: { genuine: false, doctor: null, issued_on: null } };
      return {
        body: {
          genuine: true,
          doctor: { name: found.doctor_name, qualification: found.doctor_qualification, registration_number: found.doctor_registration_number, medical_council: found.doctor_medical_council },
          // The date in India, as the PDF prints it (a UTC date would be the day before for anything issued before 05:30).
          issued_on: DateTime.fromISO(found.issued_at, { zone: DEFAULT_TIMEZONE }).toISODate()!,
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/consultations/:appointment_id/notes',
    summary:
      "The consultation's notes: its doctor gets the latest save (a draft when one is newer), its patient only the final notes; null while there are none (for the patient: no final notes yet)",
    tags: ['records'],
    policy: policies.roles('patient', 'doctor'),
    params: recordParamsSchema,
    response: consultationNotesViewSchema.nullable(),
    errors: [404, 503],
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

  api.route({
    method: 'get',
    path: '/medicines/search',
    summary: 'Medicine suggestions (NLEM 2022 and the clinic\'s brand catalogue): prefix matches, then word starts, then substrings; one typo tolerated from 4 letters',
    tags: ['records'],
    policy: policies.anyUser,
    query: medicineSearchQuerySchema,
    response: z.array(medicineSuggestionSchema),
    handler: async ({ query }) => ({ body: (await deps.medicines.current()).search(query.q, query.limit).map(suggestion) }),
  });
}

/**
 * A patient's records for their own export (issue 12's right of access): their reports, prescription files and
 * e-prescriptions in full, and the final notes of their consultations (never a draft). Only records whose patient is
 * `patientId`; each record's `id` (the access log's item) lets the export say who read it.
 */
export async function recordsForExport(readStore: ReadStore, patientId: string, publicUrl: string) {
  const [records, prescriptionDocs, notes] = await Promise.all([
    patientRecords(readStore, patientId),
    readStore.collection<PrescriptionDoc>(PRESCRIPTIONS).find({ patient_id: patientId }, { sort: { position: -1 } }),
    readStore.collection<NotesDoc>(CONSULTATION_NOTES).find({ patient_id: patientId }),
  ]);
  return {
    reports: records.reports,
    prescriptions: prescriptionDocs.map((doc) => ({ ...prescriptionView(doc, publicUrl), pdf_url: `/api/v1/prescriptions/${doc._id}/pdf` })),
    prescription_files: records.prescription_files,
    consultation_notes: notes
      .flatMap((n) => (n.final ? [{ appointment_id: n.appointment_id, patient_id: n.patient_id, doctor_id: n.doctor_id, ...n.final }] : []))
      .sort((a, b) => (a.saved_at < b.saved_at ? 1 : a.saved_at > b.saved_at ? -1 : 0)),
  };
}

/** The file as its record lists it (the name the uploader gave, shown; never a path). */
const fileView = (f: RecordFileDoc) => ({ file_id: f.file_id, file_name: recordFileName(f.file_name, f.content_type), content_type: f.content_type, size: f.size, download_url: `/api/v1/records/files/${f.file_id}` });

/** A patient's reports, prescriptions and prescription files, newest first (what /records/me and the export list). */
async function patientRecords(readStore: ReadStore, patientId: string): Promise<RecordsResponse> {
  const reports = readStore.collection<MedicalReportDoc>(MEDICAL_REPORTS);
  const prescriptions = readStore.collection<PrescriptionDoc>(PRESCRIPTIONS);
  const prescriptionFiles = readStore.collection<PrescriptionFileDoc>(PRESCRIPTION_FILES);
  const files = readStore.collection<RecordFileDoc>(RECORD_FILES);
  const [reportDocs, prescriptionDocs, fileDocs, allFiles] = await Promise.all([
    reports.find({ patient_id: patientId }, { sort: { position: -1 } }),
    prescriptions.find({ patient_id: patientId }, { sort: { position: -1 } }),
    prescriptionFiles.find({ patient_id: patientId }, { sort: { position: -1 } }),
    files.find({ patient_id: patientId }),
  ]);
  const byId = new Map(allFiles.map((f) => [f.file_id, f]));
  return {
    patient_id: patientId,
    // A report whose type does not read as one (an erased patient's: their reports leave the read model) is not listed.
    reports: reportDocs.filter((r): r is MedicalReportDoc & { report_type: ReportTypeId } => (REPORT_TYPE_IDS as readonly string[]).includes(r.report_type)).map((r) => {
      const list = r.file_ids.map((id) => byId.get(id)).filter((f): f is RecordFileDoc => Boolean(f)).map(fileView);
      return {
        kind: 'report' as const,
        id: r._id,
        patient_id: r.patient_id,
        appointment_id: r.appointment_id,
        report_type: r.report_type,
        report_type_name: REPORT_NAMES[r.report_type] ?? r.report_type,
        report_date: r.report_date,
        medical_facility: r.medical_facility,
        doctor_name: r.doctor_name,
        report_summary: r.report_summary,
        additional_notes: r.additional_notes,
        files: list,
        total_size: list.reduce((n, f) => n + f.size, 0),
        uploaded_at: r.uploaded_at,
      };
    }),
    prescriptions: prescriptionDocs.map((p) => ({
      kind: 'prescription' as const,
      id: p._id,
      patient_id: p.patient_id,
      doctor_id: p.doctor_id,
      doctor_name: p.doctor_name,
      appointment_id: p.appointment_id,
      diagnosis: p.diagnosis,
      // As the prescription prints it: the generic in capitals, its strength and form, the brand after it.
      medicines: p.lines.map((l) => ({ medicine: prescribedMedicineLabel(l), dosage: l.dosage, frequency: l.frequency })),
      issued_at: p.issued_at,
      pdf_url: `/api/v1/prescriptions/${p._id}/pdf`,
    })),
    prescription_files: fileDocs.flatMap((p) => {
      const file = byId.get(p.file_id);
      if (!file) return [];
      return [
        {
          kind: 'prescription_file' as const,
          id: p._id,
          patient_id: p.patient_id,
          doctor_id: p.doctor_id,
          appointment_id: p.appointment_id,
          patient_name: p.patient_name,
          patient_ref: p.patient_ref,
          medication_summary: p.medication_summary,
          additional_notes: p.additional_notes,
          file: fileView(file),
          uploaded_at: p.uploaded_at,
        },
      ];
    }),
  };
}

/** An e-prescription as its readers get it: the Guidelines' particulars, its lines, and the public verification link. */
export function prescriptionView(doc: PrescriptionDoc, publicUrl: string): PrescriptionView {
  return {
    prescription_id: doc._id,
    appointment_id: doc.appointment_id,
    patient_id: doc.patient_id,
    doctor_id: doc.doctor_id,
    issued_at: doc.issued_at,
    verification_code: doc.verification_code,
    verification_url: `${publicUrl}/verify/${doc.verification_code}`,
    consultation_mode: doc.consultation_mode,
    consultation_kind: doc.consultation_kind,
    doctor: { name: doc.doctor_name, qualification: doc.doctor_qualification, registration_number: doc.doctor_registration_number, medical_council: doc.doctor_medical_council, contact: doc.doctor_contact },
    patient: { name: doc.patient_name, age: doc.patient_age === null ? null : Number(doc.patient_age) || null, gender: doc.patient_gender },
    diagnosis: doc.diagnosis,
    advice: doc.advice,
    follow_up: doc.follow_up,
    lines: doc.lines,
  };
}
