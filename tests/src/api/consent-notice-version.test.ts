import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSENT_NOTICE_VERSION, CONSENT_TEXTS, consentListResponseSchema, streams } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * A consent is to one version of the privacy notice (issue 12): when the notice changes (the first one, 2026-11-v1,
 * did not name the chat, the uploaded reports or the doctors' records), a consent to the earlier text no longer lets a
 * patient book; they are asked to agree to the current one, and then book.
 */
describe('consent to an earlier version of the notice', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  it('the current notice is a later version than the first, and than the English and Hindi one before the ten languages', () => {
    assert.notEqual(CONSENT_NOTICE_VERSION, '2026-11-v1');
    assert.notEqual(CONSENT_NOTICE_VERSION, '2026-11-v3');
  });

  it('refuses the booking with the consent detail (403), then books once the patient agrees to the current notice', async () => {
    const doctor = await spec.given.doctor();
    const { slot_id } = await spec.given.slot(doctor, { days: 3, time: '12:00' });
    const patient = await spec.given.patient({ consent: false });
    // The patient agreed to the first notice, before it changed (as development data written then holds it).
    await spec.given.events(streams.user(patient.user_id), [
      {
        type: 'ConsentGiven',
        data: { user_id: patient.user_id, notice_version: '2026-11-v1', language: 'en', text_hash: '125700d0197e30bb868b5a39ffe41c8ebb19accb2667cfe05da0ccb7a942f687' },
        actor: { user_id: patient.user_id, role: 'patient' },
      },
    ]);
    const book = () => spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Back pain' }));
    const refused = (await book()).expectStatus(403).expectNoEvents();
    assert.equal(refused.body.detail, CONSENT_TEXTS.consentNeeded);
    (await spec.when((http) => http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION, language: 'en' })))
      .expectStatus(201)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven', data: { notice_version: CONSENT_NOTICE_VERSION } }]);
    (await book()).expectStatus(201);
  });

  it('asks a patient who agreed to the English and Hindi notice (2026-11-v3) again, in the language they now read, before booking', async () => {
    const doctor = await spec.given.doctor();
    const { slot_id } = await spec.given.slot(doctor, { days: 4, time: '11:00' });
    const patient = await spec.given.patient({ consent: false });
    // The Hindi text of 2026-11-v3, agreed to before the notice was written in ten languages.
    await spec.given.events(streams.user(patient.user_id), [
      {
        type: 'ConsentGiven',
        data: { user_id: patient.user_id, notice_version: '2026-11-v3', language: 'hi', text_hash: '69dc978b9f9f8fe0e184a430ff87d3da9dc45e6269e100153bf6fd8cc229260d' },
        actor: { user_id: patient.user_id, role: 'patient' },
      },
    ]);
    const consents = async () => consentListResponseSchema.parse((await spec.read((http) => http.get('/api/v1/users/me/consents').set(patient.auth).expect(200))).body);
    const before = await consents();
    assert.equal(before.has_current_consent, false);
    assert.deepEqual(before.consents.map((c) => [c.notice_version, c.status, c.current]), [['2026-11-v3', 'active', false]]);
    const book = () => spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Fever' }));
    assert.equal((await book()).expectStatus(403).expectNoEvents().body.detail, CONSENT_TEXTS.consentNeeded);
    (await spec.when((http) => http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: '2026-11-v3', language: 'hi' })))
      .expectStatus(409)
      .expectNoEvents();
    (await spec.when((http) => http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION, language: 'mr' })))
      .expectStatus(201)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven', data: { notice_version: CONSENT_NOTICE_VERSION, language: 'mr' } }]);
    assert.equal((await consents()).has_current_consent, true);
    (await book()).expectStatus(201);
  });
});
