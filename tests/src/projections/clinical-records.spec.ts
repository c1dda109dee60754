import { describe, it } from 'node:test';
import { ERASED_VALUE, storedPrescriptionLineSchema, type StoredPrescriptionLine } from '@telemed/contracts';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { erased, fileStored, notesSaved, people, prescriptionFileUploaded, prescriptionIssued, reportUploaded } from '../support/spec-events';

const records = projectionSpec('clinical_records');
const UPLOADED = '2026-03-03T12:00:00.000Z';
const ISSUED = '2026-03-10T05:10:00.000Z';

const aspirin: StoredPrescriptionLine = storedPrescriptionLineSchema.parse({
  medicine_id: null,
  medicine: 'Ecosprin 75',
  generic_name: 'Aspirin',
  strength: '75 mg',
  dosage_form: 'tablet',
  tpg_list: 'A',
  dosage: '1 tablet',
  frequency: 'once_daily',
  custom_schedule: null,
  duration_value: 30,
  duration_unit: 'days',
  instructions: 'After lunch',
});

/** A patient's report with its file, an appointment's prescription (one medicine) and its scanned prescription file. */
function chart() {
  const { patient, doctor } = people();
  const appointment = freshId('appointment');
  const reportId = freshId('report');
  const reportFile = fileStored({ file_id: freshId('file'), patient_id: patient, record_id: reportId }, { at: UPLOADED });
  const report = reportUploaded({ report_id: reportId, patient_id: patient, file_ids: [reportFile.data.file_id] }, { at: UPLOADED });
  const prescription = prescriptionIssued({ prescription_id: freshId('rx'), appointment_id: appointment, patient_id: patient, doctor_id: doctor, lines: JSON.stringify([aspirin]) }, { at: ISSUED });
  const scanId = freshId('pfile');
  const scanFile = fileStored({ file_id: freshId('file'), patient_id: patient, record_id: scanId, kind: 'prescription_file', file_name: 'rx.jpg', content_type: 'image/jpeg', size: '512' }, { at: ISSUED });
  const scan = prescriptionFileUploaded({ record_id: scanId, appointment_id: appointment, patient_id: patient, doctor_id: doctor, file_id: scanFile.data.file_id }, { at: ISSUED });
  const fileDoc = (e: SpecEvent<'RecordFileStored'>, size: number) => ({ _id: e.data.file_id, ...e.data, size, uploaded_at: e.metadata.occurred_at });
  const reportDoc = (log: Log) => ({ _id: reportId, ...report.data, uploaded_at: UPLOADED, position: log.positionOf(report) });
  const scanDoc = (log: Log) => ({ _id: scanId, ...scan.data, uploaded_at: ISSUED, position: log.positionOf(scan) });
  const rx = prescription.data;
  const prescriptionDoc = (log: Log) => ({ _id: rx.prescription_id, ...rx, lines: [aspirin], issued_at: ISSUED, position: log.positionOf(prescription) });
  const verification = {
    _id: rx.verification_code,
    prescription_id: rx.prescription_id,
    doctor_id: doctor,
    doctor_name: rx.doctor_name,
    doctor_qualification: rx.doctor_qualification,
    doctor_registration_number: rx.doctor_registration_number,
    doctor_medical_council: rx.doctor_medical_council,
    issued_at: ISSUED,
  };
  const medicine = { _id: `${patient}~${doctor}~aspirin`, patient_id: patient, prescription_id: rx.prescription_id };
  return { patient, doctor, appointment, all: [reportFile, report, prescription, scanFile, scan], reportFile, report, prescription, scanFile, scan, fileDoc, reportDoc, scanDoc, prescriptionDoc, verification, medicine };
}

/** The notes' version as kept: the saved fields, when, and whether a draft. */
const version = (e: SpecEvent<'ConsultationNotesSaved'>) => {
  const { appointment_id: _a, patient_id: _p, doctor_id: _d, ...fields } = e.data;
  return { ...fields, saved_at: e.metadata.occurred_at };
};

