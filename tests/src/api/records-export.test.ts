import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { personalDataExportSchema } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { binaryBody } from '../support/binary-body';
import { heldAppointment } from '../support/held-appointment';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** The right of access (issue 12) over clinical records (issue 14): GET /users/me/export holds my records, and only mine. */
describe('export of clinical records', () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let otherPatient: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', PUBLIC_URL: 'https://telemed.example.in' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Export', doctor: { registration_number: 'KMC-2015-1234', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
    patient = await t.createUser('patient', { name: 'Meera Iyer' });
    otherPatient = await t.createUser('patient', { name: 'Arjun Rao' });
  });
  after(() => t.close());

  const joined = (by: TestUser) => heldAppointment(t, { doctor, patient: by, hour: (hour += 1), setNow: (d) => (now = d) });

  /** A report, a prescription file, an e-prescription and final notes (then a newer draft), all marked with `tag`. */
  async function recordsFor(who: TestUser, name: string, tag: string) {
    const id = await joined(who);
    const report = await t.http.post('/api/v1/records/reports').set(who.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).field('report_summary', `summary ${tag}`).attach('files', PDF, `${tag}-cbc.pdf`).expect(201);
    const file = await t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', name).field('medication_summary', `meds ${tag}`).attach('file', PDF, `${tag}-rx.pdf`).expect(201);
    const rx = await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [{ medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'twice_daily', duration_value: 3, duration_unit: 'days' }], diagnosis: `diagnosis ${tag}` }).expect(201);
    const notes = `/api/v1/consultations/${id}/notes`;
    await t.http.put(notes).set(doctor.auth).send({ is_draft: false, patient_name: name, chief_complaint: `complaint ${tag}`, priority_level: 'medium', follow_up_required: 'no' }).expect(200);
    await t.http.put(notes).set(doctor.auth).send({ is_draft: true, chief_complaint: `complaint ${tag}`, clinical_assessment: `draft ${tag}` }).expect(200);
    await t.settle();
    return { appointment: id, report: report.body.report_id as string, file: file.body.record_id as string, prescription: rx.body.prescription_id as string };
  }

  it("holds the person's reports, prescription files, e-prescriptions and final notes (never a draft), with who read them, and nobody else's", async () => {
    const mine = await recordsFor(patient, 'Meera Iyer', 'MINE');
    const theirs = await recordsFor(otherPatient, 'Arjun Rao', 'THEIRS');
    // The doctor reads the patient's records: the export says so.
    await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(doctor.auth).expect(200);
    await t.settle();

    const res = await t.http.get('/api/v1/users/me/export').set(patient.auth).expect(200);
    const body = personalDataExportSchema.parse(res.body);
    const records = body.clinical_records;
    assert.deepEqual(records.reports.map((r) => r.id), [mine.report]);
    assert.equal(records.reports[0]!.report_summary, 'summary MINE');
    assert.equal(records.reports[0]!.files[0]!.file_name, 'MINE-cbc.pdf');
    assert.deepEqual(records.prescription_files.map((p) => p.id), [mine.file]);
    assert.deepEqual(records.prescriptions.map((p) => p.prescription_id), [mine.prescription]);
    assert.equal(records.prescriptions[0]!.diagnosis, 'diagnosis MINE');
    assert.equal(records.prescriptions[0]!.lines[0]!.medicine, 'Paracetamol');
    assert.match(records.prescriptions[0]!.verification_url, /^https:\/\/telemed\.example\.in\/verify\//);
    assert.deepEqual(records.consultation_notes.map((n) => [n.appointment_id, n.is_draft, n.chief_complaint, n.clinical_assessment]), [[mine.appointment, false, 'complaint MINE', null]]);
    assert.deepEqual(records.reports[0]!.shared_with.map((s) => [s.user_id, s.purpose]), [[doctor.user_id, 'care']]);

    const text = JSON.stringify(body);
    assert.ok(!text.includes('draft MINE'), "a doctor's draft is not the patient's to read");
    for (const foreign of [theirs.report, theirs.file, theirs.prescription, theirs.appointment, 'THEIRS', 'Arjun Rao']) {
      assert.ok(!text.includes(foreign), `the export holds ${foreign}`);
    }

    const other = JSON.stringify((await t.http.get('/api/v1/users/me/export').set(otherPatient.auth).expect(200)).body);
    for (const foreign of [mine.report, mine.file, mine.prescription, 'MINE']) assert.ok(!other.includes(foreign), `the other patient's export holds ${foreign}`);
    assert.ok(other.includes(theirs.report) && other.includes('diagnosis THEIRS'));
  });

  it('?format=zip: the same export as export.json and the person\'s own record files, decrypted, and nobody else\'s', async () => {
    const res = await t.http
      .get('/api/v1/users/me/export?format=zip')
      .set(patient.auth)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.match(res.headers['content-disposition'] ?? '', /^attachment; filename="telemed-my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const entries = unzipSync(new Uint8Array(res.body as Buffer));
    const json = personalDataExportSchema.parse(JSON.parse(Buffer.from(entries['export.json']!).toString('utf8')));
    const files = Object.keys(entries).filter((name) => name.startsWith('files/')).sort();
    const expected = [...json.clinical_records.reports.flatMap((r) => r.files), ...json.clinical_records.prescription_files.map((p) => p.file)].map((f) => `files/${f.file_id}/${f.file_name}`).sort();
    assert.deepEqual(files, expected);
    assert.ok(files.some((f) => f.endsWith('/MINE-cbc.pdf')) && files.some((f) => f.endsWith('/MINE-rx.pdf')));
    for (const name of files) assert.deepEqual(Buffer.from(entries[name]!), PDF, `${name} is the uploaded file, decrypted`);
    assert.ok(!files.some((f) => f.includes('THEIRS')), "another patient's files are not in it");
    await t.http.get('/api/v1/users/me/export?format=tar').set(patient.auth).expect(422);
  });

  it("a doctor's export holds none of their patients' records", async () => {
    const body = personalDataExportSchema.parse((await t.http.get('/api/v1/users/me/export').set(doctor.auth).expect(200)).body);
    assert.deepEqual(body.clinical_records, { reports: [], prescriptions: [], prescription_files: [], consultation_notes: [] });
    const text = JSON.stringify(body);
    for (const foreign of ['MINE', 'THEIRS', 'complaint']) assert.ok(!text.includes(foreign), `the doctor's export holds ${foreign}`);
  });
});
