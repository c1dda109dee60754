import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSENT_NOTICE_VERSION, RECORD_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment } from '../support/held-appointment';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/**
 * A patient's records are read for their care on their consent (DPDP Act §6(6)): once they withdraw it, their doctors
 * stop reading their reports and the others' records; the doctor who wrote a record keeps reading it (the Guidelines'
 * hold). Agreeing again opens them again. And a prescription, issued or uploaded, follows a consultation held.
 */
describe("a patient's records rest on their consent", () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  let now = new Date();
  let appointmentId: string;
  let start: Date;
  let reportFile: string;
  let prescriptionFile: string;

  before(async () => {
    t = await startTestApp({ clock: () => now });
    doctor = await t.createUser('doctor', { name: 'Dr. Consent Rao' });
    patient = await t.createUser('patient', { name: 'Kiran Consent' });
    ({ id: appointmentId, start } = await bookedAppointment(t, { doctor, patient, hour: 10, setNow: (d) => (now = d) }));
    const report = await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'lab.pdf').expect(201);
    reportFile = report.body.files[0].file_id as string;
    await t.settle();
  });
  after(() => t.close());

  const records = (who: TestUser) => t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(who.auth);

  it('a prescription file waits for the consultation, as an e-prescription does', async () => {
    const before = await t.http.post(`/api/v1/consultations/${appointmentId}/prescription-files`).set(doctor.auth).field('patient_name', 'Kiran Consent').attach('file', PDF, 'rx.pdf').expect(409);
    assert.equal(before.body.detail, RECORD_TEXTS.consultationNotHeld);
    now = new Date(start.getTime() - 2 * 60_000);
    await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(doctor.auth).expect(200);
    const held = await t.http.post(`/api/v1/consultations/${appointmentId}/prescription-files`).set(doctor.auth).field('patient_name', 'Kiran Consent').attach('file', PDF, 'rx.pdf').expect(201);
    prescriptionFile = held.body.file.file_id as string;
    await t.settle();
  });

  it('withdrawn: the doctor reads only what they wrote; agreed again: the records again', async () => {
    const given = (await records(doctor).expect(200)).body;
    assert.equal(given.reports.length, 1);
    await t.http.get(`/api/v1/records/files/${reportFile}`).set(doctor.auth).expect(200);

    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    await t.settle();
    const withdrawn = (await records(doctor).expect(200)).body;
    assert.deepEqual(withdrawn.reports, [], "the patient's reports are no longer the doctor's to read");
    assert.deepEqual(withdrawn.prescription_files.map((p: { file: { file_id: string } }) => p.file.file_id), [prescriptionFile], 'their own prescription file stays theirs');
    await t.http.get(`/api/v1/records/files/${reportFile}`).set(doctor.auth).expect(404);
    await t.http.get(`/api/v1/records/files/${prescriptionFile}`).set(doctor.auth).expect(200);
    // The patient reads all of theirs whatever they agreed to.
    assert.equal((await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body.reports.length, 1);

    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    await t.settle();
    assert.equal((await records(doctor).expect(200)).body.reports.length, 1);
    await t.http.get(`/api/v1/records/files/${reportFile}`).set(doctor.auth).expect(200);
  });
});
