import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryReadStore, SqliteReadStore, type ReadStore, type SqliteEventStore } from '@telemed/platform';
import { buildHistoryLog } from './history-log';
import { ProjectionRunner, allProjections } from '@telemed/query';

/**
 * The fair ceiling of a rebuild: reading the same log the way the store pages it (5 000 rows at a time, in position
 * order) and parsing each event's JSON, with nothing applied.
 */
export function rawReadRate(file: string): number {
  const db = new Database(file, { readonly: true });
  const page = db.prepare<[number], { position: number; data: string; metadata: string }>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 5000');
  const started = performance.now();
  let after = 0;
  let count = 0;
  for (;;) {
    const rows = page.all(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      JSON.parse(row.data);
      JSON.parse(row.metadata);
    }
    count += rows.length;
    after = rows[rows.length - 1]!.position;
  }
  db.close();
  return count / ((performance.now() - started) / 1000);
}

async function rebuildRate(store: SqliteEventStore, readStore: ReadStore): Promise<number> {
  const runner = new ProjectionRunner({ eventStore: store, readStore, projections: allProjections });
  const started = performance.now();
  const count = await runner.catchUp();
  const rate = count / ((performance.now() - started) / 1000);
  await readStore.close();
  return rate;
}

/**
 * Each run: the ceiling, a rebuild into the in-memory read store (what the tests use), and one into a fresh SQLite
 * read-models file (what `npm start` uses), all from the same log.
 */
export async function projectionRebuildRate(dir: string, events: number, runs: number) {
  const file = join(dir, `rebuild-${randomUUID()}.db`);
  const { store } = await buildHistoryLog(file, events);
  const head = await store.headPosition();
  const rates: number[] = [];
  const sqliteRates: number[] = [];
  const ceilings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    ceilings.push(rawReadRate(file));
    rates.push(await rebuildRate(store, new MemoryReadStore()));
    sqliteRates.push(await rebuildRate(store, new SqliteReadStore({ filename: join(dir, `read-models-${randomUUID()}.db`) })));
  }
  await store.close();
  return { events: head, rates, sqliteRates, ceilings };
}
