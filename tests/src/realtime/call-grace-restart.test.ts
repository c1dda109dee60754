import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, streams } from '@telemed/contracts';
import { SqliteEventStore, createLogger } from '@telemed/platform';
import { createNotifier } from '@telemed/notifier';
import { AccessAudit } from '@telemed/platform';
import { appointmentMessageView } from '@telemed/query';
import { indiaDate, startTestApp, tmpDataDir, type TestUser } from '../support/test-app';
import { startServerProcess } from '../support/processes';
import { connect } from '../support/ws-client';

/** Short enough to wait for, long enough for the doctor's page to reconnect after the restart on a loaded machine. */
const GRACE_MS = 8000;
/** Joining opens a day early, so the consultation can start now on a slot a couple of hours ahead. */
const ENV = { CONSULTATION_EARLY_JOIN_MINUTES: '1440', ICE_SERVERS: '[]' };

type Client = ReturnType<typeof connect>;

/**
 * A slot a couple of hours ahead when that falls in the hours slots may start (06:00 to 22:00 in India), else the next
 * 06:00: always within the day joining opens early, whatever the time of day the test runs at (at 20:55 in India the
 * hour two ahead, 22:00, was refused).
 */
function slotWithinADay(now: DateTime): DateTime {
  const soon = now.plus({ hours: 2 }).startOf('hour');
  if (soon.hour >= 6 && soon.hour < 22) return soon;
  const six = soon.set({ hour: 6 });
  return six > now ? six : six.plus({ days: 1 });
}

