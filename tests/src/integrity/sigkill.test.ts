import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { SqliteEventStore } from '@telemed/platform';
import { indiaDate, startTestApp, tmpDataDir, type TestUser } from '../support/test-app';
import { runNpm, startServerProcess } from '../support/processes';

type Outcome = { patient: number; slot: number; status: number; appointment_id?: string } | { patient: number; slot: number; lost: true };

/** One client booking its slots one after another until the server goes away. */
async function bookingClient(baseUrl: string, patient: TestUser, index: number, slots: number[], outcomes: Outcome[]): Promise<void> {
  for (const slot of slots) {
    try {
      const res = await fetch(`${baseUrl}/api/v1/appointments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: patient.auth.Authorization },
        body: JSON.stringify({ slot_id: slot, notes: `load ${index}` }),
      });
      const body = (await res.json()) as { appointment_id?: string };
      outcomes.push({ patient: index, slot, status: res.status, appointment_id: body.appointment_id });
    } catch {
      outcomes.push({ patient: index, slot, lost: true });
      return;
    }
  }
}

const shuffled = <T>(items: T[], seed: number): T[] => {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

describe('SIGKILL under booking load', () => {
  it('keeps every acknowledged booking, never books a slot twice, and the live read models equal a replay', { timeout: 60_000 }, async (t) => {
    const dataDir = tmpDataDir();
    const setup = await startTestApp({ dataDir });
    const doctor = await setup.createUser('doctor');
    const admin = await setup.createUser('admin');
    const patients = await Promise.all(Array.from({ length: 6 }, () => setup.createUser('patient')));
    const times = Array.from({ length: 30 }, (_, i) => `${String(7 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
    const slots = await setup.openSlots(doctor, times.map((time) => ({ date: indiaDate(2), time })));
    assert.equal(slots.length, 30);
    await setup.close({ keepData: true });

    // Each patient first books a slot of its own, then races the others for the shared ones in its own order.
    const [own, shared] = [slots.slice(0, patients.length), slots.slice(patients.length)];
    const server = await startServerProcess({ DATA_DIR: dataDir });
    const outcomes: Outcome[] = [];
    const clients = patients.map((p, i) => bookingClient(server.baseUrl, p, i, [own[i]!, ...shuffled(shared, i + 1)], outcomes));
    const total = patients.length * (1 + shared.length);
    const deadline = Date.now() + 10_000;
    while (outcomes.length < total / 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    assert.equal(await server.exited, -1, 'killed by a signal');
    await Promise.all(clients);

    const acknowledged = outcomes.flatMap((o) => ('status' in o && o.status === 201 ? [o] : []));
    const lost = outcomes.filter((o) => 'lost' in o).length;
    t.diagnostic(`${acknowledged.length} bookings acknowledged, ${outcomes.length - acknowledged.length - lost} refused (409), ${lost} lost at the kill`);
    assert.ok(acknowledged.length > 0, 'some bookings were acknowledged before the kill');
    assert.ok(lost > 0, 'requests were in flight when the process was killed');
    assert.ok(outcomes.every((o) => 'lost' in o || o.status === 201 || o.status === 409), JSON.stringify(outcomes.filter((o) => 'status' in o && o.status !== 201 && o.status !== 409)));

    const restarted = await startServerProcess({ DATA_DIR: dataDir, RESERVATION_HEAL_GRACE_MS: '0' });
    const get = async <T>(path: string, user: TestUser): Promise<T> => {
      const res = await fetch(`${restarted.baseUrl}${path}`, { headers: { Authorization: user.auth.Authorization } });
      assert.equal(res.status, 200, path);
      return (await res.json()) as T;
    };
    type Projection = { name: string; position: number; lag: number; checksum: string };
    const caughtUp = async (): Promise<Projection[]> => {
      for (let i = 0; i < 100; i += 1) {
        const rows = await get<Projection[]>('/api/v1/admin/projections?checksum=true', admin);
        if (rows.every((r) => r.lag === 0)) return rows;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail('the projections did not catch up after the restart');
    };
    try {
      await caughtUp();
      // Every acknowledged booking is there, each on its own slot.
      const booked = await get<Array<{ appointment_id: string; slot: { slot_id: number } }>>('/api/v1/appointments/me', doctor);
      const ids = new Set(booked.map((a) => a.appointment_id));
      for (const a of acknowledged) assert.ok(ids.has(a.appointment_id!), `acknowledged booking ${a.appointment_id} of slot ${a.slot} survived`);
      const bookedSlots = booked.map((a) => a.slot.slot_id);
      assert.equal(new Set(bookedSlots).size, bookedSlots.length, 'no slot is booked twice');
      assert.equal(new Set(acknowledged.map((a) => a.slot)).size, acknowledged.length, 'no slot was acknowledged twice');

      // In the log, too: a slot is reserved again only after a release, and what it holds is the booked appointment.
      const eventStore = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
      try {
        for (const slot of slots) {
          let holder: string | null = null;
          for (const event of await eventStore.readStream(streams.slot(slot))) {
            const data = event.data as { appointment_id?: string };
            if (event.type === 'SlotReserved') {
              assert.equal(holder, null, `slot ${slot} reserved twice`);
              holder = data.appointment_id!;
            } else if (event.type === 'SlotReleased') {
              assert.equal(data.appointment_id, holder);
              holder = null;
            }
          }
          const bookedHere = booked.find((a) => a.slot.slot_id === slot);
          if (bookedHere) assert.equal(holder, bookedHere.appointment_id, `slot ${slot} holds its booking`);
        }
      } finally {
        await eventStore.close();
      }

      // The read models the restarted process serves equal a rebuild from the log (retried if the healer wrote meanwhile).
      let compared = false;
      for (let attempt = 0; attempt < 3 && !compared; attempt += 1) {
        const live = await caughtUp();
        // Beside the running server (which holds its read models' file): a replay in memory to compare with.
        const run = await runNpm(['replay', '--', '--json', '--in-memory'], { DATA_DIR: dataDir });
        assert.equal(run.code, 0, run.stderr);
        const replay = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { events: number; projections: Record<string, string> };
        const again = await caughtUp();
        if (JSON.stringify(again) !== JSON.stringify(live) || Math.max(...live.map((r) => r.position)) !== replay.events) continue;
        for (const row of live) assert.equal(replay.projections[row.name], row.checksum, `projection ${row.name} equals its replay`);
        compared = true;
      }
      assert.ok(compared, 'the log stood still long enough to compare');
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  });
});
