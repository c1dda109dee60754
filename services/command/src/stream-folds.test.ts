import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore, type EventStore, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import type { DomainEvent } from '@telemed/contracts';
import { StreamFolds } from './stream-folds';

const counted = (n: number) => ({
  event_id: randomUUID(),
  type: 'Counted',
  data: { n },
  metadata: { actor: { user_id: 'u', role: 'system' as const }, correlation_id: randomUUID(), causation_id: null },
});

/** Sums the stream's numbers and counts the events folded. */
const sumFold = {
  initialState: () => ({ sum: 0, folded: 0 }),
  evolve: (state: { sum: number; folded: number }, event: DomainEvent) => ({ sum: state.sum + (event.data as unknown as { n: number }).n, folded: state.folded + 1 }),
};

/** Records how many events each readStream call returned. */
function recording(store: EventStore) {
  const returned: number[] = [];
  const readStream = store.readStream.bind(store);
  store.readStream = async (stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
    const events = await readStream(stream, options);
    returned.push(events.length);
    return events;
  };
  return returned;
}

describe('StreamFolds: a kept fold that reads only what is new', () => {
  const open = () => {
    const file = join(mkdtempSync(join(tmpdir(), 'stream-folds-')), 'events.db');
    return { file, store: new SqliteEventStore({ filename: file }) };
  };

  it('folds the whole stream once, then only the events appended since, and equals a fold from the start', async () => {
    const { store } = open();
    const folds = new StreamFolds(store, sumFold);
    const returned = recording(store);
    await store.appendToStream('s-1', [counted(1), counted(2), counted(3)]);
    assert.deepEqual((await folds.current('s-1')).state, { sum: 6, folded: 3 });
    assert.deepEqual(await folds.current('s-1'), { state: { sum: 6, folded: 3 }, revision: 2 }, 'nothing new: the kept fold');
    await store.appendToStream('s-1', [counted(10)]);
    assert.deepEqual(await folds.current('s-1'), { state: { sum: 16, folded: 4 }, revision: 3 });
    assert.deepEqual(returned, [3, 0, 1], 'each look read only the events after the last fold');
    assert.deepEqual(await new StreamFolds(store, sumFold).current('s-1'), { state: { sum: 16, folded: 4 }, revision: 3 }, 'same as a fresh fold');
    assert.deepEqual(await folds.current('missing'), { state: { sum: 0, folded: 0 }, revision: null });
    await store.close();
  });

  it("sees another process's appends to the same log", async () => {
    const { file, store } = open();
    const other = new SqliteEventStore({ filename: file });
    const folds = new StreamFolds(store, sumFold);
    await store.appendToStream('s-2', [counted(1)]);
    assert.equal((await folds.current('s-2')).state.sum, 1);
    await other.appendToStream('s-2', [counted(5)]);
    assert.deepEqual(await folds.current('s-2'), { state: { sum: 6, folded: 2 }, revision: 1 });
    await other.close();
    await store.close();
  });

  it('concurrent looks agree and do not fold an event twice', async () => {
    const { store } = open();
    const folds = new StreamFolds(store, sumFold);
    await store.appendToStream('s-3', [counted(1)]);
    await folds.current('s-3');
    await store.appendToStream('s-3', [counted(2), counted(3)]);
    const looks = await Promise.all([folds.current('s-3'), folds.current('s-3'), folds.current('s-3')]);
    for (const look of looks) assert.deepEqual(look, { state: { sum: 6, folded: 3 }, revision: 2 });
    assert.deepEqual(await folds.current('s-3'), { state: { sum: 6, folded: 3 }, revision: 2 });
    await store.close();
  });

  it('forgets the least recently used stream past its capacity, and folds it again from the start', async () => {
    const { store } = open();
    const folds = new StreamFolds(store, sumFold, 2);
    const returned = recording(store);
    for (const s of ['a', 'b', 'c']) await store.appendToStream(s, [counted(1), counted(1)]);
    await folds.current('a');
    await folds.current('b');
    await folds.current('c'); // 'a' is forgotten
    await folds.current('a');
    assert.deepEqual(returned, [2, 2, 2, 2]);
    await store.close();
  });
});
