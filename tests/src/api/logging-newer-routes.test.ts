import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@telemed/platform';
import { startTestApp, indiaDate, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';
import { logLines } from '../support/log-lines';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/**
 * No personal or health data and no token in the logs (issue 12) on the paths later issues added: the consultation's
 * chat (13), notes, prescriptions, reports and prescription files (14), posts (16), the export and the consents, each
 * with good input and with bad input (whose values must not come back in a log line either).
 */
describe('logs on the newer routes', () => {
  const { lines, destination } = logLines();
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let appointmentId: string;

  before(async () => {
    t = await startTestApp({ clock: () => now, logger: createLogger({ level: 'debug', destination }), env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. LOGMARK-DOCTOR-NAME', phone_number: '+91 97111 22233' });
    patient = await t.createUser('patient', { name: 'LOGMARK-PATIENT-NAME', phone_number: '+91 96111 22233' });
    appointmentId = await heldAppointment(t, { doctor, patient, hour: 11, setNow: (d) => (now = d), notes: 'LOGMARK-NOTES' });
  });
  after(() => t.close());

  const upload = (url: string, who: TestUser) => t.http.post(url).set(who.auth);

  it('good and bad input alike leave no marked value, address, phone or token in any line', async () => {
    const id = appointmentId;
    const patientEmail = (await t.http.get('/api/v1/users/me').set(patient.auth).expect(200)).body.email as string;
    // Good input.
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'LOGMARK-CHAT' }).expect(201);
    await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: false, chief_complaint: 'LOGMARK-COMPLAINT', patient_name: 'LOGMARK-PATIENT-NAME' }).expect(200);
    await upload('/api/v1/records/reports', patient).field('report_type', 'lab').field('report_date', indiaDate(0)).field('report_summary', 'LOGMARK-SUMMARY').attach('files', PDF, 'LOGMARK-FILE.pdf').expect(201);
    await upload(`/api/v1/consultations/${id}/prescription-files`, doctor).field('patient_name', 'LOGMARK-PATIENT-NAME').field('medication_summary', 'LOGMARK-MEDS').attach('file', PDF, 'LOGMARK-RX.pdf').expect(201);
    const paragraph = { type: 'paragraph', data: { text: 'LOGMARK-POST-TEXT' } };
    await t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title: 'LOGMARK-POST', description: null, content: { time: 1, version: '2.31.0', blocks: [paragraph] } }).expect(201);
    await t.settle();
    await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(doctor.auth).expect(200);
    await t.http.get('/api/v1/users/me/export').set(patient.auth).expect(200);
    await t.http.get('/api/v1/users/me/export?format=zip').set(patient.auth).expect(200);

    // Bad input: each value refused is a marked one.
    const bad: Array<[string, Promise<{ status: number }>]> = [
      ['chat', t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: `LOGMARK-BAD-CHAT ${'x'.repeat(5000)}` })],
      ['notes', t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: 'LOGMARK-BAD-DRAFT', chief_complaint: 'LOGMARK-BAD-COMPLAINT', priority_level: 'LOGMARK-BAD-PRIORITY' })],
      ['prescription', t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [{ medicine: 'LOGMARK-BAD-MEDICINE', medicine_id: 'LOGMARK-BAD-ID' }], diagnosis: 'LOGMARK-BAD-DIAGNOSIS' })],
      ['report type', upload('/api/v1/records/reports', patient).field('report_type', 'LOGMARK-BAD-TYPE').field('report_date', 'LOGMARK-BAD-DATE').attach('files', PDF, 'LOGMARK-BAD-FILE.pdf')],
      ['report file', upload('/api/v1/records/reports', patient).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', Buffer.from('LOGMARK-BAD-CONTENT'), 'LOGMARK-BAD-NAME@x.in.pdf')],
      ['report multipart', t.http.post('/api/v1/records/reports').set(patient.auth).set('Content-Type', 'multipart/form-data; boundary=b').send('--b\r\nContent-Disposition: form-data; name="LOGMARK-BAD-FIELD"\r\n\r\nLOGMARK-BAD-VALUE')],
      ['prescription file', upload(`/api/v1/consultations/${id}/prescription-files`, doctor).field('patient_name', 'LOGMARK-BAD-RX-NAME').attach('file', Buffer.from('LOGMARK-BAD-RX'), 'LOGMARK-BAD-RX.exe')],
      ['post', t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title: 'LOGMARK-BAD-TITLE', content: 'LOGMARK-BAD-CONTENT' })],
      ['consent', t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: 'LOGMARK-BAD-VERSION', language: 'LOGMARK-BAD-LANGUAGE' })],
      ['records of', t.http.get('/api/v1/patients/LOGMARK-BAD-PATIENT@x.in/records').set(doctor.auth)],
      ['file', t.http.get('/api/v1/records/files/LOGMARK-BAD-FILE-ID').set(patient.auth)],
      ['export', t.http.get('/api/v1/users/me/export?format=LOGMARK-BAD-FORMAT').set(patient.auth)],
      ['access log', t.http.get('/api/v1/users/me/access-log?cursor=LOGMARK-BAD-CURSOR').set(patient.auth)],
      ['json', t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).set('Content-Type', 'application/json').send('{"text": "LOGMARK-BAD-JSON')],
    ];
    for (const [what, request] of bad) {
      const res = await request;
      assert.ok(res.status >= 400 && res.status < 500, `${what}: refused with a 4xx (got ${res.status})`);
    }
    await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
    await t.settle();

    const all = lines.join('');
    assert.ok(lines.length > 20, 'the requests were logged');
    const found = [...new Set(all.match(/LOGMARK-[A-Z-]+/g) ?? [])];
    assert.deepEqual(found, [], 'no marked value in any log line');
    for (const value of [patientEmail, '96111 22233', '97111 22233', 'enc1.', patient.token, doctor.token]) {
      assert.ok(!all.includes(value), `no ${value.slice(0, 12)}… in the logs`);
    }
  });
});
