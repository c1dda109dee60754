import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, streams } from '@telemed/contracts';
import { createLogger } from '@telemed/platform';
import { NatsBus } from '@telemed/platform/servers';
import { createNotifier } from '@telemed/notifier';
import { AccessAudit } from '@telemed/platform';
import { appointmentMessageView } from '@telemed/query';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { natsReachable, natsUrl } from '../support/nats';

const reachable = await natsReachable();
const GRACE_MS = 500;
const skip = reachable ? false : `not run: no NATS server at ${natsUrl}`;

/**
 * Two notifier replicas on the real NATS server: the product's own (replica A, inside the composed app) and a second
 * one (replica B) with its own NATS connection, reading the same read models, as a second container would. A signal
 * from a socket on one replica reaches the other participant's socket on the other, through core NATS subjects.
 */
describe('signalling across two notifier replicas over the real NATS server (issue 13)', { skip }, () => {
  let t: TestApp;
  let replicaB: ReturnType<typeof createNotifier>;
  let busB: NatsBus;
  let serverB: Server;
  let baseA: string;
  let baseB: string;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let stranger: TestUser;
  let appointmentId: string;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { NATS_URL: natsUrl, NOTIFIER_ID: `test-${randomUUID().slice(0, 8)}`, CONSULTATION_SWEEP_INTERVAL_MS: '3600000', CONSULTATION_DISCONNECT_GRACE_MS: String(GRACE_MS) } });
    baseA = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    busB = await NatsBus.connect({ servers: natsUrl });
    replicaB = createNotifier({
      tokens: t.app.tokens,
      readStore: t.app.readStore,
      appointmentView: appointmentMessageView(t.app.readStore, t.app.eventStore.keys),
      bus: busB,
      logger: createLogger({ level: 'silent', name: 'notifier-b' }),
      audit: new AccessAudit({ eventStore: t.app.eventStore, clock: () => now, logger: createLogger({ level: 'silent' }) }),
      waitForPosition: (position) => t.app.runner.waitForPosition(position, 2000),
      clock: () => now,
      disconnectGraceMs: GRACE_MS,
    });
    await replicaB.start();
    serverB = createServer((_req, res) => res.writeHead(404).end());
    serverB.on('upgrade', (req, socket, head) => {
      if (!replicaB.handleUpgrade(req, socket, head)) socket.destroy();
    });
    await new Promise<void>((resolve) => serverB.listen(0, '127.0.0.1', resolve));
    const address = serverB.address();
    baseB = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    doctor = await t.createUser('doctor', { name: 'Dr. Nats' });
    patient = await t.createUser('patient', { name: 'Isha Nair' });
    stranger = await t.createUser('patient');
    const date = indiaDate(2);
    const [slot] = await t.openSlots(doctor, [{ date, time: '10:00' }]);
    const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }).expect(201);
    appointmentId = res.body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(doctor.auth).expect(200);
    now = new Date(DateTime.fromISO(`${date}T10:00`, { zone: DEFAULT_TIMEZONE }).toMillis() + 5 * 60_000);
    await t.settle();
  });
  after(async () => {
    await replicaB?.stop();
    await new Promise((resolve) => serverB?.close(resolve));
    await busB?.close();
    await t?.close();
  });

  async function socket(base: string, user: TestUser) {
    const s = connect(base, user.user_id, user.token);
    await s.next('connection_established');
    return s;
  }

  it('the lobby: the patient waiting on replica A is seen live by the doctor on replica B', async () => {
    const [p, d] = [await socket(baseA, patient), await socket(baseB, doctor)];
    p.socket.send(JSON.stringify({ type: 'lobby_enter', appointment_id: appointmentId }));
    const waiting = (await d.next('lobby_presence', 5000)) as { user_id?: string; present?: boolean };
    assert.deepEqual([waiting.user_id, waiting.present], [patient.user_id, true]);
    p.socket.close(1000);
    const gone = (await d.next('lobby_presence', 5000)) as { present?: boolean };
    assert.equal(gone.present, false);
    d.socket.close(1000);
  });

  it('an offer from a socket on A reaches the doctor on B, the answer and candidates come back, nobody else hears them', async () => {
    await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(doctor.auth).expect(200);
    await t.settle();
    const [p, d, s] = [await socket(baseA, patient), await socket(baseB, doctor), await socket(baseB, stranger)];
    p.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: appointmentId, sdp: 'v=0 offer over nats' }));
    assert.deepEqual(await d.next('rtc_offer', 5000), { type: 'rtc_offer', appointment_id: appointmentId, sdp: 'v=0 offer over nats', from_user_id: patient.user_id });
    d.socket.send(JSON.stringify({ type: 'rtc_answer', appointment_id: appointmentId, sdp: 'v=0 answer over nats' }));
    const answer = (await p.next('rtc_answer', 5000)) as { sdp?: string; from_user_id?: string };
    assert.deepEqual([answer.sdp, answer.from_user_id], ['v=0 answer over nats', doctor.user_id]);
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.2 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    d.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: appointmentId, candidate }));
    assert.deepEqual(((await p.next('rtc_ice_candidate', 5000)) as { candidate?: unknown }).candidate, candidate);
    s.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: appointmentId, sdp: 'v=0 intruder' }));
    await s.next('rtc_refused', 5000);
    // B delivers what NATS brings it in order, at once: a heartbeat answered after the last relay has followed it out.
    for (const c of [s, p, d]) await c.roundTrip();
    assert.ok(!s.messages.some((m) => m.type.startsWith('rtc_') && m.type !== 'rtc_refused'), 'the stranger on B heard nothing');
    assert.ok(!p.messages.some((m) => m.type === 'rtc_offer') && !d.messages.some((m) => m.type === 'rtc_answer'), 'no echo to the sender');
    for (const c of [p, d, s]) c.socket.close(1000);
  });

  it('a call socket dropped on A and attached again on B within the grace keeps the patient present; one dropped on B for good is recorded by the command side', async () => {
    const disconnections = async () =>
      (await t.app.eventStore.readStream(streams.consultation(appointmentId))).filter((e) => e.type === 'ConsultationLeft' && (e.data as { reason: string }).reason === 'disconnected');
    const attach = (c: ReturnType<typeof connect>) => c.socket.send(JSON.stringify({ type: 'call_attach', appointment_id: appointmentId }));
    // The sockets of the test before closed for good: the patient was recorded as gone then. They join again.
    await new Promise((r) => setTimeout(r, GRACE_MS * 2));
    const before = (await disconnections()).length;
    await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(patient.auth).expect(200);
    await t.settle();
    const onA = await socket(baseA, patient);
    // A takes the attachment when it announces it to the replicas (over NATS).
    let heard!: () => void;
    const announced = new Promise<void>((resolve) => (heard = resolve));
    const listening = await busB.subscribeTransient(`telemed.transient.call.${patient.user_id}`, () => heard());
    attach(onA);
    await Promise.race([announced, new Promise((_, reject) => setTimeout(() => reject(new Error('A never announced the attachment over NATS')), 5000).unref())]);
    await listening.unsubscribe();
    onA.socket.terminate();
    await new Promise((r) => setTimeout(r, GRACE_MS / 5));
    const onB = await socket(baseB, patient);
    attach(onB);
    await new Promise((r) => setTimeout(r, GRACE_MS * 2.5));
    assert.equal((await disconnections()).length, before, "B's attachment ended A's grace");

    onB.socket.terminate();
    const deadline = Date.now() + 5000;
    while ((await disconnections()).length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const left = (await disconnections())[before];
    assert.equal((left?.data as { user_id?: string } | undefined)?.user_id, patient.user_id, 'recorded through the notice B sent over NATS');
  });
});
