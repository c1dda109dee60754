import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { moreGiven, type MoreGiven } from '../support/api-spec-extra';

/**
 * An erasure and the video consultations (issue 12 against issue 13's read model): the consultation keeps each
 * participant's name as they joined, and each chat message its sender's name as it was sent. After an erasure neither
 * may hold the erased person's name, live or rebuilt from position 0, and both must end the same.
 */
describe('erasure of a consultation participant', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  /** Given a consultation under way between a new patient and a new doctor (both joined), with one message of each. */
  async function chatted(tag: string): Promise<{ id: string; patient: TestUser; doctor: TestUser; patientName: string; doctorName: string }> {
    const patientName = `Ojasvi ${tag} Raghunathan`;
    const doctorName = `Dr. Tejal ${tag} Sahni`;
    const patient = await spec.given.patient({ name: patientName });
    const doctor = await spec.given.doctor({ name: doctorName });
    const { appointment_id: id } = await more.consultation({ doctor, patient, setNow: (d) => (now = d) });
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'It hurts since Monday' }).expect(201);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'Where exactly?' }).expect(201);
    await t.settle();
    return { id, patient, doctor, patientName, doctorName };
  }

  /** The consultation's documents (the call and its chat) as one text, in the live read store or a rebuilt one. */
  async function consultationText(store: { collection: TestApp['app']['readStore']['collection'] }, id: string): Promise<string> {
    const call = await store.collection<{ _id: string }>('consultations').get(id);
    const chat = await store.collection<{ _id: string; appointment_id: string; position: number }>('consultation_messages').find({ appointment_id: id }, { sort: { position: 1 } });
    return JSON.stringify({ call, chat });
  }

  async function rebuilt(id: string): Promise<string> {
    const store = new MemoryReadStore();
    await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: store, projections: allProjections }).catchUp();
    return consultationText(store, id);
  }

  for (const who of ['patient', 'doctor'] as const) {
    it(`the ${who}'s name leaves the consultation and its chat, live and after a replay, which end the same`, async () => {
      const c = await chatted(who === 'patient' ? 'Pat' : 'Doc');
      const erased = who === 'patient' ? c.patient : c.doctor;
      const name = who === 'patient' ? c.patientName : c.doctorName;
      const other = who === 'patient' ? c.doctor : c.patient;
      assert.ok((await consultationText(t.app.readStore, c.id)).includes(name), 'before the erasure the consultation names them');

      (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(erased.auth)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.user(erased.user_id), type: 'PersonalDataErased' }])
        .expectReactions([]);

      const live = await consultationText(t.app.readStore, c.id);
      assert.ok(!live.includes(name), `the live read model holds no "${name}": ${live}`);
      const seen = await spec.read((http) => http.get(`/api/v1/consultations/${c.id}`).set(other.auth).expect(200));
      assert.ok(!JSON.stringify(seen.body).includes(name), 'the other participant no longer reads their name');
      const chat = await spec.read((http) => http.get(`/api/v1/consultations/${c.id}/messages`).set(other.auth).expect(200));
      assert.ok(!JSON.stringify(chat.body).includes(name), "the chat's sender names no longer hold it");
      assert.equal(await rebuilt(c.id), live, 'a rebuild from position 0 ends in the same documents');
    });
  }
});
