import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { GenerationalReadStore, MemoryReadStore, SqliteReadStore, physicalName } from '@telemed/platform';
import { ProjectionRunner, projectionChecksum, type Projection } from '@telemed/query';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

interface ProjectionRow {
  name: string;
  version: number;
  position: number;
  lag: number;
  events_per_second: number;
  state: 'live' | 'rebuilding' | 'failed';
  progress: { applied: number; percent: number } | null;
  failure: { event: { position: number; type: string }; error: string } | null;
  checksum: string;
}

const SLOTS = 160;

/**
 * Rebuilding a projection without downtime (DESIGN.md §5, issue 15): the new generation is built beside the live one
 * while a second client keeps querying, and switches over when caught up; no answer fails or comes back empty, and
 * the read model's checksum is the same after. On the in-memory and the SQLite read stores.
 */
for (const readStore of ['memory', 'sqlite'] as const) {
  describe(`online rebuild (${readStore} read models)`, () => {
    let t: TestApp;
    let operator: TestUser;
    const doctors: Array<{ user: TestUser; slots: number }> = [];

    before(async () => {
      t = await startTestApp({ env: { READ_STORE: readStore } });
      operator = await t.createUser('admin');
      // Enough of a log that the rebuild takes several pages: 12 doctors with 160 slots each (ten days of 16).
      for (let d = 0; d < 12; d += 1) {
        const user = await t.createUser('doctor');
        const times = Array.from({ length: 160 }, (_, i) => {
          const minutes = 9 * 60 + (i % 16) * 30;
          return { date: indiaDate(2 + Math.floor(i / 16)), time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}` };
        });
        const slots = await t.openSlots(user, times);
        assert.equal(slots.length, SLOTS);
        doctors.push({ user, slots: slots.length });
      }
    });
    after(async () => {
      await t?.close();
    });

    const list = async (checksums = false): Promise<ProjectionRow[]> =>
      (await t.http.get(`/api/v1/admin/projections${checksums ? '?checksum=true' : ''}`).set(operator.auth).expect(200)).body as ProjectionRow[];

    it('a second client keeps getting full answers while `slots` rebuilds beside the live one; same checksum after', async () => {
      const before = (await list(true)).find((p) => p.name === 'slots')!;
      assert.equal(before.state, 'live');
      assert.equal(before.lag, 0, 'lag counted in events: none behind');

      let querying = true;
      const answers: Array<{ status: number; count: number; during: boolean }> = [];
      let rebuilding = false;
      // The second client: four requests in flight at any time, round the doctors.
      let i = 0;
      const client = Promise.all(Array.from({ length: 4 }, async () => {
        while (querying) {
          const doctor = doctors[i++ % doctors.length]!;
          const res = await t.http.get(`/api/v1/doctors/${doctor.user.user_id}/available-slots`).set(doctor.user.auth);
          answers.push({ status: res.status, count: (res.body as { slots?: unknown[] }).slots?.length ?? -1, during: rebuilding });
          await new Promise((resolve) => setImmediate(resolve));
        }
      }));
      while (answers.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));

      rebuilding = true;
      // Two at once: one starts, the other is refused (one rebuild of a projection at a time).
      const [first, second] = await Promise.all([
        t.http.post('/api/v1/admin/projections/slots/rebuild').set(operator.auth),
        t.http.post('/api/v1/admin/projections/slots/rebuild').set(operator.auth),
      ]);
      assert.deepEqual([first.status, second.status].sort(), [202, 409]);
      assert.deepEqual((first.status === 202 ? first : second).body, { status: 'rebuilding', name: 'slots' });
      assert.match((first.status === 409 ? first : second).body.detail, /already under way/);
      const seen = new Set<string>();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const row = (await list()).find((p) => p.name === 'slots')!;
        seen.add(row.state);
        if (row.state === 'rebuilding') assert.ok(row.progress && row.progress.percent >= 0 && row.progress.percent <= 100);
        if (row.state === 'live') break;
        assert.notEqual(row.state, 'failed', JSON.stringify(row.failure));
        assert.ok(Date.now() < deadline, 'the rebuild ends');
      }
      rebuilding = false;
      // A few more answers after the switch-over, from the new generation.
      const afterSwitch = answers.length;
      while (answers.length < afterSwitch + 20) await new Promise((resolve) => setTimeout(resolve, 5));
      querying = false;
      await client;

      assert.ok(answers.filter((a) => a.during).length > 0, 'queries were answered during the rebuild');
      const bad = answers.filter((a) => a.status !== 200 || a.count !== SLOTS);
      assert.deepEqual(bad, [], `${answers.length} answers, none failed or short`);
      const after = (await list(true)).find((p) => p.name === 'slots')!;
      assert.equal(after.checksum, before.checksum, 'the rebuilt read model equals the live one');
      assert.equal(after.lag, 0);
      assert.ok(after.position >= before.position);
      // The new generation is the one read; the old one is dropped after its grace period.
      const store = t.app.readStore as GenerationalReadStore;
      assert.ok(store instanceof GenerationalReadStore);
      assert.equal(store.generationOf('slots'), 1);
      assert.ok((await store.inner.collection(physicalName('slots', 1)).count({})) > 0);
    });

    if (readStore === 'sqlite') {
      it('after a restart the switched generation is the one read and written', async () => {
        const dataDir = t.dataDir;
        // Stopped before the retired generation's drop was due: the next start drops it.
        assert.ok((await (t.app.readStore as GenerationalReadStore).inner.collection(physicalName('slots', 0)).count({})) > 0);
        await t.close({ keepData: true });
        t = await startTestApp({ dataDir, env: { READ_STORE: 'sqlite' } });
        const store = t.app.readStore as GenerationalReadStore;
        assert.equal(store.generationOf('slots'), 1);
        const doctor = doctors[0]!.user;
        const res = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth).expect(200);
        assert.equal((res.body as { slots: unknown[] }).slots.length, SLOTS);
        const added = await t.openSlots(doctor, [{ date: indiaDate(20), time: '10:00' }]);
        assert.equal(added.length, 1, 'a slot opened after the restart is written to the new generation and read from it');
        // Dropped beside the live batches after the start, not before it.
        const deadline = Date.now() + 10_000;
        while ((await store.inner.collection(physicalName('slots', 0)).count({})) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.equal(await store.inner.collection(physicalName('slots', 0)).count({}), 0, 'the retired generation is gone');
      });

      it('a reader on its own connection to the file (a query replica, or the server beside `npm run replay`) follows the switch-over and never reads an empty model', async () => {
        const reader = new GenerationalReadStore(new SqliteReadStore({ filename: join(t.dataDir, 'read-models.db') }), { refreshMs: 20 });
        await reader.load();
        const expected = await reader.collection('slots').count({});
        assert.ok(expected >= SLOTS * doctors.length);
        let reading = true;
        const counts: number[] = [];
        const loop = (async () => {
          while (reading) {
            counts.push(await reader.collection('slots').count({}));
            await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        await t.http.post('/api/v1/admin/projections/slots/rebuild').set(operator.auth).expect(202);
        const deadline = Date.now() + 30_000;
        while ((await list()).find((p) => p.name === 'slots')!.state !== 'live') assert.ok(Date.now() < deadline, 'the rebuild ends');
        // Past the reader's refresh: it reads the new generation now.
        await new Promise((resolve) => setTimeout(resolve, 100));
        reading = false;
        await loop;
        await reader.load();
        assert.equal(reader.generationOf('slots'), 2, 'the reader follows the switch-over');
        assert.ok(counts.length > 10, `${counts.length} reads`);
        assert.deepEqual(counts.filter((c) => c !== expected), [], 'none empty or short, before, during or after the switch');
        await reader.close();
      });
    }

    it('answers 404 with a detail for an unknown projection, 403 for anyone but an operator', async () => {
      const res = await t.http.post('/api/v1/admin/projections/nope/rebuild').set(operator.auth).expect(404);
      assert.ok((res.body as { detail?: string }).detail);
      await t.http.post('/api/v1/admin/projections/slots/rebuild').set(doctors[0]!.user.auth).expect(403);
      await t.http.get('/api/v1/admin/projections').set(doctors[0]!.user.auth).expect(403);
    });
  });
}

describe('a poison event stops only its projection', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    for (let i = 0; i < 5; i += 1) await t.createUser('patient', { name: i === 2 ? 'Poison Pill' : `Patient ${i}` });
  });
  after(async () => {
    await t?.close();
  });

  it('shows the event and the error, lets the others go on, and recovers after a fix and a rebuild', async () => {
    let broken = true;
    const names: Projection = {
      name: 'names',
      version: 1,
      collections: ['names'],
      handles: new Set(['UserRegistered']),
      apply: async (event, store) => {
        if (event.type !== 'UserRegistered') return;
        const data = event.data as { name: string };
        if (broken && data.name === 'Poison Pill') throw new Error('cannot handle this name');
        await store.collection<{ _id: string; name: string }>('names').put({ _id: event.stream_id, name: data.name });
      },
    };
    const counts: Projection = {
      name: 'counts',
      version: 1,
      collections: ['counts'],
      handles: new Set(['UserRegistered']),
      apply: async (_event, store) => {
        const doc = await store.collection<{ _id: string; n: number }>('counts').get('all');
        await store.collection<{ _id: string; n: number }>('counts').put({ _id: 'all', n: (doc?.n ?? 0) + 1 });
      },
    };
    const readStore = new GenerationalReadStore(new MemoryReadStore());
    const runner = new ProjectionRunner({ eventStore: t.app.eventStore, readStore, projections: [names, counts], retireAfterMs: 0 });
    await runner.catchUp();
    const state = runner.stateOf('names');
    assert.equal(state.state, 'failed');
    assert.ok(state.state === 'failed' && state.event.type === 'UserRegistered' && state.error === 'cannot handle this name');
    assert.ok(state.state === 'failed' && state.event.position > 0 && state.event.stream.length > 0);
    assert.equal(runner.stateOf('counts').state, 'live', 'the other projection went on');
    assert.equal((await readStore.collection<{ _id: string; n: number }>('counts').get('all'))?.n, 5);
    assert.ok(runner.checkpointOf('names') < state.event.position, 'its checkpoint stays before the poison event');
    assert.ok((await runner.lagOf('names')) > 0, 'and it shows a lag');

    // The fix, then a rebuild: the new generation applies every event and switches over.
    broken = false;
    const { done } = await runner.rebuild('names');
    await done;
    assert.equal(runner.stateOf('names').state, 'live');
    assert.equal(await readStore.collection('names').count({}), 5);
    assert.equal(await runner.lagOf('names'), 0);
    assert.equal(readStore.generationOf('names'), 1);
    assert.equal(await readStore.inner.collection('names').count({}), 0, 'the old generation is dropped');
    const checksum = await projectionChecksum(readStore, names);
    assert.match(checksum, /^[0-9a-f]{64}$/);
  });

  it('a rebuild that meets a poison event fails alone: the live generation keeps answering', async () => {
    const readStore = new GenerationalReadStore(new MemoryReadStore());
    let broken = false;
    const names: Projection = {
      name: 'names',
      version: 1,
      collections: ['names'],
      handles: new Set(['UserRegistered']),
      apply: async (event, store) => {
        if (broken) throw new Error('broken by a bad deploy');
        await store.collection<{ _id: string }>('names').put({ _id: event.stream_id });
      },
    };
    const runner = new ProjectionRunner({ eventStore: t.app.eventStore, readStore, projections: [names], retireAfterMs: 0 });
    await runner.catchUp();
    const live = await readStore.collection('names').count({});
    assert.ok(live >= 5);
    broken = true;
    const { done } = await runner.rebuild('names');
    await done;
    const state = runner.stateOf('names');
    assert.equal(state.state, 'failed');
    assert.ok(state.state === 'failed' && state.error === 'broken by a bad deploy' && state.event.type === 'UserRegistered');
    assert.equal(await readStore.collection('names').count({}), live, 'queries still read the live generation');
    assert.equal(readStore.generationOf('names'), 0);
    assert.equal(await readStore.inner.collection(physicalName('names', 1)).count({}), 0, 'the failed generation is dropped');
  });

  it('a stop waits for a retired generation being dropped (the store closes right after it)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const dropping: string[][] = [];
    class SlowDrops extends GenerationalReadStore {
      override async dropPhysical(names: readonly string[]): Promise<void> {
        // Held: the retired generation's drop (not the clearing of the new one's collections before the rebuild).
        if (names.includes('names')) {
          dropping.push([...names]);
          await gate;
        }
        await super.dropPhysical(names);
      }
    }
    const readStore = new SlowDrops(new MemoryReadStore());
    const names: Projection = {
      name: 'names',
      version: 1,
      collections: ['names'],
      handles: new Set(['UserRegistered']),
      apply: async (event, store) => {
        await store.collection<{ _id: string }>('names').put({ _id: event.stream_id });
      },
    };
    const runner = new ProjectionRunner({ eventStore: t.app.eventStore, readStore, projections: [names], retireAfterMs: 1 });
    await runner.catchUp();
    const { done } = await runner.rebuild('names');
    await done;
    while (!dropping.some((n) => n.includes('names'))) await new Promise((resolve) => setTimeout(resolve, 5));
    let stopped = false;
    const stop = runner.stop().then(() => (stopped = true));
    // Something that must not happen is given a moment to happen: the stop ends at once when nothing holds it.
    await Promise.race([stop, new Promise((resolve) => setTimeout(resolve, 50))]);
    assert.equal(stopped, false, 'the stop is still waiting for the drop');
    release();
    await stop;
    assert.equal(await readStore.inner.collection('names').count({}), 0, 'the retired generation was dropped before the stop ended');
  });
});
