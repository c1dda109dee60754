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
  const started = performance.now();
  const count = readAndParse(file);
  return count / ((performance.now() - started) / 1000);
}

/** Reads the log in position order, 5 000 rows a page, parsing each event's JSON; `afterPage` runs after each page. */
function readAndParse(file: string, afterPage?: () => void): number {
  const db = new Database(file, { readonly: true });
  const page = db.prepare<[number], { position: number; data: string; metadata: string }>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 5000');
  let after = 0;
  let count = 0;
  for (;;) {
    const rows = page.all(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      JSON.parse(row.data);
      JSON.parse(row.metadata);
    }
    afterPage?.();
    count += rows.length;
    after = rows[rows.length - 1]!.position;
  }
  db.close();
  return count;
}

/**
 * The fair ceiling of a rebuild into SQLite: the same reading and parsing, plus storing what the rebuild stored
 * without any projection logic: the finished read-models file's rows (parsed beforehand, serialized again here), a
 * page's share of them in one transaction per page of the log, into the same tables under the same pragmas, then
 * the same indexes built and analysed over the full tables (as the read store does after a first build).
 */
export function rawReadWriteRate(logFile: string, readModels: string, target: string): number {
  const source = new Database(readModels, { readonly: true });
  const tables = source.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'doc\\_%' ESCAPE '\\' OR name LIKE 'dx\\_%' ESCAPE '\\')`).all().map((t) => t.name);
  const indexes = source.prepare<[], { sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).all().map((i) => i.sql);
  const rows: Array<{ table: string; id: string; doc: unknown }> = [];
  for (const table of tables) {
    for (const row of source.prepare<[], { id: string; doc: string }>(`SELECT id, doc FROM "${table}"`).all()) rows.push({ table, id: row.id, doc: JSON.parse(row.doc) });
  }
  source.close();
  const db = new Database(target);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('secure_delete = ON');
  db.pragma('analysis_limit = 400');
  const upserts = new Map(
    tables.map((table) => {
      db.exec(`CREATE TABLE "${table}" (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
      return [table, db.prepare(`INSERT INTO "${table}" (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)] as const;
    }),
  );
  const log = new Database(logFile, { readonly: true });
  const pages = Math.max(1, Math.ceil((log.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n / 5000));
  log.close();
  const perPage = Math.ceil(rows.length / pages);
  const store = db.transaction((slice: typeof rows) => {
    for (const row of slice) upserts.get(row.table)!.run(row.id, JSON.stringify(row.doc));
  });
  const started = performance.now();
  let written = 0;
  const count = readAndParse(logFile, () => {
    store(rows.slice(written, written + perPage));
    written += perPage;
  });
  db.transaction(() => {
    for (const sql of indexes) db.exec(sql);
    for (const table of tables) db.exec(`ANALYZE "${table}"`);
  })();
  const rate = count / ((performance.now() - started) / 1000);
  db.close();
  return rate;
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
  const writeCeilings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    ceilings.push(rawReadRate(file));
    rates.push(await rebuildRate(store, new MemoryReadStore()));
    const readModels = join(dir, `read-models-${randomUUID()}.db`);
    sqliteRates.push(await rebuildRate(store, new SqliteReadStore({ filename: readModels })));
    writeCeilings.push(rawReadWriteRate(file, readModels, join(dir, `ceiling-${randomUUID()}.db`)));
  }
  await store.close();
  return { events: head, rates, sqliteRates, ceilings, writeCeilings };
}
