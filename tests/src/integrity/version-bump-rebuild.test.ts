import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { GenerationalReadStore, MemoryReadStore, SqliteReadStore, physicalName, readModelLog, type EventStore } from '@telemed/platform';
import { ProjectionRunner, checkpointWaiter, type Projection } from '@telemed/query';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

interface NameDoc {
  _id: string;
  shape: string;
}

/** A read model of registered users whose document shape depends on its version (v1 → v2 changes the shape). */
const namesProjection = (version: number): Projection => ({
  name: 'test_names',
  version,
  collections: ['test_names'],
  indexes: [{ collection: 'test_names', field: 'shape' }],
  handles: new Set(['UserRegistered']),
  apply: async (event, store) => {
    if (event.type !== 'UserRegistered') return;
    await store.collection<NameDoc>('test_names').put({ _id: event.data.user_id, shape: `v${version}` });
  },
});

/** A projection whose version does not change: it stays live throughout. */
const countProjection: Projection = {
  name: 'test_count',
  version: 1,
  collections: ['test_count'],
  handles: new Set(['UserRegistered']),
  apply: async (event, store) => {
    if (event.type !== 'UserRegistered') return;
    await store.collection<NameDoc>('test_count').put({ _id: event.data.user_id, shape: 'counted' });
  },
};

