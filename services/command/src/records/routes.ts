import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  API_TEXTS,
  clinicalRecordsSubject,
  RECORD_LIMITS,
  RECORD_TEXTS,
  PRESCRIPTION_FILE_TYPES,
  REPORT_FILE_TYPES,
  DEFAULT_TIMEZONE,
  displayFileName,
  recordFileName,
  prescriptionFileFieldsSchema,
  reportDateProblem,
  reportFieldsSchema,
  storageSize,
  streams,
  z,
  type StoredPrescriptionLine,
} from '@telemed/contracts';
import { HttpError, RequestValidationError, UploadsInFlight, policies, receiveUpload, type ApiRouter, type BlobStore, type EventStore, type StoredBlob, type UploadRules } from '@telemed/platform';
import { DateTime } from 'luxon';
import type { MedicineCatalogue } from '@telemed/medicines';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { handleCommand } from '../decider';
import { appointmentFacts, consultationFoldsOf, consultationStarted } from '../consultations/service';
import { loadUser } from '../users/service';
import { requireConsent } from '../consents/service';
import { notesDecider } from './notes';
import { offerFollowUp, withdrawFollowUp } from '../appointments/follow-ups';
import { prescriptionDecider, type Prescriber } from './prescription';
import { storedLine } from './prescription-lines';
import { mayTieReport, mayUploadPrescriptionFile, uploadDecider } from './uploads';
import { StorageQuota, type StoredBytes } from './storage-quota';

/** What the prescription rules look up by id in the read models (then read on the log). */
export interface RecordLookups {
  /** The latest appointment of this patient with this doctor that started before `before` with a consultation held (its id), or null. */
  earlierConsultation(patientId: string, doctorId: string, before: string): Promise<string | null>;
  /** Which of these generic names this doctor prescribed this patient before (as genericKey gives them). */
  prescribedBefore(patientId: string, doctorId: string, generics: readonly string[]): Promise<string[]>;
  /** The bytes of the patient's record files, as counted by the read model up to a log position (the storage quota). */
  storedBytes(patientId: string): Promise<StoredBytes>;
}

export interface RecordDeps {
  blobs: BlobStore;
  medicines: MedicineCatalogue;
  recordLookups: RecordLookups;
  /** RECORDS_QUOTA_MB in bytes: what one patient's record files may hold; reports past it are refused (413). */
  storageQuotaBytes: number;
}

const fileView = (file: { file_id: string; file_name: string; content_type: string; size: number }) => ({
  ...file,
  download_url: `/api/v1/records/files/${file.file_id}`,
});

