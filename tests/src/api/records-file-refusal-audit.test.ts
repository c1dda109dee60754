import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PRIVACY_TEXTS, RECORD_TEXTS, streams, type EventData } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';
import { PDF } from '../support/api-spec-extra';
import { withAuditUnwritable } from '../support/access-audit';

/**
 * The access audit records what was shown, never a refusal (issue 12). A record file's download recorded the doctor's
 * read before it opened the file, so a file that could not be given (its stored bytes gone: 404) was on the patient's
 * access log as read although nothing of it left. The file is opened first; the read is recorded before its first byte.
 */
describe("a record file's download: on the access log only when the file is given", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now });
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a doctor and a patient with a confirmed appointment between them, and a report of the patient's. */
  const given = async (name: string) => {
    const doctor = await spec.given.doctor({ name: 'Dr. Refusal Rao' });
    const patient = await spec.given.patient({ name: 'Reena Refused' });
    now = new Date();
    await spec.given.appointment({ doctor, patient, confirmed: true });
    const res = await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, name).expect(201);
    return { doctor, patient, file: res.body.files[0] as { file_id: string; blob_id: string } };
  };
  const download = (fileId: string, doctor: TestUser) => spec.when((http) => http.get(`/api/v1/records/files/${fileId}`).set(doctor.auth));
  // A file's body is bytes, which the spec helper's status message cannot quote: its status is checked here.
  const given200 = (res: Then) => {
    assert.equal(res.status, 200, `${res.label} answered ${res.status}, not 200`);
    return res;
  };

  it('a file given to the doctor is recorded once', async () => {
    const { doctor, patient, file } = await given('given.pdf');
    const res = given200(await download(file.file_id, doctor)).expectEvents([{ stream: streams.accessAudit(doctor.user_id), type: 'PersonalDataAccessed' }]);
    const events = res.written.map((e) => e.data as EventData<'PersonalDataAccessed'>);
    assert.deepEqual(events.map((e) => [e.resource, e.subjects]), [['record_file', [{ user_id: patient.user_id, items: [events[0]!.subjects[0]!.items[0]] }]]]);
  });

  it('a file whose stored bytes are gone is answered 404 and is not on the access log', async () => {
    const { doctor, file } = await given('lost.pdf');
    const blobs = join(t.dataDir, 'blobs');
    for (const dir of readdirSync(blobs)) rmSync(join(blobs, dir, file.blob_id), { force: true });
    const res = (await download(file.file_id, doctor)).expectStatus(404);
    assert.equal(res.body.detail, RECORD_TEXTS.fileNotFound);
    // Nothing was shown: nothing recorded.
    res.expectNoEvents();
  });

  it('a file whose read cannot be recorded is refused (503) without a byte of it, and the next read is served', async () => {
    const { doctor, file } = await given('unrecorded.pdf');
    await withAuditUnwritable(t, async () => {
      const res = (await download(file.file_id, doctor)).expectStatus(503).expectNoEvents();
      assert.equal(res.body.detail, PRIVACY_TEXTS.auditUnavailable);
      assert.ok(!res.response.text.includes('%PDF'), 'no byte of the file');
    });
    given200(await download(file.file_id, doctor)).expectEvents([{ stream: streams.accessAudit(doctor.user_id), type: 'PersonalDataAccessed' }]);
  });
});
