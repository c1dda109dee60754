import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { AccessToken, TokenVerifier } from 'livekit-server-sdk';
import { DEFAULT_TIMEZONE, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

const API_KEY = 'APItelemedtest';
const API_SECRET = 'a-livekit-secret-of-at-least-32-characters';

/** Signs a webhook body the way LiveKit does: a JWT from the API key whose `sha256` claim is the body's digest. */
async function signWebhook(body: string, secret = API_SECRET): Promise<string> {
  const token = new AccessToken(API_KEY, secret);
  token.sha256 = createHash('sha256').update(body).digest('base64');
  return token.toJwt();
}

describe('LiveKit provider (issue 13): tokens and webhooks, without a LiveKit server', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let appointmentId: string;
  let start: Date;

  before(async () => {
    // No LiveKit server runs here: the URL is never dialled for tokens or webhooks (room deletion fails and is logged).
    t = await startTestApp({
      clock: () => now,
      env: { LIVEKIT_URL: 'ws://127.0.0.1:9', LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET, CONSULTATION_SWEEP_INTERVAL_MS: '3600000' },
    });
    spec = apiSpec(t);
    doctor = await t.createUser('doctor', { name: 'Dr. Kit' });
    patient = await t.createUser('patient', { name: 'Meera Rao' });
    const date = indiaDate(2);
    const [slot] = await t.openSlots(doctor, [{ date, time: '11:00' }]);
    const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Checkup' }).expect(201);
    appointmentId = res.body.appointment_id;
    await t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(doctor.auth).expect(200);
    start = DateTime.fromISO(`${date}T11:00`, { zone: DEFAULT_TIMEZONE }).toJSDate();
  });
  after(() => t.close());

  it('mints a token for this room and this person only, expiring no later than the time left', async () => {
    now = new Date(start.getTime() - 10 * 60_000);
    const first = (await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(patient.auth).expect(200)).body;
    assert.equal(first.provider, 'livekit');
    assert.equal(first.url, 'ws://127.0.0.1:9');
    // The doctor joins 20 minutes later: their token lives only for the 10 minutes left.
    now = new Date(start.getTime() + 10 * 60_000);
    const joined = (await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(doctor.auth).expect(200)).body;
    for (const [body, user, left] of [[first, patient, 30 * 60], [joined, doctor, 10 * 60]] as const) {
      const claims = await new TokenVerifier(API_KEY, API_SECRET).verify(body.token, 60 * 60 * 24 * 365 * 10);
      assert.equal(claims.sub, user.user_id, 'identity from the verified session');
      assert.equal(claims.video?.room, `consultation-${appointmentId}`);
      assert.equal(claims.video?.roomJoin, true);
      assert.ok(!claims.video?.roomAdmin && !claims.video?.roomCreate && !claims.video?.roomList, 'no grants beyond joining that room');
      const decoded = JSON.parse(Buffer.from(body.token.split('.')[1], 'base64url').toString()) as { exp: number; nbf?: number };
      assert.ok(decoded.exp * 1000 <= Date.parse(body.ends_at) + 1000, 'the token expires no later than the consultation');
      assert.ok(Math.abs(decoded.exp - Math.floor(Date.now() / 1000) - left) <= 5, `ttl is the time left (${left}s)`);
    }
    await assert.rejects(new TokenVerifier(API_KEY, 'another-secret-of-at-least-32-characters').verify(joined.token), 'signed with the API secret');
  });

  it('records a webhook signed as LiveKit signs it, and answers 401 to a bad signature, storing nothing', async () => {
    const body = JSON.stringify({
      event: 'participant_left',
      id: 'EV_test_1',
      createdAt: String(Math.floor(now.getTime() / 1000)),
      room: { name: `consultation-${appointmentId}` },
      participant: { identity: patient.user_id },
    });
    // Nothing recorded from an unverified webhook: a wrong secret, a body its signature is not of, no signature. A webhook
    // is recorded under a correlation id of its own (LiveKit's doing, not the request's), so the consultation's stream too.
    const unverified = async (body: string, authorization?: string) => {
      const then = await spec.when((http) => {
        const req = http.post('/api/v1/video/livekit/webhook').set('Content-Type', 'application/webhook+json');
        return (authorization === undefined ? req : req.set('Authorization', authorization)).send(body);
      });
      then.expectStatus(401).expectNoEvents();
      const recorded = then.unrelated.filter((e) => e.stream_id === streams.consultation(appointmentId)).map((e) => e.type);
      assert.deepEqual(recorded, [], 'nothing recorded from an unverified webhook');
    };
    await unverified(body, await signWebhook(body, 'not-the-secret-but-32-characters-long'));
    await unverified(body.replace('participant_left', 'participant_joined'), await signWebhook(body));
    await unverified(body);

    const res = await t.http.post('/api/v1/video/livekit/webhook').set('Content-Type', 'application/webhook+json').set('Authorization', await signWebhook(body)).send(body).expect(200);
    assert.deepEqual(res.body, { status: 'received' });
    const events = await t.app.eventStore.readStream(streams.consultation(appointmentId));
    const recorded = events.find((e) => e.type === 'VideoProviderEventReceived');
    assert.deepEqual(
      { ...(recorded?.data as object), created_at: undefined },
      { appointment_id: appointmentId, provider: 'livekit', provider_event_id: 'EV_test_1', event: 'participant_left', room: `consultation-${appointmentId}`, participant_identity: patient.user_id, created_at: undefined },
    );
    assert.equal(events.at(-1)?.type, 'ConsultationLeft', 'the room service saw the patient leave: no longer shown as present');
    await t.settle();
    const view = (await t.http.get(`/api/v1/consultations/${appointmentId}`).set(doctor.auth).expect(200)).body;
    assert.equal(view.participants.find((p: { user_id: string }) => p.user_id === patient.user_id).present, false);
  });

  it('records a redelivered webhook (same event id) and the same participant joining twice only once', async () => {
    const webhook = (id: string, event: string, sid: string) =>
      JSON.stringify({
        event,
        id,
        createdAt: String(Math.floor(now.getTime() / 1000)),
        room: { name: `consultation-${appointmentId}` },
        participant: { identity: doctor.user_id, sid },
      });
    const post = async (body: string) =>
      t.http.post('/api/v1/video/livekit/webhook').set('Content-Type', 'application/webhook+json').set('Authorization', await signWebhook(body)).send(body).expect(200);
    const doctorWebhooks = async () =>
      (await t.app.eventStore.readStream(streams.consultation(appointmentId)))
        .filter((e) => e.type === 'VideoProviderEventReceived' && (e.data as { participant_identity: string }).participant_identity === doctor.user_id)
        .map((e) => e.data as { provider_event_id: string; event: string; participant_sid?: string });

    const joined = webhook('EV_join_1', 'participant_joined', 'PA_doctor_1');
    await post(joined);
    await post(joined); // LiveKit retried: the same event id
    await post(webhook('EV_join_2', 'participant_joined', 'PA_doctor_1')); // the same participant's session reported joined again
    assert.deepEqual(
      (await doctorWebhooks()).map((e) => [e.provider_event_id, e.event, e.participant_sid]),
      [['EV_join_1', 'participant_joined', 'PA_doctor_1']],
      'recorded once',
    );
    // A new session of the doctor (a rejoin) is news, and the late leave of the old one does not mark the doctor gone.
    await post(webhook('EV_join_3', 'participant_joined', 'PA_doctor_2'));
    await post(webhook('EV_left_1', 'participant_left', 'PA_doctor_1'));
    await post(webhook('EV_left_1', 'participant_left', 'PA_doctor_1'));
    assert.deepEqual(
      (await doctorWebhooks()).map((e) => e.provider_event_id),
      ['EV_join_1', 'EV_join_3', 'EV_left_1'],
    );
    const events = await t.app.eventStore.readStream(streams.consultation(appointmentId));
    assert.ok(!events.some((e) => e.type === 'ConsultationLeft' && (e.data as { user_id: string }).user_id === doctor.user_id), 'the doctor is still present');
    await t.settle();
    const view = (await t.http.get(`/api/v1/consultations/${appointmentId}`).set(doctor.auth).expect(200)).body;
    assert.equal(view.participants.find((p: { user_id: string }) => p.user_id === doctor.user_id).present, true);
  });
});