describe('clinical_records projection', () => {
  it("a report is its files (type and size as recorded) and its particulars, in the patient's records", () => {
    const c = chart();
    return records
      .given()
      .when(c.reportFile, c.report)
      .then((log) => ({ record_files: [c.fileDoc(c.reportFile, 2048)], medical_reports: [c.reportDoc(log)] }));
  });

  it('a file whose type or size no longer reads (its key destroyed before a rebuild) is kept as an unknown type of 0 bytes', () => {
    const { patient } = people();
    const e = fileStored({ file_id: freshId('file'), patient_id: patient, record_id: freshId('report'), content_type: ERASED_VALUE, size: ERASED_VALUE });
    return records.given().when(e).then({ record_files: [{ ...e.data, _id: e.data.file_id, content_type: 'application/octet-stream', size: 0, uploaded_at: e.metadata.occurred_at }] });
  });

  it("an e-prescription is kept with its lines, a public verification (the doctor, never the patient) and each medicine under patient, doctor and generic name", () => {
    const c = chart();
    return records
      .given()
      .when(c.prescription)
      .then((log) => ({ prescriptions: [c.prescriptionDoc(log)], prescription_verifications: [c.verification], prescribed_medicines: [c.medicine] }));
  });

  it('notes: the final notes are what the patient reads; a later draft is kept beside them, and the next final notes replace both', async () => {
    const { patient, doctor } = people();
    const appointment = freshId('appointment');
    const ids = { appointment_id: appointment, patient_id: patient, doctor_id: doctor };
    const final = notesSaved(ids, { at: '2026-03-10T05:05:00.000Z' });
    const draft = notesSaved({ ...ids, is_draft: true, treatment_plan: 'ECG, lipid profile, TMT' }, { at: '2026-03-10T05:20:00.000Z' });
    const again = notesSaved({ ...ids, treatment_plan: 'ECG, lipid profile, TMT' }, { at: '2026-03-10T05:25:00.000Z' });
    const doc = { _id: appointment, ...ids };
    await records.given(final).when(draft).then({ consultation_notes: [{ ...doc, final: version(final), draft: version(draft) }] });
    await records.given(final, draft).when(again).then({ consultation_notes: [{ ...doc, final: version(again), draft: null }] });
  });

  it('notes delivered again do not replace the notes saved after them', () => {
    const { patient, doctor } = people();
    const ids = { appointment_id: freshId('appointment'), patient_id: patient, doctor_id: doctor };
    const first = notesSaved(ids, { at: '2026-03-10T05:05:00.000Z' });
    const second = notesSaved({ ...ids, chief_complaint: 'Chest pain and breathlessness' }, { at: '2026-03-10T05:25:00.000Z' });
    return records
      .given(first)
      .when(second)
      .deliveredAgain('given')
      .then({ consultation_notes: [{ _id: ids.appointment_id, ...ids, final: version(second), draft: null }] });
  });

  it("the patient's erasure removes their own reports (files blanked) and keeps the clinical records under the legal hold", () => {
    const c = chart();
    return records
      .given(...c.all)
      .when(erased(c.patient, { clinical_records_retained_until: '2029-03-04T00:00:00.000Z' }))
      .then((log) => ({
        medical_reports: [],
        record_files: [
          { ...c.fileDoc(c.reportFile, 0), file_name: ERASED_VALUE, content_type: 'application/octet-stream', sha256: ERASED_VALUE },
          c.fileDoc(c.scanFile, 512),
        ],
        prescription_files: [c.scanDoc(log)],
        prescriptions: [c.prescriptionDoc(log)],
        prescribed_medicines: [c.medicine],
      }));
  });

  it("the prescriber's erasure blanks their name and contact on what they issued; the public check keeps the registration", () => {
    const c = chart();
    return records
      .given(...c.all)
      .when(erased(c.doctor))
      .then((log) => ({
        prescriptions: [{ ...c.prescriptionDoc(log), doctor_name: ERASED_VALUE, doctor_contact: ERASED_VALUE }],
        prescription_verifications: [{ ...c.verification, doctor_name: ERASED_VALUE }],
        medical_reports: [c.reportDoc(log)],
      }));
  });

  it('the end of the legal hold blanks the clinical records, their medicines and the printed registration number; the check still says genuine', () => {
    const c = chart();
    const ids = { appointment_id: c.appointment, patient_id: c.patient, doctor_id: c.doctor };
    const notes = notesSaved(ids, { at: '2026-03-10T05:05:00.000Z' });
    return records
      .given(...c.all, notes, erased(c.patient, { clinical_records_retained_until: '2029-03-04T00:00:00.000Z' }))
      .when(event('ClinicalRecordsDestroyed', { user_id: c.patient }))
      .then((log) => ({
        record_files: [
          { ...c.fileDoc(c.reportFile, 0), file_name: ERASED_VALUE, content_type: 'application/octet-stream', sha256: ERASED_VALUE },
          { ...c.fileDoc(c.scanFile, 0), file_name: ERASED_VALUE, content_type: 'application/octet-stream', sha256: ERASED_VALUE },
        ],
        prescription_files: [{ ...c.scanDoc(log), patient_name: ERASED_VALUE, patient_ref: null, medication_summary: ERASED_VALUE, additional_notes: null }],
        prescriptions: [
          {
            ...c.prescriptionDoc(log),
            patient_name: ERASED_VALUE,
            patient_age: ERASED_VALUE,
            patient_gender: ERASED_VALUE,
            diagnosis: ERASED_VALUE,
            advice: ERASED_VALUE,
            follow_up: ERASED_VALUE,
            lines: [],
            consultation_mode: null,
            consultation_kind: null,
            doctor_registration_number: ERASED_VALUE,
          },
        ],
        prescription_verifications: [{ ...c.verification, doctor_registration_number: ERASED_VALUE }],
        prescribed_medicines: [],
        consultation_notes: [
          {
            _id: c.appointment,
            ...ids,
            final: {
              ...version(notes),
              patient_name: ERASED_VALUE,
              patient_ref: ERASED_VALUE,
              chief_complaint: ERASED_VALUE,
              clinical_assessment: ERASED_VALUE,
              treatment_plan: ERASED_VALUE,
              follow_up_instructions: ERASED_VALUE,
              additional_notes: null,
            },
            draft: null,
          },
        ],
      }));
  });

  it('a catalogue import and consent events leave the records as they were', () => {
    const c = chart();
    return records
      .given(...c.all)
      .when(
        event('MedicineCatalogueImported', { import_id: freshId('import'), blob_id: 'blob-1', rows: 1200, sha256: 'd'.repeat(64) }),
        event('ConsentWithdrawn', { user_id: c.patient, notice_version: '2026-01', text_hash: 'e'.repeat(64) }),
        event('AppointmentCompleted', { appointment_id: c.appointment, ended_at: ISSUED, auto_ended: false }),
      )
      .thenUnchanged();
  });
});
