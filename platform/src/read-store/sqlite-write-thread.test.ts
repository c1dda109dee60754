import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteReadStore } from './sqlite';
import { loopTurnsDuring } from '../loop-turns.test-support';

type Note = { _id: string; owner: string; text: string };
type Counted = { _id: string; n: number };

const dir = mkdtempSync(join(tmpdir(), 'read-store-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite read store: batches commit on its writer thread', () => {
  it('keeps the event loop turning while a large batch commits, and what it wrote is read back at once', async () => {
    const filename = join(dir, 'large.db');
    const store = new SqliteReadStore({ filename });
    await store.ensureIndex('notes', 'owner');
    const warm = store.beginBatch();
    await warm.collection<Note>('notes').put({ _id: 'first', owner: 'o-0', text: 'x' });
    await warm.commit([{ name: 'notes', version: 1, position: 1 }]);

    const batch = store.beginBatch();
    // Live batches are far smaller; this one is as large as the thread takes (larger ones commit on the store's connection).
    for (let i = 0; i < 2_000; i += 1) await batch.collection<Note>('notes').put({ _id: `n-${i}`, owner: `o-${i % 50}`, text: 'y'.repeat(8_000) });
    const { turns } = await loopTurnsDuring(batch.commit([{ name: 'notes', version: 1, position: 2 }]));
    // Committed on this thread, the batch held the loop from the moment it was sent to its answer: a turn or two at most.
    assert.ok(turns > 10, `the loop turned ${turns} times while 2,000 documents were committed`);

    assert.equal(await store.collection('notes').count({ owner: 'o-7' }), 40);
    assert.deepEqual(await store.getCheckpoint('notes'), { name: 'notes', version: 1, position: 2 });
    // A write outside a batch right after, on the store's own connection, and another process's reader see it all.
    await store.collection<Note>('notes').put({ _id: 'after', owner: 'o-7', text: 'z' });
    await store.close();
    const reader = new SqliteReadStore({ filename });
    assert.equal(await reader.collection('notes').count({ owner: 'o-7' }), 41);
    assert.equal((await reader.collection<Note>('notes').get('n-1999'))?.text.length, 8_000);
    await reader.close();
  });

  it('a batch into a collection it creates, then deletes in the next batch: both committed in order', async () => {
    const store = new SqliteReadStore({ filename: join(dir, 'order.db') });
    const first = store.beginBatch();
    await first.collection<Counted>('fresh').put({ _id: 'a', n: 1 });
    await first.collection<Counted>('fresh').put({ _id: 'b', n: 2 });
    await first.commit([{ name: 'fresh', version: 1, position: 1 }]);
    const second = store.beginBatch();
    await second.collection<Counted>('fresh').delete('a');
    await second.collection<Counted>('fresh').patch('b', { n: 3 });
    await second.commit([{ name: 'fresh', version: 1, position: 2 }]);
    assert.deepEqual(await store.collection<Counted>('fresh').find({}), [{ _id: 'b', n: 3 }]);
    await store.drop('fresh', ['fresh']);
    assert.deepEqual(await store.collection<Counted>('fresh').find({}), []);
    const third = store.beginBatch();
    await third.collection<Counted>('fresh').put({ _id: 'c', n: 4 });
    await third.commit([{ name: 'fresh', version: 2, position: 3 }]);
    assert.deepEqual(await store.collection<Counted>('fresh').find({}), [{ _id: 'c', n: 4 }], 'a table dropped and made again is written, not its old statement');
    await store.close();
  });
});
