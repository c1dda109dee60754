import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { API_TEXTS, CONSULTATION_TEXTS, DEFAULT_TIMEZONE, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventually } from '../support/eventually';

describe('consultations API (issue 13)', () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let otherDoctor: TestUser;
  let patient: TestUser;
  let otherPatient: TestUser;
  let hour = 8;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', TURN_SECRET: 'a-turn-secret-of-16+', ICE_SERVERS: '[{"urls":"stun:stun.example.in:3478"},{"urls":["turn:turn.example.in:3478"]}]' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Asha Menon' });
    otherDoctor = await t.createUser('doctor');
    patient = await t.createUser('patient', { name: 'Ravi Kumar' });
    otherPatient = await t.createUser('patient');
  });
  after(() => t.close());

  /** A new appointment two days ahead (its own hour), confirmed unless told otherwise; returns its id and start. */
  async function appointment(confirm = true): Promise<{ id: string; start: Date }> {
    now = new Date();
    hour += 1;
    const date = indiaDate(2);
    const time = `${String(hour).padStart(2, '0')}:00`;
    const [slot] = await t.openSlots(doctor, [{ date, time }]);
    const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }).expect(201);
    const id = res.body.appointment_id as string;
    if (confirm) await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    await t.settle();
    return { id, start: DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE }).toJSDate() };
  }
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const join = (id: string, user: TestUser) => t.http.post(`/api/v1/consultations/${id}/join`).set(user.auth);
  const view = async (id: string, user: TestUser) => {
    await t.settle();
    return (await t.http.get(`/api/v1/consultations/${id}`).set(user.auth).expect(200)).body;
  };
  async function unchangedLog<T>(action: () => Promise<T>): Promise<T> {
    await t.settle(); // what earlier requests set going (a process manager's answer) is written before the count starts
    const head = await t.app.eventStore.headPosition();
    const result = await action();
    assert.equal(await t.app.eventStore.headPosition(), head, 'a refused request must not write events');
    return result;
  }

  it('opens 15 minutes before the start: before that a 409 says when', async () => {
    const { id, start } = await appointment();
    now = minutes(start, -16);
    const early = await unchangedLog(() => join(id, patient).expect(409));
    const opensAt = minutes(start, -15).toISOString().replace('.000Z', 'Z');
    assert.equal(early.body.detail, CONSULTATION_TEXTS.notOpenYet(opensAt, 15));
    now = minutes(start, -15);
    const res = await join(id, patient).expect(200);
    assert.equal(res.body.provider, 'p2p');
    assert.equal(res.body.room, `consultation-${id}`);
    assert.equal(res.body.started_at, opensAt);
    assert.equal(res.body.ends_at, minutes(start, 15).toISOString().replace('.000Z', 'Z'), 'the limit is 30 minutes from the first join');
    assert.equal(res.body.token, undefined);
    assert.deepEqual(res.body.ice_servers[0], { urls: 'stun:stun.example.in:3478' });
    const turn = res.body.ice_servers[1];
    assert.equal(turn.username, `${Date.parse(res.body.ends_at) / 1000}:${patient.user_id}`, 'coturn REST username: <expiry>:<user>');
    assert.match(turn.credential, /^[A-Za-z0-9+/]+=*$/);
  });

  it('refuses everyone but its patient and doctor (404), anonymous callers (401) and unconfirmed appointments (409)', async () => {
    const { id, start } = await appointment();
    now = minutes(start, -5);
    for (const stranger of [otherPatient, otherDoctor]) {
      const res = await unchangedLog(() => join(id, stranger).expect(404));
      assert.equal(res.body.detail, API_TEXTS.appointmentNotFound);
      await t.http.get(`/api/v1/consultations/${id}`).set(stranger.auth).expect(404);
      await t.http.post(`/api/v1/consultations/${id}/end`).set(stranger.auth).expect(404);
      await t.http.post(`/api/v1/consultations/${id}/messages`).set(stranger.auth).send({ text: 'hi' }).expect(404);
      await t.http.get(`/api/v1/consultations/${id}/messages`).set(stranger.auth).expect(404);
    }
    await t.http.post(`/api/v1/consultations/${id}/join`).expect(401);
    await t.http.get(`/api/v1/consultations/${id}`).expect(401);
    await join('no-such-appointment', patient).expect(404);

    const requested = await appointment(false);
    now = minutes(requested.start, -5);
    const res = await unchangedLog(() => join(requested.id, patient).expect(409));
    assert.match(res.body.detail, /requested, not confirmed/);
  });

  it('shows who is present; a reload rejoins with the same start and limit and replaces the older connection; a leave is shown', async () => {
    const { id, start } = await appointment();
    now = minutes(start, -2);
    const first = (await join(id, patient).expect(200)).body;
    let state = await view(id, doctor);
    assert.equal(state.status, 'active');
    assert.deepEqual(state.participants.map((p: { name: string; present: boolean; role_display_name: string }) => [p.name, p.present, p.role_display_name]), [['Ravi Kumar', true, 'Patient']]);

    now = minutes(start, 3);
    const doctorJoin = (await join(id, doctor).expect(200)).body;
    assert.equal(doctorJoin.started_at, first.started_at, 'the limit runs from the first join, whoever joins later');
    now = minutes(start, 4);
    const reload = (await join(id, patient).expect(200)).body;
    assert.equal(reload.started_at, first.started_at);
    assert.equal(reload.ends_at, first.ends_at);
    assert.notEqual(reload.connection_id, first.connection_id);
    const joinedEvents = (await t.app.eventStore.readStream(streams.consultation(id))).filter((e) => e.type === 'ConsultationJoined');
    assert.equal((joinedEvents.at(-1)!.data as { replaced_connection_id: string }).replaced_connection_id, first.connection_id);
    state = await view(id, patient);
    assert.equal(state.duration_seconds, 6 * 60, 'the duration continues from the server start');
    assert.equal(state.participants.filter((p: { present: boolean }) => p.present).length, 2);

    // The replaced tab unloading does not take the new connection away.
    await t.http.post(`/api/v1/consultations/${id}/leave`).set(patient.auth).send({ connection_id: first.connection_id }).expect(200);
    state = await view(id, doctor);
    assert.equal(state.participants.find((p: { user_id: string }) => p.user_id === patient.user_id).present, true);
    await t.http.post(`/api/v1/consultations/${id}/leave`).set(patient.auth).send({ connection_id: reload.connection_id }).expect(200);
    state = await view(id, doctor);
    const gone = state.participants.find((p: { user_id: string }) => p.user_id === patient.user_id);
    assert.equal(gone.present, false, 'someone who left is not shown as present');
    assert.ok(gone.left_at);
  });

  it('End Call ends it for both, completes the appointment, and refuses joining and chat after', async () => {
    const { id, start } = await appointment();
    now = minutes(start, 0);
    await join(id, patient).expect(200);
    await join(id, doctor).expect(200);
    const sent = await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: '  Fever since Monday  ' }).expect(201);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'Any cough?' }).expect(201);
    await t.settle();
    const chat = (await t.http.get(`/api/v1/consultations/${id}/messages`).set(doctor.auth).expect(200)).body.messages;
    assert.deepEqual(chat.map((m: { text: string; sender_name: string }) => [m.sender_name, m.text]), [['Ravi Kumar', 'Fever since Monday'], ['Dr. Asha Menon', 'Any cough?']]);
    assert.equal(chat[0].message_id, sent.body.message_id);
    const page = (await t.http.get(`/api/v1/consultations/${id}/messages?after=${sent.body.message_id}`).set(patient.auth).expect(200)).body.messages;
    assert.equal(page.length, 1);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: '   ' }).expect(422);

    now = minutes(start, 10);
    const ended = await t.http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth).expect(200);
    assert.deepEqual(ended.body, { appointment_id: id, status: 'ended', auto_ended: false });
    const state = await view(id, patient);
    assert.equal(state.status, 'ended');
    assert.equal(state.ended_by, doctor.user_id);
    assert.equal(state.duration_seconds, 600);
    assert.ok(state.participants.every((p: { present: boolean }) => !p.present));
    const res = await unchangedLog(() => join(id, patient).expect(409));
    assert.equal(res.body.detail, CONSULTATION_TEXTS.ended);
    await unchangedLog(() => t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'late' }).expect(409));
    await eventually(async () => {
      await t.settle();
      const mine = await t.http.get(`/api/v1/appointments/me?status=completed&include_past=true`).set(patient.auth).expect(200);
      assert.ok(mine.body.some((a: { appointment_id: string; status: string }) => a.appointment_id === id && a.status === 'completed'), 'the appointment is completed');
    });
    const history = (await t.http.get(`/api/v1/appointments/${id}/history`).set(patient.auth).expect(200)).body;
    const types = JSON.stringify(history);
    for (const type of ['ConsultationStarted', 'ConsultationJoined', 'ConsultationEnded', 'AppointmentCompleted']) assert.ok(types.includes(type), `history shows ${type}`);
  });

  it('the limit: the process manager auto-ends at 30 minutes from the first join, with an injected clock', async () => {
    const { id, start } = await appointment();
    now = minutes(start, 1);
    await join(id, patient).expect(200);
    await join(id, doctor).expect(200);
    await t.settle();
    now = minutes(start, 30);
    await t.app.runSweepsNow();
    assert.equal((await view(id, doctor)).status, 'active', 'not before the limit');
    now = minutes(start, 31);
    await t.app.runSweepsNow();
    const events = await t.app.eventStore.readStream(streams.consultation(id));
    const autoEnded = events.find((e) => e.type === 'ConsultationAutoEnded')!;
    assert.ok(autoEnded, 'ConsultationAutoEnded recorded');
    assert.equal((autoEnded.metadata as { actor: { role: string } }).actor.role, 'system');
    const state = await view(id, patient);
    assert.equal(state.status, 'ended');
    assert.equal(state.auto_ended, true);
    assert.equal(state.duration_seconds, 30 * 60);
    await unchangedLog(() => join(id, doctor).expect(409));
    await eventually(async () => {
      await t.settle();
      const doc = await t.app.readStore.collection<{ _id: string; status: string; status_reason: string | null }>('appointments').get(id);
      assert.deepEqual([doc?.status, doc?.status_reason], ['completed', 'auto_ended']);
    });
    const open = await t.app.readStore.collection('open_consultations').get(id);
    assert.equal(open, null, 'an ended consultation leaves the index of open ones');
  });

  it('a request after the limit finds it ended even before the process manager ran', async () => {
    const { id, start } = await appointment();
    now = minutes(start, 0);
    await join(id, patient).expect(200);
    now = minutes(start, 45);
    const res = await join(id, doctor).expect(409);
    assert.equal(res.body.detail, CONSULTATION_TEXTS.ended);
    const events = await t.app.eventStore.readStream(streams.consultation(id));
    assert.equal(events.at(-1)!.type, 'ConsultationAutoEnded');
  });

  it('the LiveKit webhook answers 404 when LiveKit is not configured', async () => {
    await t.http.post('/api/v1/video/livekit/webhook').set('Content-Type', 'application/webhook+json').send('{}').expect(404);
  });
});
