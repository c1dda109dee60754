import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEventStore } from './sqlite';
import type { StoredEvent } from './port';
import { loopTurnsDuring } from '../loop-turns.test-support';

const dir = mkdtempSync(join(tmpdir(), 'appender-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const event = (text = 'x') => ({ event_id: randomUUID(), type: 'Noted', data: { text }, metadata: { actor: { user_id: 'u', role: 'system' } } });

describe('SQLite event store: commits on its writer thread', () => {
  it('keeps the event loop turning while a large batch commits', async () => {
    const store = new SqliteEventStore({ filename: join(dir, 'large.db'), synchronous: 'FULL' });
    await store.appendToStream('warm-up', [event()]);
    const { result, turns } = await loopTurnsDuring(store.appendToStream('large', Array.from({ length: 20_000 }, () => event('y'.repeat(1_000)))));
    await store.close();
    assert.equal(result.next_revision, 19_999);
    // Committed on this thread, the batch held the loop from the moment it was sent to its answer: a turn or two at most.
    assert.ok(turns > 10, `the loop turned ${turns} times while 20,000 events were committed`);
  });

  it('answers batches sent one after another in order: positions as read back, pushed to subscribers without gaps', async () => {
    const filename = join(dir, 'pipelined.db');
    const store = new SqliteEventStore({ filename, synchronous: 'NORMAL', pollIntervalMs: 50 });
    const seen: number[] = [];
    const subscription = store.subscribeToAll({ fromPosition: 0, onEvents: async (events) => void seen.push(...events.map((e) => e.position)) });
    const appends: Array<Promise<{ stream: string; position: number }>> = [];
    for (let round = 0; round < 30; round += 1) {
      for (let i = 0; i < 40; i += 1) {
        const stream = `s-${round}-${i}`;
        appends.push(store.appendToStream(stream, [event(stream)], { expectedRevision: 'no_stream' }).then((r) => ({ stream, position: r.position })));
      }
      await new Promise((resolve) => setImmediate(resolve)); // the next round is the next batch, sent before this one is answered
    }
    const results = await Promise.all(appends);
    const deadline = Date.now() + 10_000;
    while (seen.length < 1_200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await subscription.stop();
    await store.close();
    assert.deepEqual(seen, Array.from({ length: 1_200 }, (_, i) => i + 1), 'every position once, in order');
    const db = new Database(filename, { readonly: true });
    const rows = db.prepare('SELECT position, stream_id FROM events').all() as Array<Pick<StoredEvent, 'position' | 'stream_id'>>;
    db.close();
    const streamAt = new Map(rows.map((r) => [r.position, r.stream_id]));
    for (const { stream, position } of results) assert.equal(streamAt.get(position), stream);
  });

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
