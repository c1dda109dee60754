import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { CheckpointStore } from './port';
import { throttledCheckpoint } from './throttled-checkpoint';

function memory() {
  const saved: number[] = [];
  const store: CheckpointStore = { load: async () => saved.at(-1) ?? 0, save: async (_name, position) => void saved.push(position) };
  return { store, saved };
}

// The clock and the interval's timer are node's mock timers: the interval passes when the test says, not after a sleep.
describe('throttled checkpoint', () => {
  beforeEach(() => mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2030-01-01T00:00:00Z') }));
  afterEach(() => mock.timers.reset());

  it('saves at most once per interval while positions arrive', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 200);
    for (let p = 1; p <= 20; p += 1) await checkpoint.record(p);
    assert.deepEqual(saved, [1], 'the first at once, the rest held');
    mock.timers.tick(199);
    assert.deepEqual(saved, [1], 'held until the interval ends');
    mock.timers.tick(1);
    assert.deepEqual(saved, [1, 20]);
  });

  it('saves the last position when the interval ends, though nothing else arrives', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 50);
    await checkpoint.record(1);
    await checkpoint.record(7);
    await checkpoint.record(9);
    mock.timers.tick(50);
    assert.deepEqual(saved, [1, 9]);
    mock.timers.tick(500);
    assert.deepEqual(saved, [1, 9], 'nothing new, nothing saved');
  });

  it('a position recorded after a quiet interval is saved at once', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 50);
    await checkpoint.record(1);
    mock.timers.tick(50);
    await checkpoint.record(2);
    assert.deepEqual(saved, [1, 2]);
  });

  it('flush saves what is held at once, and the timer then saves nothing twice', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 50);
    await checkpoint.record(1);
    await checkpoint.record(5);
    await checkpoint.flush();
    mock.timers.tick(500);
    assert.deepEqual(saved, [1, 5]);
  });
});
