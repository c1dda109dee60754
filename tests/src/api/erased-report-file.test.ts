import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RECORD_TEXTS } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { moreGiven, type MoreGiven } from '../support/api-spec-extra';

/** A report's file after its patient erased their data: gone (410) to the doctor who read it, unknown (404) to others. */
describe("an erased patient's report file", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  it('answers 410 with why to the doctor who read it, and 404 to a doctor who never could', async () => {
    const doctor = await spec.given.doctor();
    const stranger = await spec.given.doctor();
    const patient = await spec.given.patient();
    await spec.given.appointment({ doctor, patient, confirmed: true });
    const { file_id: fileId } = await more.report(patient);
    const read = (who: TestUser) => spec.when((http) => http.get(`/api/v1/records/files/${fileId}`).set(who.auth));
    // Given the doctor read it.
    await spec.read((http) => http.get(`/api/v1/records/files/${fileId}`).set(doctor.auth).expect(200));
    (await read(stranger)).expectStatus(404).expectNoEvents();
    await more.erasure(patient);
    const gone = (await read(doctor)).expectStatus(410).expectNoEvents();
    assert.equal(gone.body.detail, RECORD_TEXTS.fileErased);
    assert.ok(gone.body.code, 'a stable code for the screens');
    const unknown = (await read(stranger)).expectStatus(404).expectNoEvents();
    assert.equal(unknown.body.detail, RECORD_TEXTS.fileNotFound);
  });
});
