import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { CONSENT_NOTICE_VERSION, CONSENT_TEXTS, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * A consent is to one version of the privacy notice (issue 12): when the notice changes (the first one, 2026-11-v1,
 * did not name the chat, the uploaded reports or the doctors' records), a consent to the earlier text no longer lets a
 * patient book; they are asked to agree to the current one, and then book.
 */
describe('consent to an earlier version of the notice', () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  let slot: number;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    [slot] = (await t.openSlots(doctor, [{ date: indiaDate(3), time: '12:00' }])) as [number];
    patient = await t.createUser('patient', { consent: false });
    // The patient agreed to the first notice, before it changed (as development data written then holds it).
    await t.app.eventStore.appendToStream(
      streams.user(patient.user_id),
      [
        {
          event_id: randomUUID(),
          type: 'ConsentGiven',
          data: { user_id: patient.user_id, notice_version: '2026-11-v1', language: 'en', text_hash: '125700d0197e30bb868b5a39ffe41c8ebb19accb2667cfe05da0ccb7a942f687' },
          metadata: { actor: { user_id: patient.user_id, role: 'patient' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'any' },
    );
  });
  after(() => t.close());

  it('the current notice is a later version than the first', () => {
    assert.notEqual(CONSENT_NOTICE_VERSION, '2026-11-v1');
  });

  it('refuses the booking with the consent detail (403), then books once the patient agrees to the current notice', async () => {
    const refused = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Back pain' }).expect(403);
    assert.equal(refused.body.detail, CONSENT_TEXTS.consentNeeded);
    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION, language: 'en' }).expect(201);
    await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Back pain' }).expect(201);
  });
});
