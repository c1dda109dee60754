import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSULTATION_TEXTS, isServerMessage } from '@telemed/contracts';
import { InProcessBus } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { callUnderWay } from '../support/held-appointment';

const OFFER_SDP = 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n'.padEnd(5000, 'a');

describe('consultation signalling over the notifier (issue 13)', () => {
  let t: TestApp;
  let base: string;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let otherPatient: TestUser;
  let otherDoctor: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', WS_SIGNAL_RATE_LIMIT: '30' } });
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    doctor = await t.createUser('doctor', { name: 'Dr. Live' });
    otherDoctor = await t.createUser('doctor');
    patient = await t.createUser('patient', { name: 'Neha Gupta' });
    otherPatient = await t.createUser('patient');
  });
  after(() => t.close());

  /** A confirmed appointment whose consultation both participants have joined; the clock is 5 minutes into it. */
  const runningConsultation = () => callUnderWay(t, { doctor, patient, hour: (hour += 1), notes: 'Rash', setNow: (at) => (now = at) });

  async function sockets(...users: TestUser[]) {
    const opened = users.map((u) => connect(base, u.user_id, u.token));
    for (const s of opened) await s.next('connection_established');
    return opened;
  }
  /** The next consultation_update of this consultation (others' may come first: earlier tests' calls end too). */
  async function nextUpdate(s: ReturnType<typeof connect>, id: string) {
    for (;;) {
      const update = await s.next('consultation_update');
      if (update.data?.appointment_id === id) return update;
    }
  }

  it('relays offer, answer, ICE candidates and hang-up between the two participants only', async () => {
    const { id } = await runningConsultation();
    const [p, d, stranger] = await sockets(patient, doctor, otherPatient);
    p!.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: OFFER_SDP }));
    const offer = await d!.next('rtc_offer');
    assert.deepEqual(offer, { type: 'rtc_offer', appointment_id: id, sdp: OFFER_SDP, from_user_id: patient.user_id });
    assert.ok(isServerMessage(offer), 'the relayed message is in the shared union');
    d!.socket.send(JSON.stringify({ type: 'rtc_answer', appointment_id: id, sdp: 'v=0 answer' }));
    assert.equal(((await p!.next('rtc_answer')) as unknown as { from_user_id: unknown }).from_user_id, doctor.user_id);
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 192.168.1.2 54321 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    d!.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: id, candidate }));
    assert.deepEqual((await p!.next('rtc_ice_candidate') as unknown as { candidate: unknown }).candidate, candidate);
    p!.socket.send(JSON.stringify({ type: 'rtc_hang_up', appointment_id: id }));
    await d!.next('rtc_hang_up');
    // Every signal of the patient's is relayed (in process, at once) by now: what reached the others has arrived.
    await stranger!.roundTrip();
    await p!.roundTrip();
    assert.ok(!stranger!.messages.some((m) => m.type.startsWith('rtc_')), 'nobody else hears the signalling');
    assert.ok(!p!.messages.some((m) => m.type === 'rtc_offer'), 'a sender does not get its own signal back');
    for (const s of [p, d, stranger]) s!.socket.close(1000);
  });

  it('refuses signalling from strangers (other patient, other doctor), to nobody, without relaying', async () => {
    const { id } = await runningConsultation();
    const [p, d, strangerPatient, strangerDoctor] = await sockets(patient, doctor, otherPatient, otherDoctor);
    for (const stranger of [strangerPatient!, strangerDoctor!]) {
      stranger.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: 'v=0 intruder' }));
      const refused = await stranger.next('rtc_refused');
      assert.deepEqual(refused, { type: 'rtc_refused', appointment_id: id, detail: CONSULTATION_TEXTS.signalRefused });
    }
    strangerPatient!.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: 'no-such-consultation', sdp: 'v=0' }));
    await strangerPatient!.next('rtc_refused');
    // Malformed signalling is ignored (no answer, socket stays open).
    p!.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: 42 }));
    p!.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: id, candidate: { candidate: 'x', extra: 'field' } }));
    // A valid signal after them: a socket's signals are relayed in the order sent, so the doctor has had all before it.
    p!.socket.send(JSON.stringify({ type: 'rtc_hang_up', appointment_id: id }));
    await d!.next('rtc_hang_up');
    await d!.roundTrip();
    assert.ok(!d!.messages.some((m) => m.type.startsWith('rtc_')), 'nothing refused or malformed reached the doctor');
    assert.equal(p!.socket.readyState, p!.socket.OPEN);
    for (const s of [p, d, strangerPatient, strangerDoctor]) s!.socket.close(1000);
  });

  it('tells both participants when it auto-ends, and refuses signalling after the end', async () => {
    const { id, start } = await runningConsultation();
    const [p, d] = await sockets(patient, doctor);
    now = new Date(start.getTime() + 40 * 60_000);
    // Past the limit signalling stops at once, before the process manager has recorded anything.
    p!.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: 'v=0 late' }));
    await p!.next('rtc_refused');
    await t.app.runSweepsNow();
    for (const s of [p!, d!]) {
      const update = await nextUpdate(s, id);
      assert.equal(update.data?.event, 'auto_ended');
      assert.equal(update.data?.auto_ended, true);
      assert.equal(update.data?.appointment_id, id);
    }
    now = new Date(start.getTime() + 20 * 60_000); // even with a clock before the limit, an ended consultation stays closed
    d!.socket.send(JSON.stringify({ type: 'rtc_answer', appointment_id: id, sdp: 'v=0 after end' }));
    await d!.next('rtc_refused');
    await p!.roundTrip();
    assert.ok(!p!.messages.some((m) => m.type === 'rtc_answer'));
    for (const s of [p, d]) s!.socket.close(1000);
  });

  it('tells the older tab that a reload replaced its connection', async () => {
    const { id } = await runningConsultation();
    const [oldTab, d] = await sockets(patient, doctor);
    const rejoin = await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    for (const s of [oldTab!, d!]) {
      const update = await nextUpdate(s, id);
      assert.equal(update.data?.event, 'joined');
      assert.equal(update.data?.connection_id, rejoin.body.connection_id);
      assert.ok(update.data?.replaced_connection_id, 'names the connection it replaced');
    }
    for (const s of [oldTab, d]) s!.socket.close(1000);
  });

  it('a signalling flood from one socket is cut at its own budget and never reaches the other side unbounded', async () => {
    const { id } = await runningConsultation();
    const [p, d] = await sockets(patient, doctor);
    for (let i = 0; i < 200; i += 1) p!.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: id, candidate: null }));
    const closed = await p!.closed;
    assert.equal(closed.code, 1008);
    // The relays of what the budget let through were published before the signal that broke it was read.
    await d!.roundTrip();
    const relayed = d!.messages.filter((m) => m.type === 'rtc_ice_candidate').length;
    assert.ok(relayed <= 31, `at most the budget (30) reached the doctor, got ${relayed}`);
    d!.socket.close(1000);
  });

  it('crosses replicas through the bus on transient subjects, never stored', async () => {
    const bus = new InProcessBus();
    const seen: Array<{ subject: string; payload: unknown }> = [];
    await bus.subscribeTransient('telemed.transient.signal.>', (subject, payload) => seen.push({ subject, payload }));
    await bus.publishTransient('telemed.transient.signal.user-1', { to: 'user-1' });
    await bus.publishTransient('telemed.events.appointment.X', { not: 'a signal' });
    assert.deepEqual(seen, [{ subject: 'telemed.transient.signal.user-1', payload: { to: 'user-1' } }]);
    const late: unknown[] = [];
    await bus.subscribeTransient('telemed.transient.signal.>', (_s, payload) => late.push(payload));
    assert.deepEqual(late, [], 'a later subscriber gets nothing published before it (not stored)');
  });
});