/** The form's fields through their schema: 422 in the API's shape when they do not fit. */
function fieldsOf<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === '' ? null : v]));
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw RequestValidationError.fromZod('body', parsed.error);
  return parsed.data;
}

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The patient ID a doctor writes on a record is free text (a clinic's own number, say), shown to the patient with the
 * record; one that is another account of this platform would file, and show, someone else's identity there: 422.
 */
async function refuseOtherPatientsId(eventStore: EventStore, patientRef: string | null | undefined, patientId: string): Promise<void> {
  const ref = patientRef?.trim();
  if (!ref || !ACCOUNT_ID.test(ref) || ref.toLowerCase() === patientId.toLowerCase()) return;
  if ((await eventStore.readStream(streams.user(ref.toLowerCase()), { maxCount: 1 })).length === 0) return;
  throw new RequestValidationError([{ loc: ['body', 'patient_id'], msg: RECORD_TEXTS.patientRefOtherAccount, type: 'value_error' }]);
}

/** The doctor's consultation fee as their profile has it now (0 when they have none). */
async function doctorFee(eventStore: EventStore, doctorId: string): Promise<number> {
  const doctor = await loadUser(eventStore, doctorId);
  return doctor.status === 'registered' ? (doctor.doctor?.consultation_fee ?? 0) : 0;
}

/** The write side of clinical records: notes, e-prescriptions and the two uploads. */
export function recordRoutes(api: ApiRouter, deps: CommandDeps & RecordDeps): void {
  clinicalWritingRoutes(api, deps);
  recordUploadRoutes(api, deps);
}

/** What a doctor writes in a consultation: its notes and its e-prescription. */
function clinicalWritingRoutes(api: ApiRouter, deps: CommandDeps & RecordDeps): void {
  api.implement('saveConsultationNotes', {
    policy: policies.roles('doctor', 'patient'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const appointment = await appointmentFacts(deps.eventStore, params.appointment_id);
      if (appointment?.doctor_id === auth.user_id) await refuseOtherPatientsId(deps.eventStore, body.patient_id, appointment.patient_id);
      // The patient's account name, for a final save that leaves the name out (see notesDecider); read only then.
      let account_name: string | null = null;
      if (appointment?.doctor_id === auth.user_id && body.is_draft !== true && body.patient_name === undefined) {
        const patientUser = await loadUser(deps.eventStore, appointment.patient_id);
        if (patientUser.status === 'registered') account_name = patientUser.name;
      }
      // Asked only where the appointment alone would refuse (cancelled): a consultation that took place keeps its notes.
      const consultation_held = appointment?.status === 'cancelled' && (await consultationStarted(deps.eventStore, params.appointment_id));
      // A follow-up's fee (issue 35) is at most the doctor's own: refused before the notes are saved.
      const doctor_fee = appointment?.doctor_id === auth.user_id ? await doctorFee(deps.eventStore, auth.user_id) : 0;
      if (body.follow_up_fee !== undefined && body.follow_up_fee > doctor_fee) {
        throw new RequestValidationError([{ loc: ['body', 'follow_up_fee'], msg: API_TEXTS.followUpFeeTooHigh(String(doctor_fee)), type: 'value_error' }]);
      }
      const result = await handleCommand(deps.eventStore, streams.consultationNotes(params.appointment_id), notesDecider, {
        type: 'SaveConsultationNotes',
        data: { actor_id: auth.user_id, appointment, notes: body, account_name, consultation_held },
      }, context);
      const is_draft = result.state.status === 'saved' && result.state.latest_draft;
      let position = result.position;
      if (result.state.status === 'saved' && !is_draft) {
        // Final notes offer a follow-up, or now that none is required withdraw an offer not yet taken up (issue 35).
        const followUp =
          result.state.latest.follow_up_required === 'no'
            ? await withdrawFollowUp(deps.eventStore, params.appointment_id, auth.user_id, context)
            : await offerFollowUp(deps.eventStore, params.appointment_id, { doctor_id: auth.user_id, doctor_fee, within_days: body.follow_up_within_days, fee: body.follow_up_fee }, context);
        position = followUp.position ?? position;
      }
      return { body: { appointment_id: params.appointment_id, is_draft, saved_at: context.now.toISOString() }, headers: positionHeader(position) };
    },
  });

  api.implement('issuePrescription', {
    policy: policies.roles('doctor', 'patient'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const appointment = await appointmentFacts(deps.eventStore, params.appointment_id);
      const index = await deps.medicines.current();
      const unknownMedicine = (id: string) => RequestValidationError.fromZod('body', new z.ZodError([{ code: 'custom', path: ['lines'], message: RECORD_TEXTS.unknownMedicine(id), input: id }]));
      const lines: StoredPrescriptionLine[] = body.lines.map((line) => storedLine(line, index, unknownMedicine));
      // Facts for the rules, each from the log: the consultation, the doctor's profile, the patient, their history.
      const consultation = (await consultationFoldsOf(deps.eventStore).current(streams.consultation(params.appointment_id))).state;
      const isDoctor = appointment?.doctor_id === auth.user_id;
      let doctor: Prescriber | null = null;
      let patient = { name: 'Patient', age: body.patient_age === null ? null : String(body.patient_age), gender: body.patient_gender };
      let kind: 'first' | 'follow_up' = 'first';
      const previously: string[] = [];
      if (appointment && isDoctor) {
        const user = await loadUser(deps.eventStore, auth.user_id);
        if (user.status === 'registered' && user.doctor) {
          doctor = { name: user.name, qualification: user.doctor.qualification, registration_number: user.doctor.registration_number, medical_council: user.doctor.medical_council, contact: user.phone_number ?? user.email };
        }
        const patientUser = await loadUser(deps.eventStore, appointment.patient_id);
        if (patientUser.status === 'registered') patient = { ...patient, name: patientUser.name };
        // Exact questions to the read models (an indexed find of one, a get per line), never a window of the history.
        const earlier = await deps.recordLookups.earlierConsultation(appointment.patient_id, appointment.doctor_id, appointment.start);
        if (earlier !== null && earlier !== appointment.appointment_id) kind = 'follow_up';
        previously.push(...(await deps.recordLookups.prescribedBefore(appointment.patient_id, appointment.doctor_id, lines.map((line) => line.generic_name))));
      }
      const prescription_id = randomUUID();
      const verification_code = randomBytes(12).toString('base64url');
      const result = await handleCommand(deps.eventStore, streams.prescription(prescription_id), prescriptionDecider, {
        type: 'IssuePrescription',
        data: {
          prescription_id,
          verification_code,
          actor_id: auth.user_id,
          appointment,
          // Every consultation of this product is a video call (seed 001: a Medical Consultation, video with audio).
          consultation: { held: consultation.status !== 'none', mode: 'video' },
          kind,
          previously_prescribed: previously,
          doctor,
          patient,
          lines,
          diagnosis: body.diagnosis,
          advice: body.advice,
          follow_up: body.follow_up,
        },
      }, context);
      return { body: { prescription_id, verification_code }, headers: positionHeader(result.position) };
    },
  });

}

/** The uploads: a doctor's prescription file and a patient's reports, counted in flight and against the quota. */
function recordUploadRoutes(api: ApiRouter, deps: CommandDeps & RecordDeps): void {
  const store = (subject_id: string) => async (file: { stream: Readable }) => deps.blobs.put(file.stream, { subject_id });
  const discard = async (stored: StoredBlob) => deps.blobs.delete(stored.blob_id);
  const uploads = new UploadsInFlight(RECORD_LIMITS.uploadsInFlightPerUser, RECORD_TEXTS.uploadsInFlight);
  const quota = new StorageQuota(deps.storageQuotaBytes, (patientId) => deps.recordLookups.storedBytes(patientId));

  api.implement('uploadPrescriptionFile', {
    policy: policies.roles('doctor', 'patient'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      // Who may upload is decided before a byte of the body is read.
      const consultation = (await consultationFoldsOf(deps.eventStore).current(streams.consultation(params.appointment_id))).state;
      const consultation_held = consultation.status !== 'none';
      const appointment = mayUploadPrescriptionFile(await appointmentFacts(deps.eventStore, params.appointment_id), auth.user_id, consultation_held);
      const rules: UploadRules<StoredBlob> = {
        fileFields: ['file', 'files'],
        maxFiles: 1,
        maxFileBytes: RECORD_LIMITS.prescriptionFileBytes,
        maxFieldBytes: RECORD_LIMITS.textChars * 4,
        accept: PRESCRIPTION_FILE_TYPES,
        texts: {
          tooLarge: () => RECORD_TEXTS.prescriptionFileTooLarge,
          badType: () => RECORD_TEXTS.prescriptionFileType,
          tooMany: RECORD_TEXTS.oneFileOnly,
          tooManyFields: RECORD_TEXTS.tooManyFields,
          notMultipart: RECORD_TEXTS.multipartRequired,
          malformed: RECORD_TEXTS.uploadPrescriptionFailed,
        },
        // A doctor's prescription is a clinical record: under the key an erasure keeps for the retention period.
        store: store(clinicalRecordsSubject(appointment.patient_id)),
        discard,
      };
      // Counted from before the body is read until the record is written (or the upload fails).
      return uploads.run(auth.user_id, async () => {
        const upload = await receiveUpload(req, rules);
        const [file] = upload.files;
        try {
          if (!file) throw new RequestValidationError([{ loc: ['body', 'file'], msg: RECORD_TEXTS.fileRequired, type: 'missing' }]);
          const fields = fieldsOf(prescriptionFileFieldsSchema, upload.fields);
          await refuseOtherPatientsId(deps.eventStore, fields.patient_id, appointment.patient_id);
          const record_id = randomUUID();
          const stored = { file_id: randomUUID(), blob_id: file.stored.blob_id, file_name: recordFileName(file.file_name, file.content_type), content_type: file.content_type, size: file.stored.size, sha256: file.stored.sha256 };
          const result = await handleCommand(deps.eventStore, streams.prescriptionFile(record_id), uploadDecider, {
            type: 'RecordPrescriptionFile',
            data: { record_id, actor_id: auth.user_id, appointment, consultation_held, file: stored, patient_name: fields.patient_name, patient_ref: fields.patient_id, medication_summary: fields.medication_summary, additional_notes: fields.additional_notes },
          }, context);
          return { status: 201, body: { record_id, file: fileView(stored), uploaded_at: context.now.toISOString() }, headers: positionHeader(result.position) };
        } catch (error) {
          for (const f of upload.files) await discard(f.stored);
          throw error;
        }
      });
    },
  });

  api.implement('uploadReports', {
    policy: policies.roles('patient'),
    handler: async ({ auth, req }) => {
      // Refused before a byte is read: the notice names the reports a patient uploads, and who reads them.
      await requireConsent(deps.eventStore, auth.user_id, 'reports');
      const context = requestContext(req, auth, deps.clock());
      const rules: UploadRules<StoredBlob> = {
        fileFields: ['files', 'file'],
        maxFiles: RECORD_LIMITS.reportFilesPerUpload,
        maxFileBytes: RECORD_LIMITS.reportFileBytes,
        maxFieldBytes: RECORD_LIMITS.textChars * 4,
        accept: REPORT_FILE_TYPES,
        texts: {
          tooLarge: (name) => (name ? RECORD_TEXTS.reportFileTooLarge(displayFileName(name)) : RECORD_TEXTS.reportFileTooLarge('upload')),
          badType: (name) => RECORD_TEXTS.reportFileType(displayFileName(name)),
          tooMany: RECORD_TEXTS.tooManyFiles,
          tooManyFields: RECORD_TEXTS.tooManyFields,
          notMultipart: RECORD_TEXTS.multipartRequired,
          malformed: RECORD_TEXTS.uploadReportsFailed,
        },
        store: store(auth.user_id),
        discard,
      };
      // Counted from before the body is read until the record is written (or the upload fails).
      return uploads.run(auth.user_id, async () => {
        // The patient's storage quota: what their records hold (one read-model document) and their uploads under way
        // here; full, the upload is refused before a byte of it is read; past it while it flows, 413 and nothing kept.
        const claim = await quota.claim(auth.user_id);
        const limit = storageSize(quota.limitBytes);
        const room = claim.room();
        let upload: Awaited<ReturnType<typeof receiveUpload<StoredBlob>>>;
        try {
          if (room <= 0) throw new HttpError(413, RECORD_TEXTS.storageFull(limit), { Connection: 'close' });
          upload = await receiveUpload(req, { ...rules, total: { room, take: (bytes) => claim.take(bytes), exceeded: RECORD_TEXTS.storageExceeded(storageSize(room), limit) } });
        } catch (error) {
          claim.release();
          throw error;
        }
        try {
          if (upload.files.length === 0) throw new RequestValidationError([{ loc: ['body', 'files'], msg: RECORD_TEXTS.fileRequired, type: 'missing' }]);
          const fields = fieldsOf(reportFieldsSchema, upload.fields);
          const today = DateTime.fromJSDate(context.now, { zone: DEFAULT_TIMEZONE }).toISODate()!;
          const dateProblem = reportDateProblem(fields.report_date, today);
          if (dateProblem) throw new RequestValidationError([{ loc: ['body', 'report_date'], msg: dateProblem, type: 'value_error' }]);
          const appointment = fields.appointment_id ? await appointmentFacts(deps.eventStore, fields.appointment_id) : null;
          mayTieReport(appointment, fields.appointment_id, auth.user_id);
          const report_id = randomUUID();
          const files = upload.files.map((f) => ({ file_id: randomUUID(), blob_id: f.stored.blob_id, file_name: recordFileName(f.file_name, f.content_type), content_type: f.content_type, size: f.stored.size, sha256: f.stored.sha256 }));
          const result = await handleCommand(deps.eventStore, streams.medicalReport(report_id), uploadDecider, {
            type: 'RecordMedicalReport',
            data: { actor_id: auth.user_id, appointment, files, report_id, ...fields },
          }, context);
          claim.settle(result.position);
          return {
            status: 201,
            body: { report_id, files: files.map(fileView), total_size: files.reduce((n, f) => n + f.size, 0), uploaded_at: context.now.toISOString() },
            headers: positionHeader(result.position),
          };
        } catch (error) {
          claim.release();
          for (const f of upload.files) await discard(f.stored);
          throw error;
        }
      });
    },
  });
}
