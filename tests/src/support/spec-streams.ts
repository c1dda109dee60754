import type { StoredEvent } from '@telemed/platform';

/**
 * Events by stream, each stream's types in log order: for the answers of process managers that act side by side (an
 * account closer's cancels and the slot releaser's releases), whose order within a stream is the story and whose
 * interleaving across streams is theirs to choose. Compare with `assert.deepEqual` against the expected streams.
 */
export function typesByStream(events: readonly StoredEvent[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const event of events) (out[event.stream_id] ??= []).push(event.type);
  return out;
}
