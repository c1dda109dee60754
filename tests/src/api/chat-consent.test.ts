import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSENT_NOTICE_VERSION, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { heldAppointment } from '../support/held-appointment';

/**
 * The chat is the patient's data, like their reports: after they withdraw consent, their doctor reads only what the
 * doctor wrote once the consultation is over; during a consultation the patient keeps, the chat is how they talk.
 */
describe("a consultation's chat rests on the patient's consent", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  const setNow = (at: Date) => (now = at);

  before(async () => {
    t = await startTestApp({ clock: () => now });
    spec = apiSpec(t);
  });
  after(() => t.close());

  const say = async (who: TestUser, id: string, text: string) =>
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/messages`).set(who.auth).send({ text })))
      .expectStatus(201)
      .expectEvents([{ stream: streams.consultationChat(id), type: 'ConsultationMessagePosted', data: { sender_id: who.user_id } }]);
  const read = async (who: TestUser, id: string) =>
    ((await spec.read((http) => http.get(`/api/v1/consultations/${id}/messages`).set(who.auth).expect(200))).body.messages as Array<{ text: string }>).map((m) => m.text);

  it('withdrawn: during the call both read everything; after it the doctor reads only their own messages; agreed again: all', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const id = await heldAppointment(t, { doctor, patient, hour: 10, setNow });
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(patient.auth))).expectStatus(200);
    await say(patient, id, 'I have had a fever since Monday');
    await say(doctor, id, 'Please take your temperature twice a day');
    // The appointment is under way: the withdrawal closes nothing.
    (await spec.when((http) => http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentWithdrawn' }])
      .expectReactions([]);
    await say(patient, id, 'It was 101 this morning');
    assert.deepEqual(await read(doctor, id), ['I have had a fever since Monday', 'Please take your temperature twice a day', 'It was 101 this morning'], 'the call goes on');

    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.consultation(id), type: 'ConsultationEnded' }])
      .expectReactions([{ stream: streams.appointment(id), type: 'AppointmentCompleted' }]);
    assert.deepEqual(await read(doctor, id), ['Please take your temperature twice a day'], 'after the call: only what the doctor wrote');
    assert.equal((await read(patient, id)).length, 3, 'the patient reads all of theirs');

    (await spec.when((http) => http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION })))
      .expectStatus(201)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven' }]);
    assert.equal((await read(doctor, id)).length, 3, 'agreed again: the doctor reads the chat again');
  });
});
