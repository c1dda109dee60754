import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSENT_NOTICE_VERSION } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

/**
 * The chat is the patient's data, like their reports: after they withdraw consent, their doctor reads only what the
 * doctor wrote once the consultation is over; during a consultation the patient keeps, the chat is how they talk.
 */
describe("a consultation's chat rests on the patient's consent", () => {
  let t: TestApp;
  let now = new Date();
  const setNow = (at: Date) => (now = at);
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now });
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  const say = (who: TestUser, id: string, text: string) => t.http.post(`/api/v1/consultations/${id}/messages`).set(who.auth).send({ text }).expect(201);
  const read = async (who: TestUser, id: string) => {
    await t.settle();
    return ((await t.http.get(`/api/v1/consultations/${id}/messages`).set(who.auth).expect(200)).body.messages as Array<{ text: string }>).map((m) => m.text);
  };

  it('withdrawn: during the call both read everything; after it the doctor reads only their own messages; agreed again: all', async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: 10, setNow });
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await say(patient, id, 'I have had a fever since Monday');
    await say(doctor, id, 'Please take your temperature twice a day');
    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    await say(patient, id, 'It was 101 this morning');
    assert.deepEqual(await read(doctor, id), ['I have had a fever since Monday', 'Please take your temperature twice a day', 'It was 101 this morning'], 'the call goes on');

    await t.http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth).expect(200);
    assert.deepEqual(await read(doctor, id), ['Please take your temperature twice a day'], 'after the call: only what the doctor wrote');
    assert.equal((await read(patient, id)).length, 3, 'the patient reads all of theirs');

    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    assert.equal((await read(doctor, id)).length, 3, 'agreed again: the doctor reads the chat again');
  });
});
