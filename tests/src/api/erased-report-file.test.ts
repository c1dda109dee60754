import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RECORD_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment } from '../support/held-appointment';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** A report's file after its patient erased their data: gone (410) to the doctor who read it, unknown (404) to others. */
describe("an erased patient's report file", () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let stranger: TestUser;
  let patient: TestUser;
  let fileId: string;

  before(async () => {
    t = await startTestApp({ clock: () => now });
    doctor = await t.createUser('doctor');
    stranger = await t.createUser('doctor');
    patient = await t.createUser('patient');
    await bookedAppointment(t, { doctor, patient, hour: 10, setNow: (d) => (now = d) });
    const report = await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'lab.pdf').expect(201);
    fileId = report.body.files[0].file_id as string;
    await t.settle();
  });
  after(() => t.close());

  it('answers 410 with why to the doctor who read it, and 404 to a doctor who never could', async () => {
    await t.http.get(`/api/v1/records/files/${fileId}`).set(doctor.auth).expect(200);
    await t.http.get(`/api/v1/records/files/${fileId}`).set(stranger.auth).expect(404);
    await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
    await t.settle();
    const gone = await t.http.get(`/api/v1/records/files/${fileId}`).set(doctor.auth).expect(410);
    assert.equal(gone.body.detail, RECORD_TEXTS.fileErased);
    assert.ok(gone.body.code, 'a stable code for the screens');
    const unknown = await t.http.get(`/api/v1/records/files/${fileId}`).set(stranger.auth).expect(404);
    assert.equal(unknown.body.detail, RECORD_TEXTS.fileNotFound);
  });
});
