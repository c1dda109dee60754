import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONSULTATION_TEXTS, isServerMessage, type ServerMessage } from '@telemed/contracts';
import { SIGNAL_LIMITS } from '@telemed/notifier';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { callUnderWay } from '../support/held-appointment';

/** About the size of the flood's offers in issue 31 (5.6 MB in 609 offers). */
const OFFER_SDP = 'v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n'.padEnd(9000, 'a');
const SOCKETS = 10;
/** Each socket stays within its own budget (WS_SIGNAL_RATE_LIMIT, 60 per window): only the person's budget stops them. */
const PER_SOCKET = 60;
/** Candidates each side gathers in one negotiation: a few dozen (several interfaces, host, reflexive and relay). */
const CANDIDATES = 25;

type Client = ReturnType<typeof connect>;
type Limited = Extract<ServerMessage, { type: 'rtc_limited' }>;

/** What a bucket of `capacity` per `windowMs` lets through in `elapsedMs` at most: the burst, plus what refilled. */
const atMost = (capacity: number, windowMs: number, elapsedMs: number) => capacity + Math.ceil((elapsedMs * capacity) / windowMs);

describe('signalling budgets per person and per consultation, whatever the number of sockets (issue 31)', () => {
  let t: TestApp;
  let port: number;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    port = await t.app.listen(0, '127.0.0.1');
    doctor = await t.createUser('doctor', { name: 'Dr. Budget' });
  });
  after(() => t.close());

  /** A consultation both have joined, the clock 5 minutes into it; a new patient each time (budgets are per person). */
  async function runningConsultation(): Promise<string> {
    patient = await t.createUser('patient');
    return (await callUnderWay(t, { doctor, patient, hour: (hour += 1), setNow: (at) => (now = at) })).id;
  }

  async function socket(user: TestUser): Promise<Client> {
    const s = connect(`ws://127.0.0.1:${port}`, user.user_id, user.token);
    await s.next('connection_established');
    return s;
  }
  const count = (s: Client, type: string) => s.messages.filter((m) => m.type === type).length;
  /** The rtc_limited answers the sockets got, each read by the shared union (one that does not parse fails the test). */
  const limitedOf = (sockets: Client[]): Limited[] =>
    sockets.flatMap((s) =>
      s.messages.flatMap((m: unknown): Limited[] => {
        if ((m as { type?: unknown }).type !== 'rtc_limited') return [];
        if (!isServerMessage(m) || m.type !== 'rtc_limited') return assert.fail(`rtc_limited is in the shared union: ${JSON.stringify(m)}`);
        return [m];
      }),
    );
  async function until(condition: () => boolean, what: string, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
      await sleep(20);
    }
  }

  /** Every socket sends its frames at once; resolves when each frame has been relayed to the doctor or refused. */
  async function flood(id: string, frame: (i: number) => object, relayedType: string, d: Client) {
    const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => socket(patient)));
    const started = Date.now();
    for (const s of sockets) for (let i = 0; i < PER_SOCKET; i += 1) s.socket.send(JSON.stringify({ appointment_id: id, ...frame(i) }));
    // The server answers plain HTTP while the flood is worked through.
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    const answeredDuringFlood = count(d, relayedType) + limitedOf(sockets).length < SOCKETS * PER_SOCKET;
    assert.equal(health.status, 200, '/healthz answers during the flood');
    await until(() => count(d, relayedType) + limitedOf(sockets).length === SOCKETS * PER_SOCKET, 'every signal was relayed or refused');
    return { sockets, elapsedMs: Date.now() - started, answeredDuringFlood };
  }

  it('ten sockets of one patient flooding offers: the doctor gets at most the consultation\'s offer budget; every other offer is answered rtc_limited', async (ctx) => {
    const id = await runningConsultation();
    const d = await socket(doctor);
    const { sockets, elapsedMs, answeredDuringFlood } = await flood(id, () => ({ type: 'rtc_offer', sdp: OFFER_SDP }), 'rtc_offer', d);
    const relayed = count(d, 'rtc_offer');
    const limited = limitedOf(sockets);
    ctx.diagnostic(`${relayed} offers relayed, ${limited.length} refused in ${elapsedMs} ms; /healthz answered before the flood was through: ${answeredDuringFlood}`);
    assert.ok(relayed >= 1, 'the first offers pass');
    assert.ok(relayed <= atMost(SIGNAL_LIMITS.consultationOffers, SIGNAL_LIMITS.consultationWindowMs, elapsedMs), `at most the offer budget reached the doctor, got ${relayed}`);
    assert.equal(limited.length, SOCKETS * PER_SOCKET - relayed, 'the excess is refused, each with the error');
    for (const message of limited) {
      assert.equal(message.appointment_id, id);
      assert.equal(message.detail, CONSULTATION_TEXTS.signalLimited);
      assert.ok(message.retry_after_ms > 0, 'says when to try again');
    }
    assert.equal(limited[0]!.limit, 'offers');
    // Each socket stayed within its own rate: the refusal is a message, the sockets stay open.
    assert.ok(sockets.every((s) => s.socket.readyState === s.socket.OPEN));
    assert.equal(d.socket.readyState, d.socket.OPEN, 'the doctor was not cut off for not reading');
    for (const s of [...sockets, d]) s.socket.close(1000);
  });

  it('ten sockets of one patient flooding ICE candidates: the doctor gets at most the person\'s signal budget', async (ctx) => {
    const id = await runningConsultation();
    const d = await socket(doctor);
    const candidate = (i: number) => ({ candidate: `candidate:${i} 1 udp 2122260223 10.0.0.2 ${50_000 + i} typ host`, sdpMid: '0', sdpMLineIndex: 0 });
    const { sockets, elapsedMs } = await flood(id, (i) => ({ type: 'rtc_ice_candidate', candidate: candidate(i) }), 'rtc_ice_candidate', d);
    const relayed = count(d, 'rtc_ice_candidate');
    ctx.diagnostic(`${relayed} candidates relayed in ${elapsedMs} ms`);
    assert.ok(relayed <= atMost(SIGNAL_LIMITS.userSignals, SIGNAL_LIMITS.userWindowMs, elapsedMs), `at most the person's budget reached the doctor, got ${relayed}`);
    assert.ok(limitedOf(sockets).some((m) => m.limit === 'signals'));
    for (const s of [...sockets, d]) s.socket.close(1000);
  });

  it('a legitimate negotiation (an offer, an answer, a few dozen candidates each way), and a renegotiation after a reconnect, never meet a limit', async () => {
    const id = await runningConsultation();
    const d = await socket(doctor);
    let expectedCandidates = 0;
    for (let round = 0; round < 2; round += 1) {
      const p = await socket(patient); // the second round is the page's socket after a reconnect
      p.socket.send(JSON.stringify({ type: 'call_attach', appointment_id: id }));
      p.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: OFFER_SDP }));
      await d.next('rtc_offer');
      d.socket.send(JSON.stringify({ type: 'rtc_answer', appointment_id: id, sdp: OFFER_SDP }));
      for (let i = 0; i < CANDIDATES; i += 1) {
        const candidate = { candidate: `candidate:${i} 1 udp 2122260223 10.0.${round}.2 ${50_000 + i} typ host`, sdpMid: '0', sdpMLineIndex: 0 };
        p.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: id, candidate }));
        d.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: id, candidate }));
      }
      expectedCandidates += CANDIDATES;
      await p.next('rtc_answer');
      await until(() => count(d, 'rtc_ice_candidate') === expectedCandidates && count(p, 'rtc_ice_candidate') === CANDIDATES, 'every candidate arrived', 10_000);
      assert.equal(count(p, 'rtc_limited') + count(d, 'rtc_limited'), 0, 'nothing was refused');
      p.socket.terminate(); // a lost network; the page reconnects
    }
    d.socket.close(1000);
  });
});
