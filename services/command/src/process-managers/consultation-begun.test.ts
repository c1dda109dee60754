import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { SqliteEventStore, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import { consultationBegun } from './consultation-begun';

const event = (n: number) => ({
  event_id: randomUUID(),
  type: 'Counted',
  data: { n },
  metadata: { actor: { user_id: 'u', role: 'system' as const }, correlation_id: randomUUID(), causation_id: null },
});

describe("the closers' look at whether a consultation has begun", () => {
  it("reads the consultation's first event, not its whole chat", async () => {
    const store = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'consultation-begun-')), 'events.db') });
    const returned: number[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = async (stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
      const events = await readStream(stream, options);
      returned.push(events.length);
      return events;
    };
    const now = new Date('2026-01-01T00:00:00Z');
    const later = { appointment_id: 'a-1', start: '2026-01-02T00:00:00Z' };
    assert.equal(await consultationBegun(store, later, now), false, 'no consultation yet');
    await store.appendToStream(streams.consultation('a-1'), Array.from({ length: 40 }, (_, i) => event(i)));
    assert.equal(await consultationBegun(store, later, now), true, 'begun');
    assert.equal(await consultationBegun(store, { ...later, start: '2025-12-31T00:00:00Z' }, now), true, 'its start has come: no look');
    assert.deepEqual(returned, [0, 1], 'one event at most per look');
    await store.close();
  });
});
