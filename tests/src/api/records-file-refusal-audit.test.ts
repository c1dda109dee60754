import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PRIVACY_TEXTS, RECORD_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment } from '../support/held-appointment';
import { auditedReads, withAuditUnwritable } from '../support/access-audit';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/**
 * The access audit records what was shown, never a refusal (issue 12). A record file's download recorded the doctor's
 * read before it opened the file, so a file that could not be given (its stored bytes gone: 404) was on the patient's
 * access log as read although nothing of it left. The file is opened first; the read is recorded before its first byte.
 */
describe("a record file's download: on the access log only when the file is given", () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now });
    doctor = await t.createUser('doctor', { name: 'Dr. Refusal Rao' });
    patient = await t.createUser('patient', { name: 'Reena Refused' });
    await bookedAppointment(t, { doctor, patient, hour: 11, setNow: (d) => (now = d) });
  });
  after(() => t.close());

  const upload = async (name: string) => {
    const res = await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, name).expect(201);
    await t.settle();
    return res.body.files[0] as { file_id: string; blob_id: string };
  };

  it('a file given to the doctor is recorded once', async () => {
    const file = await upload('given.pdf');
    const events = await auditedReads(t, doctor, () => t.http.get(`/api/v1/records/files/${file.file_id}`).set(doctor.auth).expect(200));
    assert.deepEqual(events.map((e) => [e.resource, e.subjects]), [['record_file', [{ user_id: patient.user_id, items: [events[0]!.subjects[0]!.items[0]] }]]]);
  });

  it('a file whose stored bytes are gone is answered 404 and is not on the access log', async () => {
    const file = await upload('lost.pdf');
    const blobs = join(t.dataDir, 'blobs');
    for (const dir of readdirSync(blobs)) rmSync(join(blobs, dir, file.blob_id), { force: true });
    const events = await auditedReads(t, doctor, async () => {
      const res = await t.http.get(`/api/v1/records/files/${file.file_id}`).set(doctor.auth).expect(404);
      assert.equal(res.body.detail, RECORD_TEXTS.fileNotFound);
    });
    assert.deepEqual(events, [], 'nothing was shown: nothing recorded');
  });

  it('a file whose read cannot be recorded is refused (503) without a byte of it, and the next read is served', async () => {
    const file = await upload('unrecorded.pdf');
    await withAuditUnwritable(t, async () => {
      const res = await t.http.get(`/api/v1/records/files/${file.file_id}`).set(doctor.auth).expect(503);
      assert.equal(res.body.detail, PRIVACY_TEXTS.auditUnavailable);
      assert.ok(!res.text.includes('%PDF'), 'no byte of the file');
    });
    await t.http.get(`/api/v1/records/files/${file.file_id}`).set(doctor.auth).expect(200);
  });
});
