import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

/**
 * The ceiling: plain better-sqlite3 inserts of event-sized rows into the same schema, committed 50 at a time (what
 * group commit can at best achieve with 50 concurrent writers), with the same pragmas. No revision checks, no JSON
 * of metadata building, no promises.
 */
export function rawInsertRate(dir: string, total: number, batch: number, synchronous: 'FULL' | 'NORMAL'): number {
  const db = new Database(join(dir, `raw-${randomUUID()}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream_id, revision))`);
  const insert = db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const data = JSON.stringify({ appointment_id: randomUUID(), doctor_id: randomUUID() });
  const metadata = JSON.stringify({ actor: { user_id: 'bench', role: 'system' }, occurred_at: new Date().toISOString() });
  const commit = db.transaction((from: number) => {
    for (let i = from; i < from + batch; i += 1) insert.run(randomUUID(), `bench-${i % 50}`, Math.floor(i / 50), 'Benchmarked', data, metadata);
  });
  const started = performance.now();
  for (let i = 0; i < total; i += batch) commit(i);
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return total / seconds;
}
