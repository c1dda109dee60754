import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteEventStore } from './sqlite';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const event = (text = 'x') => ({ event_id: randomUUID(), type: 'Noted', data: { text }, metadata: { actor: { user_id: 'u', role: 'system' } } });

describe('SQLite event store: a batch of appends', () => {
  it('fails only the append whose data cannot be stored, and a conflicting one, not the rest of the batch', async () => {
    const store = new SqliteEventStore({ filename: join(dir, 'mixed.db'), synchronous: 'NORMAL' });
    await store.appendToStream('taken', [event()]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const outcomes = await Promise.allSettled([
      store.appendToStream('fine-1', [event()]),
      store.appendToStream('taken', [event()], { expectedRevision: 'no_stream' }),
      store.appendToStream('cyclic', [{ ...event(), data: cyclic }]),
      store.appendToStream('fine-2', [event()]),
    ]);
    assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    assert.equal((await store.readStream('cyclic')).length, 0);
    assert.equal((await store.readStream('fine-2')).length, 1);
    await store.save('reader', 7);
    assert.equal(await store.load('reader'), 7);
    await store.close();
  });
});

describe('SQLite event store: the commit thread', () => {
  it('commits on a connection of its own, and when that thread stops with a batch on it, each append is committed exactly once', async () => {
    const filename = join(dir, 'thread.db');
    const store = new SqliteEventStore({ filename, synchronous: 'NORMAL' });
    const seen: number[] = [];
    const subscription = store.subscribeToAll({ fromPosition: 0, onEvents: async (events) => void seen.push(...events.map((e) => e.position)) });
    await store.appendToStream('before', [event()]);
    // The thread, stopped as a crash would stop it: with the next batch sent and maybe committed, not yet answered.
    const thread = (store as unknown as { appendThread: { worker: { terminate(): Promise<number> } } }).appendThread;
    const appends = Array.from({ length: 20 }, (_, i) => store.appendToStream(`during-${i}`, [event(), event()], { expectedRevision: 'no_stream' }));
    await new Promise((resolve) => setImmediate(resolve)); // the batch is on its way to the thread
    const stopped = thread.worker.terminate();
    const later = Array.from({ length: 5 }, (_, i) => store.appendToStream(`after-${i}`, [event()]));
    const results = await Promise.all([...appends, ...later]);
    await stopped;
    assert.deepEqual(results.map((r) => r.next_revision), [...appends.map(() => 1), ...later.map(() => 0)]);
    for (let i = 0; i < 20; i += 1) assert.equal((await store.readStream(`during-${i}`)).length, 2);
    const positions = results.map((r) => r.position);
    assert.equal(new Set(positions).size, positions.length);
    assert.equal(await store.headPosition(), 1 + 20 * 2 + 5);
    await store.save('reader', 3); // on this connection now
    assert.equal(await store.load('reader'), 3);
    const deadline = Date.now() + 5000;
    while (seen.length < 46 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(seen, Array.from({ length: 46 }, (_, i) => i + 1));
    await subscription.stop();
    await store.close();
  });
});

describe('SQLite event store: live subscriptions', () => {
  it('take what this store commits as it is pushed, without reading the file after each commit, and still see other processes appends', async () => {
    const filename = join(dir, 'live.db');
    const store = new SqliteEventStore({ filename, synchronous: 'NORMAL', pollIntervalMs: 50 });
    await store.appendToStream('history', [event()]);
    const seen: string[] = [];
    const subscription = store.subscribeToAll({ fromPosition: 0, onEvents: async (events) => void seen.push(...events.map((e) => e.stream_id)) });
    const until = async (count: number) => {
      const deadline = Date.now() + 10_000;
      while (seen.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await until(1);
    let fileReads = 0;
    const readAll = store.readAll.bind(store);
    store.readAll = (options) => {
      fileReads += 1;
      return readAll(options);
    };
    try {
      for (let i = 0; i < 30; i += 1) {
        await store.appendToStream(`live-${i}`, [event()]);
        await until(2 + i);
      }
      assert.equal(seen.length, 31);
      assert.ok(fileReads <= 3, `${fileReads} reads of the file for 30 pushed commits`);

      const other = new SqliteEventStore({ filename, synchronous: 'NORMAL' });
      await other.appendToStream('from-another-process', [event()]);
      await other.close();
      await until(32);
      await store.appendToStream('after-it', [event()]);
      await until(33);
    } finally {
      await subscription.stop();
      await store.close();
    }
    assert.deepEqual(seen.slice(-2), ['from-another-process', 'after-it']);
  });
});
