import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, type Bus, type ReadStore } from '@telemed/platform';
import { NatsBus } from '@telemed/platform/servers';
import { createNotifier } from '@telemed/notifier';
import { AccessAudit } from '@telemed/platform';
import { appointmentMessageView } from '@telemed/query';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { callUnderWay } from '../support/held-appointment';
import { natsReachable, natsUrl } from '../support/nats';

/**
 * Signals from one sender reach the other participant in the order they were sent (issue 13): the client's
 * negotiation depends on it (an answer before its offer, or candidates before either, are work-arounds at best).
 * The notifier checks each signal against the consultation's read model; with a store whose reads finish in any
 * order (MongoDB's pool does), the relay must still publish in the order received. The replica under test reads
 * through a store that delays every consultation lookup by a random 0–6 ms, as such a pool would.
 */

const SIGNALS = 60;
/** Asked before any suite starts: a suite starting its app beside the check can starve its one-second connect. */
const reachable = await natsReachable();

/** The same store, with each `consultations` lookup taking a random few milliseconds. */
function withUnevenLookups(store: ReadStore): ReadStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
      return (name: string) => {
        const collection = target.collection(name);
        if (name !== 'consultations') return collection;
        return new Proxy(collection, {
          get(inner, key, innerReceiver) {
            if (key !== 'get') return Reflect.get(inner, key, innerReceiver) as unknown;
            return async (id: string) => {
              await sleep(Math.random() * 6);
              return inner.get(id);
            };
          },
        });
      };
    },
  });
}

/** A notifier replica of its own (as a second container would run), on its own HTTP server. */
async function startReplica(t: TestApp, bus: Bus, now: () => Date) {
  const notifier = createNotifier({
    tokens: t.app.tokens,
    readStore: withUnevenLookups(t.app.readStore),
    appointmentView: appointmentMessageView(t.app.readStore, t.app.eventStore.keys),
    bus,
    logger: createLogger({ level: 'silent', name: 'notifier-under-test' }),
    audit: new AccessAudit({ eventStore: t.app.eventStore, clock: now, logger: createLogger({ level: 'silent' }) }),
    waitForPosition: (position) => t.app.runner.waitForPosition(position, 2000),
    clock: now,
    limits: { signalRateLimit: SIGNALS * 2 },
  });
  await notifier.start();
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    if (!notifier.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    base: `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    async stop() {
      await notifier.stop();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A confirmed appointment both have joined, with the clock 5 minutes into it. */
async function runningConsultation(t: TestApp, doctor: TestUser, patient: TestUser, setNow: (d: Date) => void): Promise<string> {
  return (await callUnderWay(t, { doctor, patient, hour: 11, setNow })).id;
}

async function socket(base: string, user: TestUser) {
  const s = connect(base, user.user_id, user.token);
  await s.next('connection_established');
  return s;
}

/** Sends an offer, SIGNALS candidates numbered in order and a hang-up, as fast as the socket takes them; returns what arrived. */
async function burst(from: ReturnType<typeof connect>, to: ReturnType<typeof connect>, appointmentId: string): Promise<string[]> {
  from.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: appointmentId, sdp: 'v=0 offer' }));
  for (let i = 0; i < SIGNALS; i += 1) {
    const candidate = { candidate: `candidate:${i} 1 udp 2122260223 10.0.0.2 ${50_000 + i} typ host`, sdpMid: '0', sdpMLineIndex: 0 };
    from.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: appointmentId, candidate }));
  }
  from.socket.send(JSON.stringify({ type: 'rtc_hang_up', appointment_id: appointmentId }));
  const deadline = Date.now() + 10_000;
  while (!to.messages.some((m) => m.type === 'rtc_hang_up') && Date.now() < deadline) await sleep(20);
  return to.messages
    .filter((m) => m.type.startsWith('rtc_'))
    .map((m) => {
      const candidate = (m as { candidate?: { candidate?: string } }).candidate?.candidate;
      return candidate ? `c${/^candidate:(\d+)/.exec(candidate)?.[1]}` : m.type;
    });
}

const expected = ['rtc_offer', ...Array.from({ length: SIGNALS }, (_, i) => `c${i}`), 'rtc_hang_up'];

describe('signals keep their order from one sender to one recipient (issue 13)', () => {
  let t: TestApp;
  let now = new Date();
  let replica: Awaited<ReturnType<typeof startReplica>>;
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', LOG_LEVEL: 'error' } });
    replica = await startReplica(t, t.app.bus, () => now);
    doctor = await t.createUser('doctor', { name: 'Dr. Order' });
    patient = await t.createUser('patient', { name: 'Kavya Rao' });
  });
  after(async () => {
    await replica?.stop();
    await t?.close();
  });

  it(`an offer, ${SIGNALS} ICE candidates and a hang-up sent at once arrive in that order, through a store whose lookups finish out of order`, async () => {
    const id = await runningConsultation(t, doctor, patient, (d) => (now = d));
    const [p, d] = [await socket(replica.base, patient), await socket(replica.base, doctor)];
    const received = await burst(p, d, id);
    assert.deepEqual(received, expected);
    for (const s of [p, d]) s.socket.close(1000);
  });
});

describe('signals keep their order across two replicas over the real NATS server (issue 13)', { skip: reachable ? false : `not run: no NATS server at ${natsUrl}` }, () => {
  let t: TestApp;
  let now = new Date();
  let busB: NatsBus;
  let replicaB: Awaited<ReturnType<typeof startReplica>>;
  let baseA: string;
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { NATS_URL: natsUrl, NOTIFIER_ID: `order-${randomUUID().slice(0, 8)}`, CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    baseA = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    busB = await NatsBus.connect({ servers: natsUrl });
    replicaB = await startReplica(t, busB, () => now);
    doctor = await t.createUser('doctor', { name: 'Dr. Nats Order' });
    patient = await t.createUser('patient', { name: 'Meera Iyer' });
  });
  after(async () => {
    await replicaB?.stop();
    await busB?.close();
    await t?.close();
  });

  it(`the patient on replica B sends an offer, ${SIGNALS} candidates and a hang-up; the doctor on replica A gets them in that order`, async () => {
    const id = await runningConsultation(t, doctor, patient, (d) => (now = d));
    const [p, d] = [await socket(replicaB.base, patient), await socket(baseA, doctor)];
    const received = await burst(p, d, id);
    assert.deepEqual(received, expected);
    for (const s of [p, d]) s.socket.close(1000);
  });
});
