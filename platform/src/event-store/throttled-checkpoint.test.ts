import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { CheckpointStore } from './port';
import { throttledCheckpoint } from './throttled-checkpoint';

function memory() {
  const saved: number[] = [];
  const store: CheckpointStore = { load: async () => saved.at(-1) ?? 0, save: async (_name, position) => void saved.push(position) };
  return { store, saved };
}

describe('throttled checkpoint', () => {
  it('saves at most once per interval while positions arrive', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 200);
    for (let p = 1; p <= 20; p += 1) await checkpoint.record(p);
    assert.deepEqual(saved, [1], 'the first at once, the rest held');
  });

  it('saves the last position when the interval ends, though nothing else arrives', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 50);
    await checkpoint.record(1);
    await checkpoint.record(7);
    await checkpoint.record(9);
    await sleep(120);
    assert.deepEqual(saved, [1, 9]);
    await sleep(120);
    assert.deepEqual(saved, [1, 9], 'nothing new, nothing saved');
  });

  it('flush saves what is held at once, and the timer then saves nothing twice', async () => {
    const { store, saved } = memory();
    const checkpoint = throttledCheckpoint(store, 'pm', 50);
    await checkpoint.record(1);
    await checkpoint.record(5);
    await checkpoint.flush();
    await sleep(120);
    assert.deepEqual(saved, [1, 5]);
  });
});
