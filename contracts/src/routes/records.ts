import { z } from '../zod';
import {
  consultationNotesSchema,
  consultationNotesViewSchema,
  issuePrescriptionSchema,
  medicineSearchQuerySchema,
  medicineSuggestionSchema,
  prescriptionFileFieldsSchema,
  prescriptionVerificationSchema,
  prescriptionViewSchema,
  recordIdParamsSchema,
  recordParamsSchema,
  recordsResponseSchema,
  reportFieldsSchema,
  uploadPrescriptionFileResponseSchema,
  uploadReportResponseSchema,
} from '../records';
import { defineRoutes } from './define';

/** A save of a consultation's notes: whether they are now a draft, and when. */
export const notesSavedSchema = z.object({ appointment_id: z.string(), is_draft: z.boolean(), saved_at: z.string() }).openapi('NotesSaveResult');
/** An issued e-prescription: its id and the code its QR carries. */
export const prescriptionIssuedSchema = z.object({ prescription_id: z.string(), verification_code: z.string() }).openapi('IssuedPrescription');

/** The records area's routes: schemas and answers (their names, methods and paths are in paths/records.ts). */
export const recordsRoutes = defineRoutes({
  saveConsultationNotes: {
    summary:
      "Save the consultation's notes (the appointment's doctor; `is_draft` true for Save as Draft, left out to keep the notes' state). Merged into the latest save: a field left out keeps its value, null or blank clears it",
    tags: ['records'],
    params: recordParamsSchema,
    body: consultationNotesSchema,
    response: notesSavedSchema,
    errors: [403, 404, 409],
  },
  getConsultationNotes: {
    summary:
      "The consultation's notes: its doctor gets the latest save (a draft when one is newer), its patient only the final notes; null while there are none (for the patient: no final notes yet)",
    tags: ['records'],
    params: recordParamsSchema,
    response: consultationNotesViewSchema.nullable(),
    errors: [404, 503],
  },
  issuePrescription: {
    summary: "Issue an e-prescription (the appointment's doctor, on a consultation held or under way; Telemedicine Practice Guidelines 2020 lists)",
    tags: ['records'],
    params: recordParamsSchema,
    body: issuePrescriptionSchema,
    response: prescriptionIssuedSchema,
    successStatus: 201,
    errors: [400, 403, 404, 409],
  },
  uploadPrescriptionFile: {
    summary:
      "Upload the doctor's scanned or signed prescription (multipart: `file`, 10 MB, PDF/JPG/PNG/DOC/DOCX by content; patient_name, patient_id?, medication_summary, additional_notes)",
    tags: ['records'],
    params: recordParamsSchema,
    multipart: prescriptionFileFieldsSchema,
    response: uploadPrescriptionFileResponseSchema,
    successStatus: 201,
    errors: [403, 404, 409, 413, 415, 429],
  },
  uploadReports: {
    summary:
      "Upload the patient's reports (multipart: `files` repeated, 20 MB each, PDF/JPG/PNG/DOC/DOCX/DICOM by content; report_type, report_date, medical_facility, doctor_name, report_summary, additional_notes, appointment_id?)",
    tags: ['records'],
    multipart: reportFieldsSchema,
    response: uploadReportResponseSchema,
    successStatus: 201,
    errors: [403, 404, 413, 415, 429],
  },
  getMyRecords: {
    summary: "The caller's medical records as a patient: reports, prescriptions and prescription files, newest first",
    tags: ['records'],
    response: recordsResponseSchema,
  },
  getPatientRecords: {
    summary:
      "A patient's records: their doctors (a confirmed or completed appointment), or institution staff allowed to read appointments of their doctors' patients (audited)",
    tags: ['records'],
    params: z.object({ patient_id: z.string().min(1).max(64) }),
    response: recordsResponseSchema,
    errors: [404, 503],
  },
  downloadRecordFile: {
    summary: 'Download a file of a record (its patient, or those who may read their records): its stored type, as an attachment',
    tags: ['records'],
    params: recordIdParamsSchema,
    errors: [404, 410, 503],
  },
  getPrescription: {
    summary: "An e-prescription (its patient, its doctor, or those who may read the patient's records)",
    tags: ['records'],
    params: recordIdParamsSchema,
    response: prescriptionViewSchema,
    errors: [404, 503],
  },
  getPrescriptionPdf: {
    summary: 'The e-prescription as a PDF in the Telemedicine Practice Guidelines 2020 format, with its verification QR code',
    tags: ['records'],
    params: recordIdParamsSchema,
    errors: [404, 503],
  },
  verifyPrescription: {
    summary: "Public check of a prescription's QR code: only the doctor, the date and whether it is genuine (nothing of the patient)",
    tags: ['records'],
    params: z.object({ code: z.string().min(1).max(64) }),
    response: prescriptionVerificationSchema,
  },
  searchMedicines: {
    summary: "Medicine suggestions (NLEM 2022 and the clinic's brand catalogue): prefix matches, then word starts, then substrings; one typo tolerated from 4 letters",
    tags: ['records'],
    query: medicineSearchQuerySchema,
    response: z.array(medicineSuggestionSchema),
  },
});
