import { describe, it } from 'node:test';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { erased, fileStored, people, prescriptionFileUploaded, reportUploaded } from '../support/spec-events';

const storage = projectionSpec('record_storage');

/** One patient's uploads: a report of two files (3 000 bytes) and a prescription file of 512 bytes. */
function uploads() {
  const { patient, doctor } = people();
  const reportId = freshId('report');
  const scanId = freshId('pfile');
  const files = [fileStored({ file_id: freshId('file'), patient_id: patient, record_id: reportId, size: '2000' }), fileStored({ file_id: freshId('file'), patient_id: patient, record_id: reportId, size: 1000 })];
  const report = reportUploaded({ report_id: reportId, patient_id: patient, file_ids: files.map((f) => f.data.file_id) });
  const scanFile = fileStored({ file_id: freshId('file'), patient_id: patient, record_id: scanId, kind: 'prescription_file', size: '512' });
  const scan = prescriptionFileUploaded({ record_id: scanId, appointment_id: freshId('appointment'), patient_id: patient, doctor_id: doctor, file_id: scanFile.data.file_id });
  return { patient, doctor, files, report, scanFile, scan };
}

const totals = (patient: string, report: { bytes: number; files: number }, prescription_file: { bytes: number; files: number }, position: number) => ({
  _id: patient,
  patient_id: patient,
  bytes: report.bytes + prescription_file.bytes,
  files: report.files + prescription_file.files,
  by_kind: { report, prescription_file },
  position,
});
const at = (log: Log, e: SpecEvent) => log.positionOf(e);

describe('record_storage projection (what a patient\'s records hold in files)', () => {
  it("a report's files are counted by kind, and the report moves the position on (its upload is in)", () => {
    const u = uploads();
    return storage
      .given()
      .when(...u.files, u.report)
      .then((log) => ({ record_storage: [totals(u.patient, { bytes: 3000, files: 2 }, { bytes: 0, files: 0 }, at(log, u.report))] }));
  });

  it("a doctor's prescription file adds to the same patient's totals", () => {
    const u = uploads();
    return storage
      .given(...u.files, u.report)
      .when(u.scanFile, u.scan)
      .then((log) => ({ record_storage: [totals(u.patient, { bytes: 3000, files: 2 }, { bytes: 512, files: 1 }, at(log, u.scan))] }));
  });

  it("the patient's erasure ends their reports' files (their key destroyed) and keeps the prescription files under the hold", () => {
    const u = uploads();
    const gone = erased(u.patient);
    return storage
      .given(...u.files, u.report, u.scanFile, u.scan)
      .when(gone)
      .then((log) => ({ record_storage: [totals(u.patient, { bytes: 0, files: 0 }, { bytes: 512, files: 1 }, at(log, gone))] }));
  });

  it('the end of the legal hold ends the prescription files too', () => {
    const u = uploads();
    const destroyed = event('ClinicalRecordsDestroyed', { user_id: u.patient });
    return storage
      .given(...u.files, u.report, u.scanFile, u.scan, erased(u.patient))
      .when(destroyed)
      .then((log) => ({ record_storage: [totals(u.patient, { bytes: 0, files: 0 }, { bytes: 0, files: 0 }, at(log, destroyed))] }));
  });

  it('files delivered again are counted once', () => {
    const u = uploads();
    return storage
      .given()
      .when(...u.files, u.report)
      .deliveredAgain()
      .then((log) => ({ record_storage: [totals(u.patient, { bytes: 3000, files: 2 }, { bytes: 0, files: 0 }, at(log, u.report))] }));
  });

  it('an erasure of someone with no records makes no document; notes and prescriptions hold no files', () => {
    const u = uploads();
    return storage
      .given(...u.files, u.report)
      .when(
        erased(freshId('patient')),
        event('ConsultationNotesSaved', {
          appointment_id: freshId('appointment'),
          patient_id: u.patient,
          doctor_id: u.doctor,
          is_draft: true,
          patient_name: null,
          patient_ref: null,
          chief_complaint: 'Cough',
          clinical_assessment: null,
          treatment_plan: null,
          follow_up_instructions: null,
          additional_notes: null,
          priority_level: 'low',
          follow_up_required: 'no',
          template: null,
        }),
      )
      .thenUnchanged();
  });
});
