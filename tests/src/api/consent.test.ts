import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHash, randomUUID } from 'node:crypto';
import { API_TEXTS, CONSENT_LANGUAGES, CONSENT_NOTICE_VERSION, CONSENT_TEXTS, consentListResponseSchema, consentNoticeResponseSchema, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { holdAppend } from '../support/held-append';

describe('consent to the privacy notice', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const book = (patient: TestUser, slot_id: number) => spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Migraine for a week' }));
  const agree = (patient: TestUser, body: object) => spec.when((http) => http.post('/api/v1/users/me/consents').set(patient.auth).send(body));
  const withdraw = (patient: TestUser) => spec.when((http) => http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth));
  const consents = async (patient: TestUser) =>
    consentListResponseSchema.parse((await spec.read((http) => http.get('/api/v1/users/me/consents').set(patient.auth).expect(200))).body);

  it('serves the notice in each of the ten languages to anyone, with its version and the hash of its text', async () => {
    assert.equal(CONSENT_LANGUAGES.length, 10);
    for (const language of CONSENT_LANGUAGES) {
      const res = (await spec.when((http) => http.get(`/api/v1/consents/notice?language=${language}`))).expectStatus(200).expectNoEvents();
      const notice = consentNoticeResponseSchema.parse(res.body);
      assert.equal(notice.version, CONSENT_NOTICE_VERSION);
      assert.equal(notice.language, language);
      assert.equal(notice.text_hash, createHash('sha256').update(notice.text).digest('hex'));
    }
    assert.equal((await spec.when((http) => http.get('/api/v1/consents/notice'))).expectStatus(200).body.language, 'en');
    (await spec.when((http) => http.get('/api/v1/consents/notice?language=fr'))).expectStatus(422);
  });

  it('refuses a booking without consent (403, nothing reserved), then books once the patient agrees', async () => {
    const { slot_id } = await spec.given.slot(await spec.given.doctor());
    const patient = await spec.given.patient({ consent: false });
    const refused = (await book(patient, slot_id)).expectStatus(403).expectNoEvents();
    assert.equal(refused.body.detail, CONSENT_TEXTS.consentNeeded);
    assert.match(refused.body.detail, /consent is needed/i);
    assert.ok(!(await t.app.eventStore.readStream(streams.slot(slot_id))).some((e) => e.type === 'SlotReserved'), 'no slot was reserved');
    assert.deepEqual(await consents(patient), { current_notice_version: CONSENT_NOTICE_VERSION, has_current_consent: false, consents: [] });

    (await agree(patient, { notice_version: 'old-version' })).expectStatus(409).expectNoEvents();
    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION, language: 'hi' }))
      .expectStatus(201)
      .expectBody({ notice_version: CONSENT_NOTICE_VERSION, status: 'active' })
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven', data: { notice_version: CONSENT_NOTICE_VERSION, language: 'hi' } }]);
    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION })).expectStatus(201);

    const list = await consents(patient);
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
    (await book(patient, slot_id)).expectStatus(201);
  });

  it('records agreement to the notice read in a language other than English or Hindi, with the hash of that text', async () => {
    const patient = await spec.given.patient({ consent: false });
    const tamil = consentNoticeResponseSchema.parse((await spec.read((http) => http.get('/api/v1/consents/notice?language=ta').expect(200))).body);
    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION, language: 'ta' }))
      .expectStatus(201)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven', data: { notice_version: CONSENT_NOTICE_VERSION, language: 'ta', text_hash: tamil.text_hash } }]);
    const list = await consents(patient);
    assert.equal(list.has_current_consent, true);
    assert.deepEqual(list.consents.map((c) => [c.language, c.text_hash, c.current]), [['ta', tamil.text_hash, true]]);
  });

  it('withdrawal stops new bookings and is recorded; agreeing again books again', async () => {
    const doctor = await spec.given.doctor();
    const [first, second] = [await spec.given.slot(doctor), await spec.given.slot(doctor)];
    const patient = await spec.given.patient();
    (await book(patient, first.slot_id)).expectStatus(201);
    (await withdraw(patient))
      .expectStatus(200)
      .expectBody({ notice_version: CONSENT_NOTICE_VERSION, status: 'withdrawn' })
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentWithdrawn', data: { notice_version: CONSENT_NOTICE_VERSION } }])
      // The request still waiting is declined in answer (the withdrawn-consent closer), and its slot freed.
      .expectReactions([{ type: 'AppointmentRejected' }, { stream: streams.slot(first.slot_id), type: 'SlotReleased' }]);
    (await withdraw(patient)).expectStatus(200).expectNoEvents();
    assert.match((await book(patient, second.slot_id)).expectStatus(403).expectNoEvents().body.detail, /consent/i);

    const list = await consents(patient);
    assert.equal(list.has_current_consent, false);
    assert.equal(list.consents[0]!.status, 'withdrawn');
    assert.ok(list.consents[0]!.withdrawn_at);

    const stream = await t.app.eventStore.readStream(streams.user(patient.user_id));
    const facts = stream.filter((e) => e.type.startsWith('Consent')).map((e) => [e.type, (e.data as { notice_version: string }).notice_version, (e.metadata as { actor: { user_id: string } }).actor.user_id]);
    assert.deepEqual(facts.slice(-1), [['ConsentWithdrawn', CONSENT_NOTICE_VERSION, patient.user_id]], 'recorded once, with who withdrew');
    assert.ok((stream.at(-1)!.data as { text_hash: string }).text_hash.match(/^[0-9a-f]{64}$/));

    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION, language: 'hi' })).expectStatus(201);
    (await book(patient, second.slot_id)).expectStatus(201);
    // Both agreements stay on record, newest first: the one the first booking was made under, withdrawn, and the new one.
    const history = await consents(patient);
    assert.deepEqual(history.consents.map((c) => [c.language, c.status]), [['hi', 'active'], ['en', 'withdrawn']]);
    const exported = await spec.read((http) => http.get('/api/v1/users/me/export').set(patient.auth).expect(200));
    assert.equal((exported.body.consents as unknown[]).length, 2);
  });

  it('refuses a report upload without a current consent (403, before the file is read: nothing stored), and takes it once the patient agrees', async () => {
    const patient = await spec.given.patient({ consent: false });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const upload = () =>
      spec.when((http) => http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(-1)).attach('files', pdf, 'blood.pdf'));
    const refused = (await upload()).expectStatus(403).expectNoEvents();
    assert.equal(refused.body.detail, CONSENT_TEXTS.consentNeededForReports);
    assert.deepEqual((await spec.read((http) => http.get('/api/v1/records/me').set(patient.auth).expect(200))).body.reports, []);

    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION })).expectStatus(201);
    (await upload()).expectStatus(201);
    (await withdraw(patient)).expectStatus(200);
    assert.equal((await upload()).expectStatus(403).expectNoEvents().body.detail, CONSENT_TEXTS.consentNeededForReports, 'withdrawn: nothing new is shared with their doctors');
  });

  it('a request whose patient withdrew their consent since cannot be approved (409), so it opens none of their records; the withdrawal declines it for good', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment_id } = await spec.given.appointment({ doctor, patient });
    const approve = (who: TestUser) => spec.when((http) => http.post(`/api/v1/appointments/${appointment_id}/approve`).set(who.auth));
    // The doctor approves after the withdrawal and before the withdrawn-consent closer declines the request: the closer
    // is held just before its append, and the approval goes in then.
    const approval = `approval-${randomUUID()}`;
    let refused: { status: number; body: { detail?: unknown } } | null = null;
    const held = holdAppend(
      t.app.eventStore,
      (stream, types) => stream === streams.appointment(appointment_id) && types.includes('AppointmentRejected'),
      async () => void (refused = await t.http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth).set('X-Correlation-Id', approval)),
    );
    let withdrawn;
    try {
      withdrawn = await withdraw(patient);
      await held.done;
    } finally {
      held.release();
    }
    // The closer declines the waiting request in answer to the withdrawal, and the slot releaser frees its slot.
    withdrawn.expectStatus(200).expectReactions([{ stream: streams.appointment(appointment_id), type: 'AppointmentRejected' }, { type: 'SlotReleased' }]);
    assert.equal(refused!.status, 409);
    assert.equal(refused!.body.detail, CONSENT_TEXTS.patientWithdrew);
    const byApproval = withdrawn.unrelated.filter((e) => (e.metadata as { correlation_id?: string }).correlation_id === approval);
    assert.deepEqual(byApproval.map((e) => e.type), [], 'the refused approval wrote nothing');
    (await spec.when((http) => http.get(`/api/v1/patients/${patient.user_id}/records`).set(doctor.auth))).expectStatus(404).expectNoEvents();
    // Another doctor is told nothing of the patient's consent: the appointment is not theirs.
    const other = await spec.given.doctor();
    (await approve(other)).expectStatus(404).expectNoEvents();
    // The withdrawal declined it (the withdrawn-consent closer): agreeing again does not bring it back; they book again.
    const past = (await spec.read((http) => http.get('/api/v1/appointments/me?section=past').set(patient.auth).expect(200))).body as Array<{ appointment_id: string; status: string; rejection_reason: string | null }>;
    assert.deepEqual(past.find((a) => a.appointment_id === appointment_id)?.rejection_reason, API_TEXTS.consentWithdrawn);
    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION })).expectStatus(201);
    (await approve(doctor)).expectStatus(409).expectNoEvents();
  });

  it('answers 404 for a version never agreed to, 403 for doctors and 401 without a token', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient({ consent: false });
    const res = (await withdraw(patient)).expectStatus(404).expectNoEvents();
    assert.equal(res.body.detail, CONSENT_TEXTS.noSuchConsent);
    (await agree(doctor, { notice_version: CONSENT_NOTICE_VERSION })).expectStatus(403).expectNoEvents();
    (await spec.when((http) => http.get('/api/v1/users/me/consents').set(doctor.auth))).expectStatus(403);
    (await spec.when((http) => http.get('/api/v1/users/me/consents'))).expectStatus(401);
    (await agree(patient, { notice_version: CONSENT_NOTICE_VERSION, extra: 1 })).expectStatus(422).expectNoEvents();
  });
});
