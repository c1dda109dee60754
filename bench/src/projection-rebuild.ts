import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryReadStore, SqliteReadStore, cloneDoc, type Doc, type ReadStore, type SqliteEventStore } from '@telemed/platform';
import { buildHistoryLog } from './history-log';
import { fromCollectedHeap } from './collected-heap';
import { ProjectionRunner, allProjections } from '@telemed/query';

/**
 * The fair ceiling of a rebuild: reading the same log the way the store pages it (5 000 rows at a time, in position
 * order) and parsing each event's JSON, with nothing applied.
 */
export function rawReadRate(file: string): number {
  fromCollectedHeap();
  const started = performance.now();
  const count = readAndParse(file);
  return count / ((performance.now() - started) / 1000);
}

/** Reads the log in position order, 5 000 rows a page, parsing each event's JSON; `afterPage` runs after each page. */
export function readAndParse(file: string, afterPage?: () => void): number {
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
  fromCollectedHeap();
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

/** Every document of every projection's collections, with the indexes the projections declare: a rebuild's result. */
async function documentsOf(readStore: ReadStore) {
  const docs: Array<{ collection: string; doc: Doc }> = [];
  for (const projection of allProjections) {
    for (const collection of projection.collections) for (const doc of await readStore.collection(collection).find({})) docs.push({ collection, doc });
  }
  return { docs, indexes: allProjections.flatMap((p) => p.indexes ?? []) };
}

/**
 * The fair ceiling of a rebuild into the in-memory store: the same reading and parsing, plus putting the rebuild's
 * final documents (each a fresh copy, as a projection makes its documents) into a new in-memory store with the same
 * indexes, a page's share after each page; no projection logic, no intermediate states.
 */
export async function rawReadStoreRate(file: string, built: Awaited<ReturnType<typeof documentsOf>>): Promise<number> {
  const target = new MemoryReadStore();
  for (const index of built.indexes) {
    if ('fields' in index) await target.ensureCompoundIndex(index.collection, index.fields);
    else await target.ensureIndex(index.collection, index.field);
  }
  const collections = new Map(built.docs.map(({ collection }) => [collection, target.collection(collection)]));
  const db = new Database(file, { readonly: true });
  const pages = Math.max(1, Math.ceil((db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n / 5000));
  db.close();
  const perPage = Math.ceil(built.docs.length / pages);
  let written = 0;
  const pending: Array<Promise<void>> = [];
  fromCollectedHeap();
  const started = performance.now();
  const count = readAndParse(file, () => {
    for (const { collection, doc } of built.docs.slice(written, written + perPage)) pending.push(collections.get(collection)!.put(cloneDoc(doc)));
    written += perPage;
  });
  await Promise.all(pending);
  return count / ((performance.now() - started) / 1000);
}

async function rebuildRate(store: SqliteEventStore, readStore: ReadStore): Promise<number> {
  const runner = new ProjectionRunner({ eventStore: store, readStore, projections: allProjections });
  fromCollectedHeap();
  const started = performance.now();
  const count = await runner.catchUp();
  return count / ((performance.now() - started) / 1000);
}

/**
 * After one rebuild not counted (see below), each run: the ceiling, a rebuild into the in-memory read store (what the
 * tests use), and one into a fresh SQLite read-models file (what `npm start` uses), all from the same log.
 */
export async function projectionRebuildRate(dir: string, events: number, runs: number) {
  const file = join(dir, `rebuild-${randomUUID()}.db`);
  const { store } = await buildHistoryLog(file, events);
  const head = await store.headPosition();
  const rates: number[] = [];
  const sqliteRates: number[] = [];
  const ceilings: number[] = [];
  const writeCeilings: number[] = [];
  const storeCeilings: number[] = [];
  // One rebuild first, not counted: the projections' code is compiled by the JIT during it (a 100k-event rebuild is
  // about half a second, and the first one ran at about three quarters of the speed of those after it), while a real
  // rebuild of a long log pays that once over millions of events. The ceilings' few lines need no such turn.
  await rebuildRate(store, new MemoryReadStore());
  for (let i = 0; i < runs; i += 1) {
    ceilings.push(rawReadRate(file));
    const memory = new MemoryReadStore();
    rates.push(await rebuildRate(store, memory));
    storeCeilings.push(await rawReadStoreRate(file, await documentsOf(memory)));
    const readModels = join(dir, `read-models-${randomUUID()}.db`);
    const sqlite = new SqliteReadStore({ filename: readModels });
    sqliteRates.push(await rebuildRate(store, sqlite));
    await sqlite.close();
    writeCeilings.push(rawReadWriteRate(file, readModels, join(dir, `ceiling-${randomUUID()}.db`)));
  }
  await store.close();
  return { events: head, rates, sqliteRates, ceilings, writeCeilings, storeCeilings };
}