describe('call graces survive a crash (issue 31, item 3)', () => {
  it('a participant whose call socket died with the process is recorded as gone within the grace after a restart; one who reconnects stays', { timeout: 360_000 }, async (t) => {
    const dataDir = tmpDataDir();
    const setup = await startTestApp({ dataDir, env: ENV });
    // Closed however the setup ends: an app left open keeps the file running until its time limit.
    const { doctor, patient, id } = await (async () => {
      try {
        const doctor = await setup.createUser('doctor', { name: 'Dr. Restart' });
        const patient = await setup.createUser('patient', { name: 'Asha Patil' });
        const start = slotWithinADay(DateTime.now().setZone(DEFAULT_TIMEZONE));
        const [slot] = await setup.openSlots(doctor, [{ date: start.toISODate()!, time: start.toFormat('HH:mm') }]);
        assert.ok(slot !== undefined, `the slot at ${start.toISO()} opened`);
        const booked = await setup.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }).expect(201);
        const id = booked.body.appointment_id as string;
        await setup.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
        return { doctor, patient, id };
      } finally {
        await setup.close({ keepData: true });
      }
    })();

    const servers: Array<Awaited<ReturnType<typeof startServerProcess>>> = [];
    const sockets: Client[] = [];
    try {
      // A long grace in the first run: nothing there may end a grace before the crash.
      const first = await startServerProcess({ DATA_DIR: dataDir, ...ENV, CONSULTATION_DISCONNECT_GRACE_MS: '600000' });
      servers.push(first);
      const api = (server: typeof first, path: string, user: TestUser, method = 'GET') => fetch(`${server.baseUrl}${path}`, { method, headers: user.auth });
      const callSocket = async (server: typeof first, user: TestUser) => {
        const s = connect(server.baseUrl.replace('http', 'ws'), user.user_id, user.token);
        sockets.push(s);
        await s.next('connection_established', 10_000);
        s.socket.send(JSON.stringify({ type: 'call_attach', appointment_id: id }));
        return s;
      };
      for (const user of [patient, doctor]) assert.equal((await api(first, `/api/v1/consultations/${id}/join`, user, 'POST')).status, 200);
      const [p, d] = [await callSocket(first, patient), await callSocket(first, doctor)];
      // The patient's socket carries the call: its offer reaches the doctor.
      p.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: 'v=0 offer' }));
      await d.next('rtc_offer', 10_000);

      first.child.kill('SIGKILL');
      assert.equal(await first.exited, -1, 'killed by a signal');
      await Promise.all([p.closed, d.closed]);

      const restartedAt = Date.now();
      const second = await startServerProcess({ DATA_DIR: dataDir, ...ENV, CONSULTATION_DISCONNECT_GRACE_MS: String(GRACE_MS) });
      servers.push(second);
      // The doctor's page reconnects and attaches its call again, as it does after any drop; the patient's never does.
      await callSocket(second, doctor);
      const presence = async () => {
        const res = await api(second, `/api/v1/consultations/${id}`, doctor);
        assert.equal(res.status, 200);
        const view = (await res.json()) as { status: string; participants: Array<{ user_id: string; present: boolean }> };
        assert.equal(view.status, 'active');
        return new Map(view.participants.map((x) => [x.user_id, x.present]));
      };
      // Without graces derived again at start, the patient would stay present until the 30-minute limit.
      const deadline = Date.now() + GRACE_MS + 60_000;
      while ((await presence()).get(patient.user_id) !== false) {
        if (Date.now() > deadline) assert.fail('the patient is still shown as present long after the grace');
        await sleep(20);
      }
      const leftAfter = Date.now() - restartedAt;
      t.diagnostic(`the patient was shown as gone ${leftAfter} ms after the restart began (grace ${GRACE_MS} ms)`);
      assert.equal((await presence()).get(doctor.user_id), true, 'the doctor, who reconnected within the grace, is still present');

      second.child.kill('SIGTERM');
      await second.exited;
      const eventStore = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
      try {
        const left = (await eventStore.readStream(streams.consultation(id))).filter((e) => e.type === 'ConsultationLeft');
        assert.equal(left.length, 1, 'one leave recorded: the patient\'s');
        const event = left[0]!;
        const data = event.data as { user_id: string; reason: string };
        assert.deepEqual([data.user_id, data.reason], [patient.user_id, 'disconnected']);
        const metadata = event.metadata as { actor: unknown; occurred_at: string };
        assert.deepEqual(metadata.actor, { user_id: 'system', role: 'system' });
        const recordedAt = Date.parse(metadata.occurred_at);
        assert.ok(recordedAt >= restartedAt + GRACE_MS, 'recorded once the grace, armed at the restart, had run');
      } finally {
        await eventStore.close();
      }
    } finally {
      for (const s of sockets) s.socket.terminate();
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a notifier replica starting beside one that holds the call (issue 31, item 3)', () => {
  it('asks the other replicas first: a participant attached there stays; one with no call socket anywhere is recorded as gone after the grace', { timeout: 120_000 }, async () => {
    const grace = 500;
    let now = new Date();
    const t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', CONSULTATION_DISCONNECT_GRACE_MS: String(grace) } });
    let replica: ReturnType<typeof createNotifier> | null = null;
    try {
      const base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
      const doctor = await t.createUser('doctor', { name: 'Dr. Replica' });
      const patient = await t.createUser('patient', { name: 'Farah Khan' });
      const date = indiaDate(2);
      const [slot] = await t.openSlots(doctor, [{ date, time: '11:00' }]);
      const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Headache' }).expect(201);
      const id = res.body.appointment_id as string;
      await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
      now = new Date(DateTime.fromISO(`${date}T11:00`, { zone: DEFAULT_TIMEZONE }).toMillis() + 5 * 60_000);
      await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
      await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
      await t.settle();
      // The patient's call socket is on the running replica; the doctor joined but has no call socket anywhere.
      const attached = new Promise<void>((resolve) => void t.app.bus.subscribeTransient(`telemed.transient.call.${patient.user_id}`, () => resolve()));
      const p = connect(base, patient.user_id, patient.token);
      await p.next('connection_established');
      p.socket.send(JSON.stringify({ type: 'call_attach', appointment_id: id }));
      await attached; // the running replica announces the attachment once it has taken it

      replica = createNotifier({
        tokens: t.app.tokens,
        readStore: t.app.readStore,
        appointmentView: appointmentMessageView(t.app.readStore, t.app.eventStore.keys),
        bus: t.app.bus,
        logger: createLogger({ level: 'silent', name: 'replica-starting' }),
        audit: new AccessAudit({ eventStore: t.app.eventStore, clock: () => now, logger: createLogger({ level: 'silent' }) }),
        waitForPosition: (position) => t.app.runner.waitForPosition(position, 2000),
        clock: () => now,
        disconnectGraceMs: grace,
      });
      await replica.start();

      const left = async () =>
        (await t.app.eventStore.readStream(streams.consultation(id)))
          .filter((e) => e.type === 'ConsultationLeft')
          .map((e) => {
            const data = e.data as { user_id: string; reason: string };
            return [data.user_id, data.reason];
          });
      const deadline = Date.now() + 30_000;
      while ((await left()).length === 0) {
        if (Date.now() > deadline) assert.fail('the doctor, with no call socket anywhere, was never recorded as gone');
        await sleep(20);
      }
      await sleep(grace); // the patient's grace on the new replica was armed at the same moment as the doctor's
      await t.settle();
      assert.deepEqual(await left(), [[doctor.user_id, 'disconnected']], 'only the doctor is recorded as gone');
      const view = await t.http.get(`/api/v1/consultations/${id}`).set(patient.auth).expect(200);
      const present = new Map((view.body.participants as Array<{ user_id: string; present: boolean }>).map((x) => [x.user_id, x.present]));
      assert.deepEqual([present.get(patient.user_id), present.get(doctor.user_id)], [true, false]);
      p.socket.close(1000);
    } finally {
      await replica?.stop();
      await t.close();
    }
  });
});
