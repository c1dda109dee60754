import { REPORT_TYPES, REPORT_TYPE_IDS, prescribedMedicineLabel, recordFileName, type PrescriptionView, type RecordsResponse, type ReportTypeId } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import {
  CONSULTATION_NOTES,
  MEDICAL_REPORTS,
  PRESCRIPTIONS,
  PRESCRIPTION_FILES,
  RECORD_FILES,
  type MedicalReportDoc,
  type NotesDoc,
  type PrescriptionDoc,
  type PrescriptionFileDoc,
  type RecordFileDoc,
} from './projection';

const REPORT_NAMES = Object.fromEntries(REPORT_TYPES.map((t) => [t.id, t.name])) as Record<string, string>;

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
export async function patientRecords(readStore: ReadStore, patientId: string): Promise<RecordsResponse> {
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
