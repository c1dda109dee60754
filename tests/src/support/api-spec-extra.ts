import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { streams } from '@telemed/contracts';
import type { ApiSpec, ExpectedEvent, GivenAppointment, SlotAt } from './api-spec';
import { indiaDate, type TestUser } from './test-app';

/** A small PDF, as a report or a prescription file. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** What a prescription file's upload appends: its file stored, then the record, both on the record's stream. */
export function prescriptionFileUploaded(recordId: string): ExpectedEvent[] {
  const stream = streams.prescriptionFile(recordId);
  return [
    { stream, type: 'RecordFileStored' },
    { stream, type: 'PrescriptionFileUploaded' },
  ];
}

/** What a report's upload appends on its stream: each file stored, then the report. */
export function reportUploaded(reportId: string, files: number): ExpectedEvent[] {
  const stream = streams.medicalReport(reportId);
  return [...Array.from({ length: files }, () => ({ stream, type: 'RecordFileStored' })), { stream, type: 'MedicalReportUploaded' }];
}

/**
 * Given facts the spec helper's `given` has no step for (clinical records, consultations, erasures), made through the
 * real API as its steps are, each checked and settled. Additive to api-spec.ts (issue 32).
 */
export interface MoreGiven {
  /**
   * A confirmed appointment of the patient with the doctor whose consultation is under way: the test clock (`setNow`)
   * moved to two minutes before its start and the doctor joined.
   */
  consultation(options: { doctor: TestUser; patient: TestUser; setNow: (now: Date) => void; at?: SlotAt; notes?: string }): Promise<GivenAppointment>;
  /** A lab report the patient uploaded (one PDF, dated today): its file's id. */
  report(patient: TestUser, fileName?: string): Promise<{ report_id: string; file_id: string }>;
  /** A prescription file the doctor uploaded for the appointment's consultation (held): its record's and file's ids. */
  prescriptionFile(doctor: TestUser, appointmentId: string, patientName: string): Promise<{ record_id: string; file_id: string }>;
  /** The person erased their own data. */
  erasure(user: TestUser): Promise<void>;
}

export function moreGiven(spec: ApiSpec): MoreGiven {
  const { t } = spec;
  const ok = async (what: string, request: supertest.Test, status: number) => {
    const res = await request;
    assert.equal(res.status, status, `given: ${what} (${res.status} ${res.text.slice(0, 300)})`);
    return res;
  };
  return {
    async consultation({ doctor, patient, setNow, at, notes }) {
      setNow(new Date());
      const given = await spec.given.appointment({ doctor, patient, at, notes, confirmed: true });
      setNow(new Date(given.slot.start.getTime() - 2 * 60_000));
      await ok('the doctor joined the consultation', t.http.post(`/api/v1/consultations/${given.appointment_id}/join`).set(doctor.auth), 200);
      await t.settle();
      return given;
    },
    async report(patient, fileName = 'lab.pdf') {
      const res = await ok(
        'the report was uploaded',
        t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, fileName),
        201,
      );
      await t.settle();
      const body = res.body as { report_id: string; files: Array<{ file_id: string }> };
      return { report_id: body.report_id, file_id: body.files[0]!.file_id };
    },
    async prescriptionFile(doctor, appointmentId, patientName) {
      const res = await ok(
        'the prescription file was uploaded',
        t.http.post(`/api/v1/consultations/${appointmentId}/prescription-files`).set(doctor.auth).field('patient_name', patientName).attach('file', PDF, 'rx.pdf'),
        201,
      );
      await t.settle();
      const body = res.body as { record_id: string; file: { file_id: string } };
      return { record_id: body.record_id, file_id: body.file.file_id };
    },
    async erasure(user) {
      await ok('the person erased their data', t.http.post('/api/v1/users/me/erasure').set(user.auth), 200);
      await t.settle();
    },
  };
}
