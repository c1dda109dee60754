import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, PATIENT_ERASURE_LEGAL_HOLD, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type SlotAt } from '../support/api-spec';
import { moreGiven, type MoreGiven } from '../support/api-spec-extra';

/**
 * Who reads a prescription file once its appointment is cancelled or its patient erased: the doctor who wrote it (the
 * Guidelines' hold is theirs), and nobody else on the strength of another appointment with the patient.
 */
describe('records kept for their authors', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();
  const setNow = (at: Date) => (now = at);

  before(async () => {
    t = await startTestApp({ clock: () => now });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  /** Given a prescription file the author uploaded in a consultation with the patient: the appointment's and the file's ids. */
  async function prescriptionFile(author: TestUser, patient: TestUser, at?: SlotAt): Promise<{ appointment: string; fileId: string }> {
    const { appointment_id } = await more.consultation({ doctor: author, patient, setNow, at });
    const { file_id } = await more.prescriptionFile(author, appointment_id, 'Kept Patient');
    return { appointment: appointment_id, fileId: file_id };
  }

  const fileIdsOn = async (reader: TestUser, patient: TestUser) => {
    const res = await spec.read((http) => http.get(`/api/v1/patients/${patient.user_id}/records`).set(reader.auth));
    return res.status === 200 ? (res.body.prescription_files as Array<{ file: { file_id: string } }>).map((p) => p.file.file_id) : res.status;
  };
  const file = (fileId: string, reader: TestUser, status: number) => spec.read((http) => http.get(`/api/v1/records/files/${fileId}`).set(reader.auth).expect(status));

  it("after a cancel the log holds from before cancels were refused during a call, the doctor who uploaded a prescription file still reads it, and only what they wrote", async () => {
    const author = await spec.given.doctor();
    const otherDoctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment, fileId } = await prescriptionFile(author, patient);
    assert.deepEqual(await fileIdsOn(author, patient), [fileId]);
    // A cancel is refused once the consultation has begun (issue 31); the log still holds cancels recorded during a
    // call before that rule, as this one is, written as the cancel route then wrote it.
    const refused = (await spec.when((http) => http.post(`/api/v1/appointments/${appointment}/cancel`).set(patient.auth))).expectStatus(409).expectNoEvents();
    assert.equal(refused.body.code, ERROR_CODES.consultationBegun);
    await spec.given.events(streams.appointment(appointment), [
      { type: 'AppointmentCancelled', data: { appointment_id: appointment, cancelled_by: 'patient', reason: null }, actor: { user_id: patient.user_id, role: 'patient' }, occurred_at: now },
    ]);
    await file(fileId, author, 200);
    assert.deepEqual(await fileIdsOn(author, patient), [fileId]);
    await file(fileId, otherDoctor, 404);
  });

  it("after the patient's erasure, another doctor they saw reads none of the kept records; the author reads theirs", async () => {
    const author = await spec.given.doctor();
    const otherDoctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    // The patient saw the other doctor an hour before the author.
    now = new Date();
    await spec.given.appointment({ doctor: otherDoctor, patient, confirmed: true, at: { days: 2, time: '11:00' } });
    const { fileId } = await prescriptionFile(author, patient, { days: 2, time: '12:00' });
    assert.deepEqual(await fileIdsOn(author, patient), [fileId]);
    // Before the erasure the other doctor reads the patient's records (their care): the author's file among them.
    assert.deepEqual(await fileIdsOn(otherDoctor, patient), [fileId]);

    const erased = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(patient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'PersonalDataErased' }])
      .expectReactions([]);
    assert.ok(JSON.stringify(erased.body).includes('readable only by the doctors who wrote them'));
    assert.ok(PATIENT_ERASURE_LEGAL_HOLD.some((k) => k.why.includes('readable only by the doctors who wrote them')));
    assert.equal(await fileIdsOn(otherDoctor, patient), 404, 'nobody else reads an erased patient’s kept records');
    await file(fileId, otherDoctor, 404);
    assert.deepEqual(await fileIdsOn(author, patient), [fileId]);
    await file(fileId, author, 200);
  });
});
