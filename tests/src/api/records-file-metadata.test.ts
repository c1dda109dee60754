import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext, MemoryReadStore, type ReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(64)]);

type FileData = { file_id: string; blob_id: string; content_type: unknown; size: unknown; sha256: unknown; file_name: unknown };
type Storage = { bytes: number; files: number };

/**
 * A stored file's type, size and digest are health data like its name (an MRI's DICOM, a scan's size, a digest one
 * could match against a known file): ciphertext in the log under the patient's key (their clinical key for a doctor's
 * prescription file), read back in clear by those who may. A file recorded before that (type and size in clear, the
 * size a number) still reads, and the storage quota counts both.
 */
describe("clinical records: a file's type, size and digest in the log", () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Meera Iyer', doctor: { registration_number: 'TNMC-7', medical_council: 'Tamil Nadu Medical Council', qualification: 'MBBS' } });
  });
  after(() => t.close());

  /** A confirmed appointment of `patient` two days ahead, its consultation joined (the clock moves to its start). */
  const appointment = (patient: TestUser) => heldAppointment(t, { doctor, patient, hour: (hour += 1), setNow: (d) => (now = d) });
  const uploadReport = (patient: TestUser, file: Buffer, name: string) =>
    t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', file, name).expect(201);
  const rawFiles = async (stream: string) =>
    (await ciphertextLog(t.app.eventStore).readStream(stream)).filter((e) => e.type === 'RecordFileStored').map((e) => e.data as FileData);
  const storageIn = async (store: ReadStore, patientId: string) => (await store.collection<Storage & { _id: string }>('record_storage').get(patientId)) as Storage | null;
  const mine = async (patient: TestUser) =>
    (await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body as {
      reports: Array<{ id: string; total_size: number; files: Array<{ file_id: string; content_type: string; size: number; download_url: string }> }>;
      prescription_files: Array<{ file: { content_type: string; size: number } | null }>;
    };

  it('are ciphertext in the log for reports and prescription files, and read in clear through the API', async () => {
    const patient = await t.createUser('patient', { name: 'Arjun Das' });
    const id = await appointment(patient);
    const report = await uploadReport(patient, PNG, 'xray.png');
    const rx = await t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Arjun Das').attach('file', PDF, 'rx.pdf').expect(201);
    const stored = [...(await rawFiles(streams.medicalReport(report.body.report_id as string))), ...(await rawFiles(streams.prescriptionFile(rx.body.record_id as string)))];
    assert.equal(stored.length, 2);
    for (const file of stored) {
      for (const field of ['file_name', 'content_type', 'size', 'sha256'] as const) assert.ok(isCiphertext(file[field]), `${field} is ciphertext: ${JSON.stringify(file[field])}`);
    }
    const log = JSON.stringify(stored);
    for (const clear of ['image/png', 'application/pdf', `"size":${PNG.length}`, `"size":${PDF.length}`]) assert.ok(!log.includes(clear), `the log holds ${clear} in clear`);

    await t.settle();
    const records = await mine(patient);
    assert.deepEqual(records.reports[0]!.files.map((f) => [f.content_type, f.size]), [['image/png', PNG.length]]);
    assert.equal(records.reports[0]!.total_size, PNG.length);
    const download = await t.http.get(records.reports[0]!.files[0]!.download_url).set(patient.auth).expect(200);
    assert.equal(download.headers['content-type'], 'image/png');
    assert.equal(download.headers['content-length'], String(PNG.length));
    assert.deepEqual(await storageIn(t.app.readStore, patient.user_id), { ...(await storageIn(t.app.readStore, patient.user_id)), bytes: PNG.length + PDF.length, files: 2 }, 'the quota counts both');
  });

  it('a file recorded before they were encrypted (type in clear, size a number) still reads, downloads with its type and counts in the quota', async () => {
    const patient = await t.createUser('patient', { name: 'Lakshmi Menon' });
    const first = await uploadReport(patient, PDF, 'cbc.pdf');
    const [{ blob_id }] = (await rawFiles(streams.medicalReport(first.body.report_id as string))) as [FileData];
    // The events as the product wrote them before: the type and size in clear, the size a number.
    const reportId = randomUUID();
    const fileId = randomUUID();
    const metadata = { actor: { user_id: patient.user_id, role: 'patient' }, correlation_id: randomUUID(), causation_id: null, occurred_at: now.toISOString() };
    await ciphertextLog(t.app.eventStore).appendToStream(streams.medicalReport(reportId), [
      {
        event_id: randomUUID(),
        type: 'RecordFileStored',
        data: { file_id: fileId, patient_id: patient.user_id, record_id: reportId, kind: 'report', blob_id, file_name: 'old-cbc.pdf', content_type: 'application/pdf', size: PDF.length, sha256: 'f'.repeat(64) },
        metadata,
      },
      {
        event_id: randomUUID(),
        type: 'MedicalReportUploaded',
        data: { report_id: reportId, patient_id: patient.user_id, appointment_id: null, report_type: 'lab', report_date: indiaDate(0), medical_facility: null, doctor_name: null, report_summary: null, additional_notes: null, file_ids: [fileId] },
        metadata,
      },
    ]);
    await t.settle();
    const old = (await mine(patient)).reports.find((r) => r.id === reportId);
    assert.deepEqual(old?.files.map((f) => [f.file_id, f.content_type, f.size]), [[fileId, 'application/pdf', PDF.length]]);
    const download = await t.http.get(old!.files[0]!.download_url).set(patient.auth).expect(200);
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.equal(download.headers['content-length'], String(PDF.length));
    const storage = await storageIn(t.app.readStore, patient.user_id);
    assert.deepEqual([storage?.bytes, storage?.files], [2 * PDF.length, 2], 'the quota counts the old file and the new one');
  });

  it("after an erasure (the sizes no longer read), a rebuild gives the same files and storage as the live read models", async () => {
    const patient = await t.createUser('patient', { name: 'Farah Khan' });
    const id = await appointment(patient);
    await uploadReport(patient, PNG, 'xray.png');
    await t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Farah Khan').attach('file', PDF, 'rx.pdf').expect(201);
    await t.settle();
    assert.deepEqual([(await storageIn(t.app.readStore, patient.user_id))?.bytes], [PNG.length + PDF.length]);
    now = new Date(now.getTime() + 3 * 3600_000);
    await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
    await t.settle();
    // The report's file is gone with the patient's key; the doctor's prescription file is kept (legal hold).
    const live = await storageIn(t.app.readStore, patient.user_id);
    assert.deepEqual([live?.bytes, live?.files], [PDF.length, 1]);

    const rebuilt = new MemoryReadStore();
    await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: rebuilt, projections: allProjections }).catchUp();
    assert.deepEqual(await storageIn(rebuilt, patient.user_id), live);
    const filesOf = async (store: ReadStore) => (await store.collection<{ _id: string; patient_id: string }>('record_files').find({ patient_id: patient.user_id })).sort((a, b) => a._id.localeCompare(b._id));
    assert.deepEqual(await filesOf(rebuilt), await filesOf(t.app.readStore));
  });
});
