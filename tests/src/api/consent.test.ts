import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { API_TEXTS, CONSENT_NOTICE_VERSION, CONSENT_TEXTS, consentListResponseSchema, consentNoticeResponseSchema } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventually } from '../support/eventually';

describe('consent to the privacy notice', () => {
  let t: TestApp;
  let doctor: TestUser;
  let slots: number[];

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    slots = await t.openSlots(doctor, ['09:00', '09:30', '10:00', '10:30', '11:00'].map((time) => ({ date: indiaDate(3), time })));
  });
  after(() => t.close());

  const book = (patient: TestUser, slot_id: number) => t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Migraine for a week' });
  const consents = async (patient: TestUser, position?: string) => {
    const res = await t.http.get('/api/v1/users/me/consents').set(patient.auth).set('X-Min-Position', position ?? '0').expect(200);
    return consentListResponseSchema.parse(res.body);
  };

  it('serves the notice in English and Hindi to anyone, with its version and the hash of its text', async () => {
    for (const language of ['en', 'hi'] as const) {
      const res = await t.http.get(`/api/v1/consents/notice?language=${language}`).expect(200);
      const notice = consentNoticeResponseSchema.parse(res.body);
      assert.equal(notice.version, CONSENT_NOTICE_VERSION);
      assert.equal(notice.language, language);
      assert.equal(notice.text_hash, createHash('sha256').update(notice.text).digest('hex'));
    }
    assert.equal((await t.http.get('/api/v1/consents/notice').expect(200)).body.language, 'en');
    await t.http.get('/api/v1/consents/notice?language=fr').expect(422);
  });

  it('refuses a booking without consent (403, nothing reserved), then books once the patient agrees', async () => {
    const patient = await t.createUser('patient', { consent: false });
    const before = await t.app.eventStore.headPosition();
    const refused = await book(patient, slots[0]!).expect(403);
    assert.equal(refused.body.detail, CONSENT_TEXTS.consentNeeded);
    assert.match(refused.body.detail, /consent is needed/i);
    assert.equal(await t.app.eventStore.headPosition(), before, 'no slot was reserved');
    assert.deepEqual(await consents(patient), { current_notice_version: CONSENT_NOTICE_VERSION, has_current_consent: false, consents: [] });

    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: 'old-version' }).expect(409);
    const agreed = await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION, language: 'hi' }).expect(201);
    assert.deepEqual(agreed.body, { notice_version: CONSENT_NOTICE_VERSION, status: 'active' });
    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);

    const list = await consents(patient, agreed.headers['x-event-position']);
    assert.equal(list.has_current_consent, true);
    assert.equal(list.consents.length, 1);
    assert.deepEqual({ ...list.consents[0], given_at: undefined }, {
      notice_version: CONSENT_NOTICE_VERSION,
      language: 'hi',
      text_hash: (await t.http.get('/api/v1/consents/notice?language=hi')).body.text_hash,
      status: 'active',
      given_at: undefined,
      withdrawn_at: null,
      current: true,
    });
    await book(patient, slots[0]!).expect(201);
  });

  it('withdrawal stops new bookings and is recorded; agreeing again books again', async () => {
    const patient = await t.createUser('patient');
    await book(patient, slots[1]!).expect(201);
    const withdrawn = await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    assert.deepEqual(withdrawn.body, { notice_version: CONSENT_NOTICE_VERSION, status: 'withdrawn' });
    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    assert.match((await book(patient, slots[2]!).expect(403)).body.detail, /consent/i);

    const list = await consents(patient, withdrawn.headers['x-event-position']);
    assert.equal(list.has_current_consent, false);
    assert.equal(list.consents[0]!.status, 'withdrawn');
    assert.ok(list.consents[0]!.withdrawn_at);

    const stream = await t.app.eventStore.readStream(`user-${patient.user_id}`);
    const facts = stream.filter((e) => e.type.startsWith('Consent')).map((e) => [e.type, (e.data as { notice_version: string }).notice_version, (e.metadata as { actor: { user_id: string } }).actor.user_id]);
    assert.deepEqual(facts.slice(-1), [['ConsentWithdrawn', CONSENT_NOTICE_VERSION, patient.user_id]], 'recorded once, with who withdrew');
    assert.ok((stream.at(-1)!.data as { text_hash: string }).text_hash.match(/^[0-9a-f]{64}$/));

    const again = await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION, language: 'hi' }).expect(201);
    await book(patient, slots[2]!).expect(201);
    // Both agreements stay on record, newest first: the one the first booking was made under, withdrawn, and the new one.
    const history = await consents(patient, again.headers['x-event-position']);
    assert.deepEqual(history.consents.map((c) => [c.language, c.status]), [['hi', 'active'], ['en', 'withdrawn']]);
    const exported = await t.http.get('/api/v1/users/me/export').set(patient.auth).set('X-Min-Position', String(again.headers['x-event-position'])).expect(200);
    assert.equal((exported.body.consents as unknown[]).length, 2);
  });

  it('refuses a report upload without a current consent (403, before the file is read: nothing stored), and takes it once the patient agrees', async () => {
    const patient = await t.createUser('patient', { consent: false });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const upload = () =>
      t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(-1)).attach('files', pdf, 'blood.pdf');
    const before = await t.app.eventStore.headPosition();
    const refused = await upload().expect(403);
    assert.equal(refused.body.detail, CONSENT_TEXTS.consentNeededForReports);
    assert.equal(await t.app.eventStore.headPosition(), before, 'nothing recorded');
    assert.deepEqual((await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body.reports, []);

    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    await upload().expect(201);
    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    assert.equal((await upload().expect(403)).body.detail, CONSENT_TEXTS.consentNeededForReports, 'withdrawn: nothing new is shared with their doctors');
  });

  it('a request whose patient withdrew their consent since cannot be approved (409), so it opens none of their records; the withdrawal declines it for good', async () => {
    const patient = await t.createUser('patient');
    const requested = await book(patient, slots[3]!).expect(201);
    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    const refused = await t.http.post(`/api/v1/appointments/${requested.body.appointment_id}/approve`).set(doctor.auth).expect(409);
    assert.equal(refused.body.detail, CONSENT_TEXTS.patientWithdrew);
    await t.settle();
    await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(doctor.auth).expect(404);
    // Another doctor is told nothing of the patient's consent: the appointment is not theirs.
    const other = await t.createUser('doctor');
    await t.http.post(`/api/v1/appointments/${requested.body.appointment_id}/approve`).set(other.auth).expect(404);
    // The withdrawal declined it (the withdrawn-consent closer): agreeing again does not bring it back; they book again.
    await eventually(async () => {
      await t.settle();
      const past = (await t.http.get('/api/v1/appointments/me?section=past').set(patient.auth).expect(200)).body as Array<{ appointment_id: string; status: string; rejection_reason: string | null }>;
      assert.deepEqual(past.find((a) => a.appointment_id === requested.body.appointment_id)?.rejection_reason, API_TEXTS.consentWithdrawn);
    }, 8000);
    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    await t.http.post(`/api/v1/appointments/${requested.body.appointment_id}/approve`).set(doctor.auth).expect(409);
  });

  it('answers 404 for a version never agreed to, 403 for doctors and 401 without a token', async () => {
    const patient = await t.createUser('patient', { consent: false });
    const res = await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(404);
    assert.equal(res.body.detail, CONSENT_TEXTS.noSuchConsent);
    await t.http.post('/api/v1/users/me/consents').set(doctor.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(403);
    await t.http.get('/api/v1/users/me/consents').set(doctor.auth).expect(403);
    await t.http.get('/api/v1/users/me/consents').expect(401);
    await t.http.post('/api/v1/users/me/consents').set(patient.auth).send({ notice_version: CONSENT_NOTICE_VERSION, extra: 1 }).expect(422);
  });
});