/** The event store, with reads from position 0 (only a rebuild reads from there) held until `open()`. */
function gated(eventStore: EventStore) {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let waiting = 0;
  // Around the log as projections read it: the runner would otherwise take that view of the store inside, ungated.
  const store = new Proxy(readModelLog(eventStore), {
    get(target, property, receiver) {
      if (property === 'readAll') {
        return async (...args: Parameters<EventStore['readAll']>) => {
          if ((args[0]?.fromPosition ?? 0) === 0) {
            waiting += 1;
            await opened;
          }
          return target.readAll(...args);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, open: release, waiting: () => waiting };
}

/**
 * A projection whose version changed since its read model was built (DESIGN.md §5): at start the server builds the new
 * generation beside the old one, which keeps answering meanwhile, switches over when caught up, and drops the old one.
 * It never empties the read model in place.
 */
describe('a version bump at start-up rebuilds beside the old generation', () => {
  let t: TestApp;
  let readStore: GenerationalReadStore;
  const file = () => join(t.dataDir, 'version-bump.db');

  before(async () => {
    t = await startTestApp();
    for (let i = 0; i < 3; i += 1) await t.createUser('patient');
    // The read model as the old version built it, stored in a SQLite file, then the process stops.
    const old = new GenerationalReadStore(new SqliteReadStore({ filename: file() }));
    const first = new ProjectionRunner({ eventStore: t.app.eventStore, readStore: old, projections: [namesProjection(1), countProjection] });
    await first.catchUp();
    await first.stop();
    await old.close();
    readStore = new GenerationalReadStore(new SqliteReadStore({ filename: file() }));
  });
  after(async () => {
    await readStore?.close();
    await t?.close();
  });

  it('reads answer from the old generation during the build, from the new one after; the old one is dropped', { timeout: 60_000 }, async () => {
    const names = readStore.collection<NameDoc>('test_names');
    const gate = gated(t.app.eventStore);
    const runner = new ProjectionRunner({ eventStore: gate.store, readStore, projections: [namesProjection(2), countProjection], retireAfterMs: 0 });
    await runner.catchUp();
    await runner.start();
    try {
      // The build has started and waits at the gate: the old generation answers, whole, in the old shape.
      for (let i = 0; i < 100 && gate.waiting() === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
      assert.ok(gate.waiting() > 0, 'the new generation is being built from position 0');
      assert.equal(runner.stateOf('test_names').state, 'rebuilding');
      assert.deepEqual((await names.find({})).map((d) => d.shape), ['v1', 'v1', 'v1']);
      assert.equal(readStore.generationOf('test_names'), 0);
      assert.equal((await readStore.getCheckpoint('test_names'))?.version, 1);

      // Meanwhile the log goes on: the live projection follows it, and so does the old generation, through the new code
      // (what was just registered is not missing from it), its checkpoint moving on under its old version.
      await t.createUser('patient');
      const head = await t.app.eventStore.headPosition();
      assert.ok(await runner.waitForPosition(head, 5000));
      assert.equal(await readStore.collection('test_count').count({}), 4);
      assert.deepEqual((await names.find({})).map((d) => d.shape).sort(), ['v1', 'v1', 'v1', 'v2']);
      assert.deepEqual(await readStore.getCheckpoint('test_names'), { name: 'test_names', version: 1, position: head });

      gate.open();
      await runner.outdatedRebuilt;
      assert.equal(runner.stateOf('test_names').state, 'live');
      assert.equal(readStore.generationOf('test_names'), 1);
      assert.deepEqual((await names.find({})).map((d) => d.shape), ['v2', 'v2', 'v2', 'v2'], 'the new generation, caught up with the log');
      const checkpoint = await readStore.getCheckpoint('test_names');
      assert.equal(checkpoint?.version, 2);
      assert.equal(checkpoint?.position, await t.app.eventStore.headPosition());
      assert.equal(await readStore.inner.collection(physicalName('test_names', 0)).count({}), 0, 'the old generation is dropped');

      // Live again: the next event reaches the new generation.
      await t.createUser('patient');
      assert.ok(await runner.waitForPosition(await t.app.eventStore.headPosition(), 5000));
      assert.equal(await names.count({ shape: 'v2' }), 5);
    } finally {
      gate.open();
      await runner.stop();
    }

    // A restart on the same version builds nothing again.
    const again = new ProjectionRunner({ eventStore: gated(t.app.eventStore).store, readStore, projections: [namesProjection(2), countProjection] });
    await again.catchUp();
    await again.start();
    assert.equal(again.stateOf('test_names').state, 'live');
    await again.outdatedRebuilt;
    await again.stop();
    assert.equal(readStore.generationOf('test_names'), 1);
    assert.equal(await names.count({}), 5);
  });

  it("new code that cannot apply an event to the old generation's documents leaves them as they were: not a failed projection", { timeout: 60_000 }, async () => {
    // Version 3 refuses to write beside documents in an older shape: so it fails on the old generation only.
    const strict: Projection = {
      ...namesProjection(3),
      apply: async (event, store) => {
        if (event.type !== 'UserRegistered') return;
        const names = store.collection<NameDoc>('test_names');
        if ((await names.count({})) > (await names.count({ shape: 'v3' }))) throw new Error('an older shape');
        await names.put({ _id: event.data.user_id, shape: 'v3' });
      },
    };
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args), error: () => undefined, info: () => undefined, debug: () => undefined } as never;
    const before = (await readStore.collection<NameDoc>('test_names').find({})).map((d) => d.shape).sort();
    const gate = gated(t.app.eventStore);
    const runner = new ProjectionRunner({ eventStore: gate.store, readStore, projections: [strict, countProjection], retireAfterMs: 0, logger });
    await runner.catchUp();
    await runner.start();
    try {
      await t.createUser('patient');
      await t.createUser('patient');
      assert.ok(await runner.waitForPosition(await t.app.eventStore.headPosition(), 5000));
      assert.equal(runner.stateOf('test_names').state, 'rebuilding', 'not failed: the old generation is on its way out');
      assert.deepEqual((await readStore.collection<NameDoc>('test_names').find({})).map((d) => d.shape).sort(), before);
      assert.equal(warnings.length, 1, 'logged once');
      gate.open();
      await runner.outdatedRebuilt;
      assert.equal(runner.stateOf('test_names').state, 'live');
      const shapes = (await readStore.collection<NameDoc>('test_names').find({})).map((d) => d.shape);
      assert.equal(shapes.length, before.length + 2);
      assert.ok(shapes.every((shape) => shape === 'v3'));
    } finally {
      gate.open();
      await runner.stop();
    }
  });

  it('the server: a stored read model of an older version keeps answering at start, then is replaced by its new generation', { timeout: 120_000 }, async () => {
    const app = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    const dataDir = app.dataDir;
    const patient = await app.createUser('patient', { name: 'Meera Iyer' });
    await app.close({ keepData: true });
    // The users read model as an older version of the code left it.
    const stored = new SqliteReadStore({ filename: join(dataDir, 'read-models.db') });
    const checkpoint = (await stored.getCheckpoint('users'))!;
    await stored.setCheckpoint({ ...checkpoint, version: checkpoint.version - 1 });
    await stored.close();

    const again = await startTestApp({ dataDir, env: { READ_STORE: 'sqlite' } });
    try {
      // Started: the old generation answers at once (an in-place rebuild would have emptied it first).
      const me = await again.http.get('/api/v1/users/me').set(patient.auth).expect(200);
      assert.equal(me.body.name, 'Meera Iyer');
      await again.app.runner.outdatedRebuilt;
      const store = again.app.readStore as GenerationalReadStore;
      assert.equal(store.generationOf('users'), 1);
      assert.equal((await store.getCheckpoint('users'))?.version, checkpoint.version);
      assert.equal((await again.http.get('/api/v1/users/me').set(patient.auth).expect(200)).body.name, 'Meera Iyer');
      // Dropped after the switch-over's grace (5 s), for readers in other processes to follow it first.
      await eventually(async () => assert.equal(await store.inner.collection(physicalName('users', 0)).count({}), 0, 'the old generation is dropped'), 10_000);
    } finally {
      await again.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("another process's read-your-writes is not held back by an old generation frozen during the build", async () => {
    const store = new MemoryReadStore();
    await store.setCheckpoint({ name: 'test_names', version: 1, position: 3 }); // the old version's, frozen
    await store.setCheckpoint({ name: 'test_count', version: 1, position: 10 });
    const waitFor = checkpointWaiter(store, [namesProjection(2), countProjection]);
    assert.equal(await waitFor(10, 200), true, 'the live projections have applied it');
    assert.equal(await waitFor(11, 200), false, 'a live projection behind still holds the reader back');
    await store.setCheckpoint({ name: 'test_names', version: 2, position: 5 }); // switched over, and behind
    assert.equal(await waitFor(10, 200), false);
    await store.close();
  });
});
