import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '@telemed/platform';

/** 50 concurrent writers, each appending single events to its own stream with the expected revision. */
export async function eventStoreAppendRate(dir: string, total: number, writers: number, synchronous: 'FULL' | 'NORMAL') {
  const store = new SqliteEventStore({ filename: join(dir, `appends-${randomUUID()}.db`), synchronous });
  const metadata = { actor: { user_id: 'bench', role: 'system' }, occurred_at: new Date().toISOString() };
  let errors = 0;
  const perWriter = Math.ceil(total / writers);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const stream = `bench-${w}-${randomUUID()}`;
      for (let i = 0; i < perWriter; i += 1) {
        try {
          await store.appendToStream(stream, [{ event_id: randomUUID(), type: 'Benchmarked', data: { writer: w, i }, metadata }], {
            expectedRevision: i === 0 ? 'no_stream' : i - 1,
          });
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return { rate: (perWriter * writers) / seconds, errors };
}
