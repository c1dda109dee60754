import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, CONSULTATION_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

describe('consultations API (issue 13)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', TURN_SECRET: 'a-turn-secret-of-16+', ICE_SERVERS: '[{"urls":"stun:stun.example.in:3478"},{"urls":["turn:turn.example.in:3478"]}]' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a doctor and a patient of this case and an appointment two days ahead, confirmed unless told otherwise. */
  async function appointment(confirmed = true) {
    now = new Date();
    const doctor = await spec.given.doctor({ name: 'Dr. Asha Menon' });
    const patient = await spec.given.patient({ name: 'Ravi Kumar' });
    const { appointment_id: id, slot } = await spec.given.appointment({ doctor, patient, confirmed });
    return { id, start: slot.start, doctor, patient };
  }
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const iso = (date: Date) => date.toISOString().replace('.000Z', 'Z');
  const join = (id: string, user: TestUser) => spec.when((http) => http.post(`/api/v1/consultations/${id}/join`).set(user.auth));
  const view = async (id: string, user: TestUser) => (await spec.read((http) => http.get(`/api/v1/consultations/${id}`).set(user.auth))).body;
  const consultation = (id: string) => streams.consultation(id);

  it('opens 15 minutes before the start: before that a 409 says when', async () => {
    const { id, start, patient } = await appointment();
    now = minutes(start, -16);
    const early = (await join(id, patient)).expectStatus(409).expectNoEvents();
    const opensAt = iso(minutes(start, -15));
    assert.equal(early.body.detail, CONSULTATION_TEXTS.notOpenYet(opensAt, 15));

    now = minutes(start, -15);
    const res = (await join(id, patient)).expectStatus(200).expectEvents([
      { stream: streams.appointment(id), type: 'AppointmentConsultationBegun' },
      { stream: consultation(id), type: 'ConsultationStarted' },
      { stream: consultation(id), type: 'ConsultationJoined', data: { user_id: patient.user_id } },
    ]);
    assert.equal(res.body.provider, 'p2p');
    assert.equal(res.body.room, `consultation-${id}`);
    assert.equal(res.body.started_at, opensAt);
    assert.equal(res.body.ends_at, iso(minutes(start, 15)), 'the limit is 30 minutes from the first join');
    assert.equal(res.body.token, undefined);
    assert.deepEqual(res.body.ice_servers[0], { urls: 'stun:stun.example.in:3478' });
    const turn = res.body.ice_servers[1];
    assert.equal(turn.username, `${Date.parse(res.body.ends_at) / 1000}:${patient.user_id}`, 'coturn REST username: <expiry>:<user>');
    assert.match(turn.credential, /^[A-Za-z0-9+/]+=*$/);
  });

  it('refuses everyone but its patient and doctor (404), anonymous callers (401) and unconfirmed appointments (409)', async () => {
    const { id, start, doctor, patient } = await appointment();
    const otherDoctor = await spec.given.doctor();
    const otherPatient = await spec.given.patient();
    now = minutes(start, -5);
    for (const stranger of [otherPatient, otherDoctor]) {
      const res = (await join(id, stranger)).expectStatus(404).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.appointmentNotFound);
      (await spec.when((http) => http.get(`/api/v1/consultations/${id}`).set(stranger.auth))).expectStatus(404).expectNoEvents();
      (await spec.when((http) => http.post(`/api/v1/consultations/${id}/end`).set(stranger.auth))).expectStatus(404).expectNoEvents();
      (await spec.when((http) => http.post(`/api/v1/consultations/${id}/messages`).set(stranger.auth).send({ text: 'hi' }))).expectStatus(404).expectNoEvents();
      (await spec.when((http) => http.get(`/api/v1/consultations/${id}/messages`).set(stranger.auth))).expectStatus(404).expectNoEvents();
    }
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/join`))).expectStatus(401).expectNoEvents();
    (await spec.when((http) => http.get(`/api/v1/consultations/${id}`))).expectStatus(401).expectNoEvents();
    (await join('no-such-appointment', patient)).expectStatus(404).expectNoEvents();

    now = new Date();
    const requested = await spec.given.appointment({ doctor, patient });
    now = minutes(requested.slot.start, -5);
    const res = (await join(requested.appointment_id, patient)).expectStatus(409).expectNoEvents();
    assert.match(res.body.detail, /requested, not confirmed/);
  });

  it('shows who is present; a reload rejoins with the same start and limit and replaces the older connection; a leave is shown', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, -2);
    const first = (await join(id, patient)).expectStatus(200).body;
    let state = await view(id, doctor);
    assert.equal(state.status, 'active');
    assert.deepEqual(state.participants.map((p: { name: string; present: boolean; role_display_name: string }) => [p.name, p.present, p.role_display_name]), [['Ravi Kumar', true, 'Patient']]);

    now = minutes(start, 3);
    const doctorJoin = (await join(id, doctor)).expectStatus(200).expectEvents([{ stream: consultation(id), type: 'ConsultationJoined', data: { user_id: doctor.user_id } }]).body;
    assert.equal(doctorJoin.started_at, first.started_at, 'the limit runs from the first join, whoever joins later');
    now = minutes(start, 4);
    const reloaded = (await join(id, patient)).expectStatus(200);
    const reload = reloaded.body;
    assert.equal(reload.started_at, first.started_at);
    assert.equal(reload.ends_at, first.ends_at);
    assert.notEqual(reload.connection_id, first.connection_id);
    reloaded.expectEvents([{ stream: consultation(id), type: 'ConsultationJoined', data: { user_id: patient.user_id, replaced_connection_id: first.connection_id } }]);
    const joinedEvents = (await t.app.eventStore.readStream(consultation(id))).filter((e) => e.type === 'ConsultationJoined');
    assert.equal((joinedEvents.at(-1)!.data as { replaced_connection_id: string }).replaced_connection_id, first.connection_id);
    state = await view(id, patient);
    assert.equal(state.duration_seconds, 6 * 60, 'the duration continues from the server start');
    assert.equal(state.participants.filter((p: { present: boolean }) => p.present).length, 2);

    // The replaced tab unloading does not take the new connection away.
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/leave`).set(patient.auth).send({ connection_id: first.connection_id }))).expectStatus(200).expectNoEvents();
    state = await view(id, doctor);
    assert.equal(state.participants.find((p: { user_id: string }) => p.user_id === patient.user_id).present, true);
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/leave`).set(patient.auth).send({ connection_id: reload.connection_id }))).expectStatus(200).expectEvents([{ stream: consultation(id), type: 'ConsultationLeft', data: { user_id: patient.user_id } }]);
    state = await view(id, doctor);
    const gone = state.participants.find((p: { user_id: string }) => p.user_id === patient.user_id);
    assert.equal(gone.present, false, 'someone who left is not shown as present');
    assert.ok(gone.left_at);
  });

  it('End Call ends it for both, completes the appointment, and refuses joining and chat after', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, 0);
    (await join(id, patient)).expectStatus(200);
    (await join(id, doctor)).expectStatus(200);
    const message = (user: TestUser, text: string) => spec.when((http) => http.post(`/api/v1/consultations/${id}/messages`).set(user.auth).send({ text }));
    const sent = (await message(patient, '  Fever since Monday  ')).expectStatus(201);
    (await message(doctor, 'Any cough?')).expectStatus(201).expectEvents([{ stream: streams.consultationChat(id), type: 'ConsultationMessagePosted' }]);
    const chat = (await spec.read((http) => http.get(`/api/v1/consultations/${id}/messages`).set(doctor.auth))).body.messages;
    assert.deepEqual(chat.map((m: { text: string; sender_name: string }) => [m.sender_name, m.text]), [['Ravi Kumar', 'Fever since Monday'], ['Dr. Asha Menon', 'Any cough?']]);
    assert.equal(chat[0].message_id, sent.body.message_id);
    const page = (await spec.read((http) => http.get(`/api/v1/consultations/${id}/messages?after=${sent.body.message_id}`).set(patient.auth))).body.messages;
    assert.equal(page.length, 1);
    (await message(patient, '   ')).expectStatus(422).expectNoEvents();

    now = minutes(start, 10);
    const ended = (await spec.when((http) => http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth)))
      .expectStatus(200)
      .expectBody({ appointment_id: id, status: 'ended', auto_ended: false })
      .expectEvents([{ stream: consultation(id), type: 'ConsultationEnded' }])
      .expectReactions([{ stream: streams.appointment(id), type: 'AppointmentCompleted' }]);
    assert.ok(ended.position > 0);
    const state = await view(id, patient);
    assert.equal(state.status, 'ended');
    assert.equal(state.ended_by, doctor.user_id);
    assert.equal(state.duration_seconds, 600);
    assert.ok(state.participants.every((p: { present: boolean }) => !p.present));
    const res = (await join(id, patient)).expectStatus(409).expectNoEvents();
    assert.equal(res.body.detail, CONSULTATION_TEXTS.ended);
    (await message(patient, 'late')).expectStatus(409).expectNoEvents();
    const mine = await spec.read((http) => http.get(`/api/v1/appointments/me?status=completed&include_past=true`).set(patient.auth));
    assert.ok(mine.body.some((a: { appointment_id: string; status: string }) => a.appointment_id === id && a.status === 'completed'), 'the appointment is completed');
    const history = (await spec.read((http) => http.get(`/api/v1/appointments/${id}/history`).set(patient.auth))).body;
    const types = JSON.stringify(history);
    for (const type of ['ConsultationStarted', 'ConsultationJoined', 'ConsultationEnded', 'AppointmentCompleted']) assert.ok(types.includes(type), `history shows ${type}`);
  });

  it('the limit: the process manager auto-ends at 30 minutes from the first join, with an injected clock', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, 1);
    (await join(id, patient)).expectStatus(200);
    (await join(id, doctor)).expectStatus(200);
    now = minutes(start, 30);
    await t.app.runSweepsNow();
    assert.equal((await view(id, doctor)).status, 'active', 'not before the limit');
    now = minutes(start, 31);
    await t.app.runSweepsNow();
    const events = await t.app.eventStore.readStream(consultation(id));
    const autoEnded = events.find((e) => e.type === 'ConsultationAutoEnded')!;
    assert.ok(autoEnded, 'ConsultationAutoEnded recorded');
    assert.equal((autoEnded.metadata as { actor: { role: string } }).actor.role, 'system');
    const state = await view(id, patient);
    assert.equal(state.status, 'ended');
    assert.equal(state.auto_ended, true);
    assert.equal(state.duration_seconds, 30 * 60);
    (await join(id, doctor)).expectStatus(409).expectNoEvents();
    // view() settled: the closer has completed the appointment in answer to the auto-end, and the read models hold it.
    const doc = await t.app.readStore.collection<{ _id: string; status: string; status_reason: string | null }>('appointments').get(id);
    assert.deepEqual([doc?.status, doc?.status_reason], ['completed', 'auto_ended']);
    const open = await t.app.readStore.collection('open_consultations').get(id);
    assert.equal(open, null, 'an ended consultation leaves the index of open ones');
  });

  it('a request after the limit finds it ended even before the process manager ran', async () => {
    const { id, start, doctor, patient } = await appointment();
    now = minutes(start, 0);
    (await join(id, patient)).expectStatus(200);
    now = minutes(start, 45);
    const res = (await join(id, doctor))
      .expectStatus(409)
      .expectEvents([{ stream: consultation(id), type: 'ConsultationAutoEnded' }])
      // Only the patient came: not completed, but left to the no-show sweep (issue 35) to close as the doctor's no-show.
      .expectReactions([]);
    assert.equal(res.body.detail, CONSULTATION_TEXTS.ended);
    const events = await t.app.eventStore.readStream(consultation(id));
    assert.equal(events.at(-1)!.type, 'ConsultationAutoEnded');
  });

  it('the LiveKit webhook answers 404 when LiveKit is not configured', async () => {
    (await spec.when((http) => http.post('/api/v1/video/livekit/webhook').set('Content-Type', 'application/webhook+json').send('{}'))).expectStatus(404).expectNoEvents();
  });
});
