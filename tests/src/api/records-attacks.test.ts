import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, RECORD_LIMITS, RECORD_TEXTS, UNSAFE_TEXT_MESSAGE } from '@telemed/contracts';
import { createLogger, loadConfig } from '@telemed/platform';
import { createApp } from '@telemed/all-in-one';
import { findUserIdByEmail, giveConsent, registerUser, setAvailability, systemContext } from '@telemed/command';
import { TEST_TOKEN_TTL_SECONDS, indiaDate, slotInput, startTestApp, tmpDataDir, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { freePort } from '../support/processes';
import { logLines } from '../support/log-lines';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const line = (medicine: string, extra: Record<string, unknown> = {}) => ({ medicine, dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days', ...extra });

/** Clinical records (issue 14) as an attacker tries them: other people's records, odd text, odd uploads, the logs. */
describe('clinical records under attack', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  let port = 0;
  let platformAdmin: TestUser;
  let clinicAdmin: TestUser;
  let clinicPeer: TestUser;
  let clinicDoctor: TestUser;
  let doctor: TestUser;
  let patient: TestUser;
  let hour = 7;

  const asUser = async (email: string, account_type: 'patient' | 'doctor'): Promise<TestUser> => {
    const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
    const token = await t.app.tokens.issue({ user_id, account_type });
    return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
  };

  before(async () => {
    port = await freePort();
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', PORT: String(port) } });
    await t.app.listen(port, '127.0.0.1');
    spec = apiSpec(t);
    platformAdmin = await t.createUser('admin');
    doctor = await t.createUser('doctor', { name: 'Dr. Asha Rao', doctor: { registration_number: 'KMC-1', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
    patient = await t.createUser('patient', { name: 'Ravi Kumar' });
    await t.http
      .post('/api/v1/institutions/')
      .set(platformAdmin.auth)
      .send({
        name: 'Clinic Attack',
        slug: 'clinic-attack',
        address: 'Somewhere',
        phone: '+91 80 1234 5678',
        email: 'attack@clinic.in',
        staff: [
          { name: 'Admin Attack', email: 'admin@attack.in', phone: '+91 90000 10000', account_type: 'ADMIN' },
          { name: 'Doctor Attack', email: 'doctor@attack.in', phone: '+91 90000 10001', account_type: 'DOCTOR' },
          { name: 'Peer Attack', email: 'peer@attack.in', phone: '+91 90000 10002', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    await t.settle();
    clinicAdmin = await asUser('admin@attack.in', 'patient');
    clinicPeer = await asUser('peer@attack.in', 'doctor');
    clinicDoctor = await asUser('doctor@attack.in', 'doctor');
  });
  after(() => t.close());

  /** An appointment of `by` with `who`, two days ahead; approved when `approve`, then its consultation joined. */
  const appointment = (who: TestUser, by: TestUser, approve: boolean) =>
    heldAppointment(t, { doctor: who, patient: by, approve, notes: 'Fever', hour: (hour += 1), setNow: (d) => (now = d) });

  it("institution staff read a patient's records only once one of their doctors has a confirmed appointment with them, never for a request alone", async () => {
    const someone = await t.createUser('patient', { name: 'Sunita Devi' });
    // Records the patient holds from another doctor: a report and an e-prescription.
    const held = await appointment(doctor, someone, true);
    const report = await t.http.post('/api/v1/records/reports').set(someone.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'cbc.pdf').expect(201);
    await t.http.post(`/api/v1/consultations/${held}/prescriptions`).set(doctor.auth).send({ lines: [line('Paracetamol')], diagnosis: 'Viral fever' }).expect(201);
    // She only asks the clinic's doctor for an appointment; he has not answered (or rejects it).
    const requested = await appointment(clinicDoctor, someone, false);
    const records = `/api/v1/patients/${someone.user_id}/records`;
    const file = `/api/v1/records/files/${report.body.files[0].file_id as string}`;
    await t.http.get(records).set(clinicDoctor.auth).expect(404);
    await t.http.get(records).set(clinicPeer.auth).expect(404);
    await t.http.get(file).set(clinicPeer.auth).expect(404);
    await t.http.post(`/api/v1/appointments/${requested}/reject`).set(clinicDoctor.auth).send({ reason: null }).expect(200);
    await t.settle();
    await t.http.get(records).set(clinicPeer.auth).expect(404);
    // A confirmed appointment with the clinic's doctor makes her a patient of the clinic: its doctors may read (audited).
    await appointment(clinicDoctor, someone, true);
    const read = (await t.http.get(records).set(clinicPeer.auth).expect(200)).body;
    assert.equal(read.reports.length, 1);
    await t.http.get(file).set(clinicPeer.auth).expect(200);
    // Its administrator manages the appointment and has no need to know what the records hold.
    await t.http.get(records).set(clinicAdmin.auth).expect(404);
    await t.http.get(file).set(clinicAdmin.auth).expect(404);
  });

  it('refuses control characters, bidirectional overrides and unpaired surrogates in every typed field of a record (422), keeps line breaks in free text', async () => {
    const id = await appointment(doctor, patient, true);
    const notes = `/api/v1/consultations/${id}/notes`;
    const refused = async (res: supertest.Response, field: string) => {
      assert.equal(res.status, 422, JSON.stringify(res.body));
      const issue = (res.body.detail as Array<{ loc: Array<string | number>; msg: string }>).find((d) => d.loc.includes(field));
      assert.ok(issue?.msg.startsWith(UNSAFE_TEXT_MESSAGE), JSON.stringify(res.body));
    };
    // A right-to-left override makes "Ravi\u202Eramuk" read as another name on screen and on the PDF.
    await refused(await t.http.put(notes).set(doctor.auth).send({ is_draft: true, patient_name: 'Ravi \u202eramuK' }), 'patient_name');
    await refused(await t.http.put(notes).set(doctor.auth).send({ is_draft: true, chief_complaint: 'Fever\u0000 hidden' }), 'chief_complaint');
    await refused(await t.http.put(notes).set(doctor.auth).send({ is_draft: true, treatment_plan: 'half \ud800 a pair' }), 'treatment_plan');
    await t.http.put(notes).set(doctor.auth).send({ is_draft: true, treatment_plan: 'Rest\n\tFluids\r\nReview', patient_name: 'रवि कुमार' }).expect(200);
    const rx = `/api/v1/consultations/${id}/prescriptions`;
    await refused(await t.http.post(rx).set(doctor.auth).send({ lines: [line('Paracetamol\u202e')] }), 'medicine');
    await refused(await t.http.post(rx).set(doctor.auth).send({ lines: [line('Paracetamol', { dosage: '1\u001b[2J tablet' })] }), 'dosage');
    await refused(await t.http.post(rx).set(doctor.auth).send({ lines: [line('Paracetamol')], diagnosis: 'Fever\u0007' }), 'diagnosis');
    const upload = await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).field('medical_facility', 'City \u202eLab').attach('files', PDF, 'cbc.pdf');
    await refused(upload, 'medical_facility');
    const file = await t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Ravi\u0000').attach('file', PDF, 'rx.pdf');
    await refused(file, 'patient_name');
    await t.settle();
    const mine = (await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body;
    assert.deepEqual([mine.reports.length, mine.prescription_files.length, mine.prescriptions.length], [0, 0, 0], 'nothing refused was kept');
  });

  it("a record's patient ID may be the clinic's own reference or this patient's account, never another patient's account (422)", async () => {
    const id = await appointment(doctor, patient, true);
    const other = await t.createUser('patient', { name: 'Someone Else' });
    const upload = (patientId: string) =>
      t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Ravi Kumar').field('patient_id', patientId).attach('file', PDF, 'rx.pdf');
    const refused = await upload(other.user_id).expect(422);
    assert.equal(refused.body.detail[0].msg, RECORD_TEXTS.patientRefOtherAccount);
    const notes = await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: true, patient_id: other.user_id.toUpperCase() }).expect(422);
    assert.equal(notes.body.detail[0].msg, RECORD_TEXTS.patientRefOtherAccount);
    await upload(patient.user_id).expect(201);
    await upload('UHID-2024-0042').expect(201);
    await upload('00000000-0000-4000-8000-000000000000').expect(201); // shaped like an account id, but no account's
    await t.settle();
    const mine = (await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body as { prescription_files: Array<{ patient_ref: string | null }> };
    assert.ok(mine.prescription_files.every((f) => f.patient_ref !== other.user_id), "no record of theirs names the other patient's account");
  });

  it('uploads: an empty file is refused, a PDF-HTML polyglot is kept and served only as a PDF attachment, part and file limits hold, a name is only ever its last segment', async () => {
    const reports = '/api/v1/records/reports';
    const form = (r: supertest.Test) => r.set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0));
    assert.equal((await form(t.http.post(reports)).attach('files', Buffer.alloc(0), 'empty.pdf')).status, 415);
    const polyglot = Buffer.concat([PDF, Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
    const stored = await form(t.http.post(reports)).attach('files', polyglot, { filename: 'evil.html', contentType: 'text/html' }).expect(201);
    const download = await t.http.get(stored.body.files[0].download_url as string).set(patient.auth).expect(200);
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.match(download.headers['content-disposition'] ?? '', /^attachment;/);
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
    let many = form(t.http.post(reports));
    for (let i = 0; i < 60; i++) many = many.field(`extra${i}`, 'x');
    const tooMany = await many.attach('files', PDF, 'a.pdf');
    assert.deepEqual([tooMany.status, tooMany.body.detail], [413, RECORD_TEXTS.tooManyFields], 'the answer names the fields, not the files');
    assert.equal((await form(t.http.post(reports)).attach('attachment', PDF, 'a.pdf')).status, 422);
    // Raw multipart: a part header of 200 kB, and a file name given as filename* with a path and a line break.
    const raw = (body: string) =>
      new Promise<{ status: number; body: { files?: Array<{ file_name: string }>; code?: string } }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/records/reports', headers: { ...patient.auth, 'Content-Type': 'multipart/form-data; boundary=B0' } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += String(c)));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const part = (headers: string, value: string) => `--B0\r\n${headers}\r\n\r\n${value}\r\n`;
    const fields = part('Content-Disposition: form-data; name="report_type"', 'lab') + part('Content-Disposition: form-data; name="report_date"', indiaDate(0));
    const longHeader = await raw(`${part(`Content-Disposition: form-data; name="report_type"\r\nX-Pad: ${'a'.repeat(200_000)}`, 'lab')}--B0--\r\n`);
    assert.deepEqual([longHeader.status, longHeader.body.code], [422, 'malformed_part_header']);
    const named = await raw(`${fields}${part(`Content-Disposition: form-data; name="files"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd%0D%0A.pdf`, PDF.toString('latin1'))}--B0--\r\n`);
    assert.equal(named.status, 201);
    assert.equal(named.body.files?.[0]?.file_name, 'passwd.pdf');
  });

  it('a text field sent twice in an upload is refused (422), nothing stored: it has no one value', async () => {
    const twice = await spec.when((http) =>
      http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_type', 'imaging').field('report_date', indiaDate(0)).attach('files', PDF, 'cbc.pdf'),
    );
    twice.expectStatus(422).expectNoEvents();
    assert.equal(twice.body.detail, 'The field "report_type" is given more than once');
  });

  it(`one person has at most ${RECORD_LIMITS.uploadsInFlightPerUser} uploads under way: trickling uploads cannot hold connections and files without bound (429, then room again)`, async () => {
    const uploader = await t.createUser('patient');
    const reports = '/api/v1/records/reports';
    // A JSON body passes the bound first and is then refused as not multipart (415): a probe of the bound that stores nothing.
    const probe = async () => (await t.http.post(reports).set(uploader.auth).send({ report_type: 'lab' })).status;
    const until = async (status: number) => {
      for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((r) => setTimeout(r, 20))) if ((await probe()) === status) return;
      assert.fail(`the bound never answered ${status}`);
    };
    const slow: Socket[] = [];
    for (let i = 0; i < RECORD_LIMITS.uploadsInFlightPerUser; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const head = `--B0\r\nContent-Disposition: form-data; name="files"; filename="slow${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
      socket.write(`POST ${reports} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${uploader.token}\r\nContent-Type: multipart/form-data; boundary=B0\r\nContent-Length: 5000000\r\n\r\n${head}`);
      slow.push(socket);
    }
    await until(429);
    const refused = await t.http.post(reports).set(uploader.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'cbc.pdf');
    assert.deepEqual([refused.status, refused.body.detail, refused.headers['retry-after']], [429, RECORD_TEXTS.uploadsInFlight, '5']);
    await t.http.post(reports).set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'cbc.pdf').expect(201);
    for (const socket of slow) socket.destroy();
    await until(415);
    await t.http.post(reports).set(uploader.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'cbc.pdf').expect(201);
  });
});

describe('clinical records in the logs', () => {
  it('hold routes and statuses, never the notes, prescriptions, report fields, file names, names or tokens', async () => {
    const { lines, destination } = logLines();
    let now = new Date();
    // The product as startTestApp makes it, with its logger kept (startTestApp's is silent).
    const app = await createApp({ config: loadConfig({ DATA_DIR: tmpDataDir(), DEMO_DATA: 'off', READ_STORE: 'memory', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' }), logger: createLogger({ level: 'debug', destination }), clock: () => now, accessTokenTtlSeconds: TEST_TOKEN_TTL_SECONDS });
    await app.start();
    try {
      const http = supertest(app.app);
      const context = systemContext(now, null);
      const doctorId = (await registerUser(app.eventStore, { email: 'dr@logs.in', name: 'Dr LOGNAME', account_type: 'doctor', doctor: { registration_number: 'R-1', medical_council: 'MC', qualification: 'MBBS' } }, context)).user_id;
      const patientId = (await registerUser(app.eventStore, { email: 'pt@logs.in', name: 'PATIENTLOGNAME', account_type: 'patient' }, context)).user_id;
      await giveConsent(app.eventStore, patientId, {}, { ...context, actor: { user_id: patientId, role: 'patient' } });
      const date = indiaDate(2);
      await setAvailability(app.eventStore, doctorId, { slots: [slotInput(date, '10:00')], timezone: DEFAULT_TIMEZONE }, context);
      await app.runner.waitForPosition(await app.eventStore.headPosition(), 5000);
      const doctorToken = await app.tokens.issue({ user_id: doctorId, account_type: 'doctor' });
      const patientToken = await app.tokens.issue({ user_id: patientId, account_type: 'patient' });
      const d = { Authorization: `Bearer ${doctorToken}` };
      const p = { Authorization: `Bearer ${patientToken}` };
      const slot = (await http.get(`/api/v1/doctors/${doctorId}/available-slots`).set(p).expect(200)).body.slots[0].slot_id as number;
      const id = (await http.post('/api/v1/appointments').set(p).send({ slot_id: slot, notes: 'SECRET-VISIT' }).expect(201)).body.appointment_id as string;
      await http.post(`/api/v1/appointments/${id}/approve`).set(d).expect(200);
      now = DateTime.fromISO(`${date}T10:00`, { zone: DEFAULT_TIMEZONE }).minus({ minutes: 2 }).toJSDate();
      await http.post(`/api/v1/consultations/${id}/join`).set(d).expect(200);
      await http.put(`/api/v1/consultations/${id}/notes`).set(d).send({ is_draft: false, patient_name: 'PATIENTLOGNAME', chief_complaint: 'SECRET-COMPLAINT' }).expect(200);
      const rx = await http.post(`/api/v1/consultations/${id}/prescriptions`).set(d).send({ lines: [line('SECRET-MEDICINE')], diagnosis: 'SECRET-DIAGNOSIS' }).expect(201);
      await http.post(`/api/v1/consultations/${id}/prescription-files`).set(d).field('patient_name', 'PATIENTLOGNAME').field('medication_summary', 'SECRET-SUMMARY').attach('file', PDF, 'SECRET-FILENAME.pdf').expect(201);
      await http.post('/api/v1/records/reports').set(p).field('report_type', 'lab').field('report_date', indiaDate(0)).field('report_summary', 'SECRET-REPORT').attach('files', PDF, 'SECRET-REPORTFILE.pdf').expect(201);
      // Refusals echo what was sent in their detail: the log must not.
      await http.post('/api/v1/records/reports').set(p).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', Buffer.from('MZ SECRET-EXE'), 'SECRET-BADFILE.exe').expect(415);
      await app.runner.waitForPosition(await app.eventStore.headPosition(), 5000);
      await http.get(`/api/v1/prescriptions/${rx.body.prescription_id as string}/pdf`).set(p).expect(200);
      await http.get(`/api/v1/verify/${rx.body.verification_code as string}`).expect(200);
      await http.get(`/api/v1/patients/${patientId}/records`).set(d).expect(200);
      await http.get(`/api/v1/consultations/${id}/notes`).set(p).expect(200);
      const all = lines.join('');
      assert.ok(lines.some((l) => l.includes('/api/v1/records/reports')), 'the uploads are logged (route and status)');
      for (const secret of ['SECRET-', 'PATIENTLOGNAME', 'LOGNAME', 'pt@logs.in', doctorToken, patientToken, rx.body.verification_code as string, 'enc1.']) {
        assert.ok(!all.includes(secret), `the logs hold ${secret.slice(0, 24)}`);
      }
    } finally {
      await app.stop();
    }
  });
});
