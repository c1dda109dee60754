import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSENT_NOTICE_VERSION, RECORD_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { moreGiven, PDF, prescriptionFileUploaded, type MoreGiven } from '../support/api-spec-extra';

/**
 * A patient's records are read for their care on their consent (DPDP Act §6(6)): once they withdraw it, their doctors
 * stop reading their reports and the others' records; the doctor who wrote a record keeps reading it (the Guidelines'
 * hold). Agreeing again opens them again. And a prescription, issued or uploaded, follows a consultation held.
 */
describe("a patient's records rest on their consent", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  const people = async () => ({ doctor: await spec.given.doctor({ name: 'Dr. Consent Rao' }), patient: await spec.given.patient({ name: 'Kiran Consent' }) });
  const records = (patient: TestUser, who: TestUser) => spec.read((http) => http.get(`/api/v1/patients/${patient.user_id}/records`).set(who.auth).expect(200));
  const file = (fileId: string, who: TestUser, status: number) => spec.read((http) => http.get(`/api/v1/records/files/${fileId}`).set(who.auth).expect(status));

  it('a prescription file waits for the consultation, as an e-prescription does', async () => {
    const { doctor, patient } = await people();
    now = new Date();
    const { appointment_id: id, slot } = await spec.given.appointment({ doctor, patient, confirmed: true });
    const upload = () => spec.when((http) => http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Kiran Consent').attach('file', PDF, 'rx.pdf'));
    const early = (await upload()).expectStatus(409).expectNoEvents();
    assert.equal(early.body.detail, RECORD_TEXTS.consultationNotHeld);
    now = new Date(slot.start.getTime() - 2 * 60_000);
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth))).expectStatus(200);
    const held = (await upload()).expectStatus(201);
    held.expectEvents(prescriptionFileUploaded(held.body.record_id as string)).expectReactions([]);
  });

  it('withdrawn: the doctor reads only what they wrote; agreed again: the records again', async () => {
    const { doctor, patient } = await people();
    const { appointment_id: id } = await more.consultation({ doctor, patient, setNow: (d) => (now = d) });
    const { file_id: reportFile } = await more.report(patient);
    const { file_id: prescriptionFile } = await more.prescriptionFile(doctor, id, 'Kiran Consent');
    const given = (await records(patient, doctor)).body;
    assert.equal(given.reports.length, 1);
    await file(reportFile, doctor, 200);

    (await spec.when((http) => http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentWithdrawn' }])
      .expectReactions([]);
    const withdrawn = (await records(patient, doctor)).body;
    assert.deepEqual(withdrawn.reports, [], "the patient's reports are no longer the doctor's to read");
    assert.deepEqual(withdrawn.prescription_files.map((p: { file: { file_id: string } }) => p.file.file_id), [prescriptionFile], 'their own prescription file stays theirs');
    await file(reportFile, doctor, 404);
    await file(prescriptionFile, doctor, 200);
    // The patient reads all of theirs whatever they agreed to.
    assert.equal((await spec.read((http) => http.get('/api/v1/records/me').set(patient.auth).expect(200))).body.reports.length, 1);

    (await spec.when((http) => http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION })))
      .expectStatus(201)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven' }])
      .expectReactions([]);
    assert.equal((await records(patient, doctor)).body.reports.length, 1);
    await file(reportFile, doctor, 200);
  });
});
