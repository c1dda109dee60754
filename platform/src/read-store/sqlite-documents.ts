import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matcher } from './matcher';
import { sortDocs } from './sort';
import { FieldKinds } from './field-kinds';
import { fieldExpression, translateFilter, translateSort, type FieldKind, type SqlValue } from './sqlite-filter';
import { WriterLock } from './writer-lock';
import { SqliteCheckpointer } from '../sqlite-checkpointer';
import { ThreadRequests } from '../thread-requests';
import type { FromWriteThread, TableWrite, ToWriteThread, WriteThreadSetup } from './sqlite-write-thread';
import type { Doc, Filter, FindOptions, ProjectionCheckpoint } from './port';

type AnyDoc = Doc & Record<string, unknown>;

/** A write as the batch hands it over: the document already serialized. */
export type JsonWrite = { collection: string; id: string; json: string | null };

const META = `
  CREATE TABLE IF NOT EXISTS _read_store_checkpoints (
    name TEXT PRIMARY KEY NOT NULL,
    version INTEGER NOT NULL,
    position INTEGER NOT NULL CHECK (typeof(position) = 'integer')
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS _read_store_kinds (collection TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, PRIMARY KEY (collection, path, kind)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS _read_store_meta (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT OR IGNORE INTO _read_store_meta (key, value) VALUES ('generation', 0);
`;

/**
 * Rows written between two `PRAGMA optimize` runs (cheap with analysis_limit): the planner needs the selectivities of
 * the indexes (a doctor's slots, not every open slot) from the first thousands of documents on.
 */
const OPTIMIZE_EVERY_ROWS = 5_000;
const STATEMENT_CACHE = 256;

/**
 * A catch-up's batch with more documents than this commits on the store's own connection: its runner waits for the
 * commit before it applies the next batch, so the thread would only add its round trip and leave this connection's
 * page cache cold for the next batch's reads. A live batch always commits on the thread, however large (an erasure of
 * someone with years of history writes thousands of documents while requests are being served).
 */
const BULK_WRITES = 2_500;

/** `doc_<name>` for plain names, `dx_<hex>` otherwise: a table per collection that no two names share. */
function tableOf(collection: string): string {
  return /^[A-Za-z0-9_]+$/.test(collection) ? `doc_${collection}` : `dx_${Buffer.from(collection).toString('hex')}`;
}

function collectionOf(table: string): string | null {
  if (table.startsWith('doc_')) return table.slice(4);
  if (table.startsWith('dx_')) return Buffer.from(table.slice(3), 'hex').toString();
  return null;
}

export interface QueryPlan {
  sql: string;
  params: SqlValue[];
  /** sql: SQL filters, orders, skips and limits exactly; stream: rows in order, mingo filters, skip/limit in JS; all: everything matching, sorted in JS. */
  mode: 'sql' | 'stream' | 'all';
}

/** A query a read ran, as recorded for a check of its plan. */
export interface RecordedQuery {
  collection: string;
  sql: string;
  params: unknown[];
  /** The sort could not be translated to SQL: every match was read and sorted in JavaScript. */
  sorted_in_js: boolean;
}

/**
 * The SQLite side of the read store, synchronous (better-sqlite3): a table per collection of JSON documents keyed by
 * id, expression indexes on declared fields, the kinds each field has held (see sqlite-filter), checkpoints, and a
 * schema generation that tells other processes reading the same file when to reload tables and kinds.
 */
export class SqliteDocuments {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** table → its upsert and delete, prepared once: a rebuild writes a row per document. */
  private readonly writeStatements = new Map<string, { upsert: Database.Statement; delete: Database.Statement }>();
  private readonly tables = new Set<string>();
  private readonly kinds = new FieldKinds();
  private readonly indexes = new Map<string, string[][]>();
  /**
   * Indexes declared while their table was empty (a first build or a rebuild): created in one pass once the documents
   * are there, by `settle` or before the first query of the collection, instead of updated row by row.
   */
  private readonly deferred = new Map<string, string[][]>();
  private lock: WriterLock | null = null;
  private checkpointer: SqliteCheckpointer | null = null;
  private seenDataVersion = -1;
  private seenGeneration = -1;
  private rowsSinceOptimize = 0;
  /** Commits batches on a connection of its own (a file's only: an in-memory database has one connection). */
  private readonly writer: ThreadRequests<Exclude<ToWriteThread, { kind: 'stop' }>, FromWriteThread> | null;
  /** The last batch sent to the writer thread, settled: a write on this connection waits for it (`idle`). */
  private writing: Promise<void> = Promise.resolve();
  /** While set, every distinct query this connection runs, by its SQL (see recordQueries). */
  private recording: Map<string, RecordedQuery> | null = null;

  constructor(private readonly filename: string, synchronous: 'FULL' | 'NORMAL') {
    this.writer =
      filename === ':memory:'
        ? null
        : new ThreadRequests(new URL('./sqlite-write-thread.ts', import.meta.url), { filename, synchronous } satisfies WriteThreadSetup, "The read store's commit");
    if (filename !== ':memory:' && filename !== '') ensurePrivateFile(filename);
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${synchronous}`);
    this.db.pragma('busy_timeout = 5000');
    // Erasure blanks documents in place: what an update or delete frees is zeroed, not left in the file.
    this.db.pragma('secure_delete = ON');
    this.db.pragma('analysis_limit = 400');
    this.db.exec(META);
    this.sync();
  }

  private prepare(sql: string, pluck = false): Database.Statement {
    const key = (pluck ? 'p:' : 's:') + sql;
    let stmt = this.statements.get(key);
    if (stmt) {
      this.statements.delete(key);
    } else {
      stmt = this.db.prepare(sql);
      if (pluck) stmt.pluck();
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(key, stmt);
    return stmt;
  }

  /**
   * Reloads tables and kinds when another connection changed the schema generation. The writer skips the check: while
   * it holds the file's writer lock no other connection changes it.
   */
  private sync(): void {
    if (!this.lock) this.refresh();
  }

  private refresh(): void {
    const dataVersion = this.prepare('PRAGMA data_version', true).get() as number;
    if (dataVersion === this.seenDataVersion) return;
    this.seenDataVersion = dataVersion;
    const generation = this.prepare(`SELECT value FROM _read_store_meta WHERE key = 'generation'`, true).get() as number;
    if (generation === this.seenGeneration) return;
    this.reload(generation);
  }

  private reload(generation: number): void {
    this.seenGeneration = generation;
    this.writeStatements.clear();
    this.tables.clear();
    for (const name of this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]) {
      const collection = collectionOf(name);
      if (collection !== null) this.tables.add(collection);
    }
    this.kinds.clear();
    for (const row of this.db.prepare('SELECT collection, path, kind FROM _read_store_kinds').all() as Array<{ collection: string; path: string; kind: FieldKind }>) {
      this.kinds.add(row.collection, row.path, row.kind);
    }
  }

  private bumpGeneration(): void {
    this.prepare(`UPDATE _read_store_meta SET value = value + 1 WHERE key = 'generation'`).run();
    this.seenGeneration = this.prepare(`SELECT value FROM _read_store_meta WHERE key = 'generation'`, true).get() as number;
  }

  /** Every write goes through here: the first one takes the file's writer lock. */
  private writable(): void {
    if (this.lock || this.filename === ':memory:') return;
    this.lock = WriterLock.acquire(`${this.filename}.writer-lock`);
    this.checkpointer = SqliteCheckpointer.start(this.db, this.filename);
    // The last look at what others wrote: from here on nobody else writes the file.
    this.refresh();
    this.db.pragma('optimize = 0x10002');
  }

  /**
   * Runs writes in one transaction; after a failure, tables and kinds are reloaded from what was committed. BEGIN
   * IMMEDIATE takes the write lock first, so it waits out busy_timeout while the writer thread's connection holds it (a
   * retired generation's drop in slices): a deferred BEGIN that read first fails at once with SQLITE_BUSY instead.
   */
  transaction<R>(work: () => R): R {
    this.writable();
    this.sync();
    try {
      return this.db.transaction(work).immediate();
    } catch (error) {
      this.reloadCommitted();
      throw error;
    }
  }

  private ensureTable(collection: string): string {
    const table = tableOf(collection);
    if (this.tables.has(collection)) return table;
    this.db.exec(`CREATE TABLE IF NOT EXISTS "${table}" (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    for (const fields of this.indexes.get(collection) ?? []) if (!this.isDeferred(collection, fields)) this.createIndex(collection, fields);
    this.tables.add(collection);
    this.bumpGeneration();
    return table;
  }

  private createIndex(collection: string, fields: string[]): void {
    const table = tableOf(collection);
    const expressions = fields.map((f) => {
      const expr = fieldExpression(f);
      if (expr === null) throw new Error(`Cannot index ${collection}.${f}`);
      return expr;
    });
    const readable = fields.join('_').replace(/[^A-Za-z0-9_]/g, '_');
    const hash = createHash('sha256').update(fields.join('\0')).digest('hex').slice(0, 8);
    this.db.exec(`CREATE INDEX IF NOT EXISTS "ix_${table}_${readable}_${hash}" ON "${table}" (${expressions.join(', ')})`);
  }

  /** Declares an index on one or more fields (in order); it survives drops of the collection within this process. */
  ensureIndex(collection: string, fields: string[]): void {
    const declared = this.indexes.get(collection) ?? [];
    if (!declared.some((d) => d.join('\0') === fields.join('\0'))) this.indexes.set(collection, [...declared, fields]);
    this.transaction(() => {
      const empty = !this.tables.has(collection) || this.prepare(`SELECT 1 FROM "${tableOf(collection)}" LIMIT 1`, true).get() === undefined;
      if (empty && !this.isDeferred(collection, fields)) this.deferred.set(collection, [...(this.deferred.get(collection) ?? []), fields]);
      this.ensureTable(collection);
      if (!empty) this.createIndex(collection, fields);
    });
  }

  private isDeferred(collection: string, fields: string[]): boolean {
    return (this.deferred.get(collection) ?? []).some((d) => d.join('\0') === fields.join('\0'));
  }

  /** Creates a collection's deferred indexes (a collection without a table keeps them for when it has one). */
  private createDeferred(collection: string): void {
    const pending = this.deferred.get(collection);
    if (!pending || !this.tables.has(collection)) return;
    this.transaction(() => {
      for (const fields of pending) this.createIndex(collection, fields);
      // The planner's selectivities for the new indexes (bounded by analysis_limit), as PRAGMA optimize gives the rest.
      this.db.exec(`ANALYZE "${tableOf(collection)}"`);
    });
    this.deferred.delete(collection);
  }

  /**
   * Creates every deferred index and refreshes the planner's statistics when enough rows changed; the runner calls it
   * once it has caught up with the log and after each live batch (never between the batches of a catch-up, where
   * statistics of a half-built read model would be wasted work).
   */
  settle(): void {
    for (const collection of [...this.deferred.keys()]) this.createDeferred(collection);
    if (this.rowsSinceOptimize >= OPTIMIZE_EVERY_ROWS) {
      this.rowsSinceOptimize = 0;
      this.db.pragma('optimize = 0x10002');
    }
  }

  /** Reads retry once after another process dropped or created a table under them. */
  private read<R>(collection: string, empty: R, work: (table: string) => R): R {
    this.sync();
    if (!this.tables.has(collection)) return empty;
    try {
      return work(tableOf(collection));
    } catch (error) {
      if (!/no such table/.test((error as Error).message)) throw error;
      this.reload(this.prepare(`SELECT value FROM _read_store_meta WHERE key = 'generation'`, true).get() as number);
      return this.tables.has(collection) ? work(tableOf(collection)) : empty;
    }
  }

  getJson(collection: string, id: string): string | null {
    return this.read(collection, null, (table) => (this.prepare(`SELECT doc FROM "${table}" WHERE id = ?`, true).get(id) as string | undefined) ?? null);
  }

  /** How a find runs: as much as SQLite can do exactly, the rest in JS. */
  plan(collection: string, filter: Filter, options: FindOptions): QueryPlan {
    const table = tableOf(collection);
    const kinds = this.kinds.lookup(collection);
    const where = translateFilter(filter, kinds);
    const order = options.sort ? translateSort(options.sort, kinds, filter) : null;
    if (options.sort && order === null) return { sql: `SELECT doc FROM "${table}" WHERE ${where.where}`, params: where.params, mode: 'all' };
    const base = `SELECT doc FROM "${table}" WHERE ${where.where}${order ? ` ORDER BY ${order}` : ''}`;
    if (!where.exact) return { sql: base, params: where.params, mode: 'stream' };
    const params = [...where.params];
    let sql = base;
    if (options.limit !== undefined || options.skip) {
      sql += ' LIMIT ? OFFSET ?';
      params.push(options.limit ?? -1, options.skip ?? 0);
    }
    return { sql, params, mode: 'sql' };
  }

  /**
   * Starts recording the distinct queries finds and counts run from here on (their SQL, parameters, and whether a sort
   * is left to JavaScript), so a test can check that each is answered through an index.
   */
  recordQueries(): Map<string, RecordedQuery> {
    return (this.recording = new Map());
  }

  /**
   * The plans SQLite makes for these queries with no statistics, in a copy of the file: statistics of a small database
   * can make a scan look cheaper than an index that exists, so this says whether each query has an index to use.
   */
  plansWithoutStatistics(queries: Iterable<RecordedQuery>): Array<RecordedQuery & { plan: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'telemed-plans-'));
    try {
      const file = join(dir, 'copy.db');
      this.db.prepare('VACUUM INTO ?').run(file);
      const strip = new Database(file);
      for (const { name } of strip.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'sqlite_stat%'").all() as Array<{ name: string }>) strip.exec(`DELETE FROM ${name}`);
      strip.close();
      const copy = new Database(file, { readonly: true });
      try {
        return [...queries].map((q) => ({ ...q, plan: (copy.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.params as SqlValue[])) as Array<{ detail: string }>).map((r) => r.detail) }));
      } finally {
        copy.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private note(collection: string, sql: string, params: unknown[], sortedInJs: boolean): void {
    if (this.recording && !this.recording.has(sql)) this.recording.set(sql, { collection, sql, params, sorted_in_js: sortedInJs });
  }

  find(collection: string, filter: Filter, options: FindOptions): AnyDoc[] {
    this.createDeferred(collection);
    return this.read(collection, [], () => {
      const plan = this.plan(collection, filter, options);
      this.note(collection, plan.sql, plan.params, plan.mode === 'all');
      const stmt = this.prepare(plan.sql, true);
      if (plan.mode === 'sql') {
        // Exact already; mingo stays as the check the port promises, built only when there is a row to check.
        const rows = stmt.all(...plan.params) as string[];
        if (rows.length === 0) return [];
        const query = matcher(filter);
        return rows.map((json) => JSON.parse(json) as AnyDoc).filter((d) => query.test(d));
      }
      const query = matcher(filter);
      const skip = options.skip ?? 0;
      const end = options.limit === undefined ? Infinity : skip + options.limit;
      if (plan.mode === 'stream') {
        const found: AnyDoc[] = [];
        let matched = 0;
        if (end === 0) return found;
        for (const json of stmt.iterate(...plan.params) as IterableIterator<string>) {
          const doc = JSON.parse(json) as AnyDoc;
          if (!query.test(doc)) continue;
          if (matched >= skip) found.push(doc);
          matched += 1;
          if (matched >= end) break;
        }
        return found;
      }
      const all = (stmt.all(...plan.params) as string[]).map((json) => JSON.parse(json) as AnyDoc).filter((d) => query.test(d));
      return sortDocs(all, options.sort!).slice(skip, end === Infinity ? undefined : end);
    });
  }

  count(collection: string, filter: Filter, limit?: number): number {
    this.createDeferred(collection);
    return this.read(collection, 0, (table) => {
      const where = translateFilter(filter, this.kinds.lookup(collection));
      const capped = limit !== undefined && Number.isSafeInteger(limit) && limit >= 0;
      const sql = !where.exact
        ? `SELECT doc FROM "${table}" WHERE ${where.where}`
        : capped
          ? `SELECT COUNT(*) FROM (SELECT 1 FROM "${table}" WHERE ${where.where} LIMIT ${limit})`
          : `SELECT COUNT(*) FROM "${table}" WHERE ${where.where}`;
      this.note(collection, sql, where.params, false);
      if (where.exact) return this.prepare(sql, true).get(...where.params) as number;
      const query = matcher(filter);
      const most = capped ? limit : Infinity;
      let n = 0;
      for (const json of this.prepare(sql, true).iterate(...where.params) as IterableIterator<string>) {
        if (query.test(JSON.parse(json) as AnyDoc) && (n += 1) >= most) break;
      }
      return n;
    });
  }

  /** The query plan SQLite chose for a find (EXPLAIN QUERY PLAN details), for tests and operators. */
  explain(collection: string, filter: Filter, options: FindOptions = {}): string[] {
    this.createDeferred(collection);
    this.sync();
    if (!this.tables.has(collection)) return [];
    const plan = this.plan(collection, filter, options);
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${plan.sql}`).all(...plan.params) as Array<{ detail: string }>).map((r) => r.detail);
  }

  /** Records kinds of fields about to be written; returns those new to the collection (to store with the write). */
  observe(collection: string, fields: object): Array<[string, FieldKind]> {
    return this.kinds.observe(collection, fields);
  }

  /** Settles once the batches sent to the writer thread are committed (or failed): then this connection may write. */
  idle(): Promise<void> {
    return this.writing;
  }

  /**
   * Commits a projection batch (documents, new kinds, checkpoints) in one transaction on the writer thread, so that
   * its page writes and index updates do not hold the event loop; tables for new collections are created here first
   * (schema changes stay on this connection). In memory, for a bulk batch, or if the thread stops, on this connection.
   */
  async commit(writes: JsonWrite[], kinds: Array<[string, string, FieldKind]>, checkpoints: ProjectionCheckpoint[], bulk = false): Promise<void> {
    await this.writing;
    if (!this.writer?.available || (bulk && writes.length > BULK_WRITES)) {
      this.transaction(() => this.write(writes, kinds, checkpoints));
      return;
    }
    this.writable();
    const tableWrites: TableWrite[] = [];
    for (const w of writes) {
      if (w.json === null && !this.tables.has(w.collection)) continue;
      const table = this.tables.has(w.collection) ? tableOf(w.collection) : this.transaction(() => this.ensureTable(w.collection));
      tableWrites.push({ table, id: w.id, json: w.json });
    }
    const sent = this.writer.request((id) => ({ kind: 'commit', id, schema: this.seenGeneration, batch: { writes: tableWrites, kinds, checkpoints } }));
    this.writing = sent.then(
      () => undefined,
      () => undefined,
    );
    let reply: FromWriteThread;
    try {
      reply = await sent;
    } catch (error) {
      this.reloadCommitted();
      throw error;
    }
    if ('failed' in reply) {
      this.reloadCommitted();
      throw new Error(reply.failed);
    }
    this.rowsSinceOptimize += writes.length;
  }

  /** Tables and kinds as committed (after a failed write: the kinds it observed were not stored). */
  private reloadCommitted(): void {
    this.reload(this.prepare(`SELECT value FROM _read_store_meta WHERE key = 'generation'`, true).get() as number);
  }

  /** Inside `transaction`: writes documents, new kinds and checkpoints. */
  write(writes: JsonWrite[], kinds: Array<[string, string, FieldKind]>, checkpoints: ProjectionCheckpoint[]): void {
    for (const w of writes) {
      const table = w.json === null ? (this.tables.has(w.collection) ? tableOf(w.collection) : null) : this.ensureTable(w.collection);
      if (table === null) continue;
      const statements = this.writeStatementsOf(table);
      if (w.json === null) statements.delete.run(w.id);
      else statements.upsert.run(w.id, w.json);
    }
    if (kinds.length > 0) {
      const insert = this.prepare('INSERT OR IGNORE INTO _read_store_kinds (collection, path, kind) VALUES (?, ?, ?)');
      for (const [collection, path, kind] of kinds) insert.run(collection, path, kind);
      this.bumpGeneration();
    }
    for (const c of checkpoints) {
      this.prepare(
        'INSERT INTO _read_store_checkpoints (name, version, position) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position',
      ).run(c.name, c.version, c.position);
    }
    this.rowsSinceOptimize += writes.length;
  }

  private writeStatementsOf(table: string): { upsert: Database.Statement; delete: Database.Statement } {
    let statements = this.writeStatements.get(table);
    if (!statements) {
      statements = {
        upsert: this.db.prepare(`INSERT INTO "${table}" (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`),
        delete: this.db.prepare(`DELETE FROM "${table}" WHERE id = ?`),
      };
      this.writeStatements.set(table, statements);
    }
    return statements;
  }

  getCheckpoint(name: string): ProjectionCheckpoint | null {
    const row = this.prepare('SELECT name, version, position FROM _read_store_checkpoints WHERE name = ?').get(name) as ProjectionCheckpoint | undefined;
    return row ?? null;
  }

  /** Drops collections, and the projection's checkpoint unless it is null (a retired generation has none of its own). */
  drop(projection: string | null, collections: string[]): void {
    this.transaction(() => {
      for (const collection of collections) {
        this.db.exec(`DROP TABLE IF EXISTS "${tableOf(collection)}"`);
        this.prepare('DELETE FROM _read_store_kinds WHERE collection = ?').run(collection);
        this.tables.delete(collection);
        this.kinds.forget(collection);
      }
      if (projection !== null) this.prepare('DELETE FROM _read_store_checkpoints WHERE name = ?').run(projection);
      this.bumpGeneration();
    });
    // Statements on dropped tables would fail; they are prepared again on use.
    this.statements.clear();
    this.writeStatements.clear();
  }

  /**
   * Deletes up to `rows` documents of a collection (in one transaction); how many it deleted. On the writer thread
   * when there is one (secure_delete zeroes every freed page: a slice's work is not done on the event loop).
   */
  async deleteSlice(collection: string, rows: number): Promise<number> {
    await this.writing;
    if (!this.tables.has(collection)) return 0;
    const table = tableOf(collection);
    if (!this.writer?.available) {
      return this.transaction(() => this.prepare(`DELETE FROM "${table}" WHERE rowid IN (SELECT rowid FROM "${table}" LIMIT ?)`).run(rows).changes);
    }
    this.writable();
    const sent = this.writer.request((id) => ({ kind: 'delete-slice', id, table, rows }));
    this.writing = sent.then(
      () => undefined,
      () => undefined,
    );
    const reply = await sent;
    if ('failed' in reply) throw new Error(reply.failed);
    return 'deleted' in reply ? reply.deleted : 0;
  }

  /** Copies the write-ahead log into the file and empties it, so the log keeps no earlier page images. */
  truncateLog(): void {
    if (this.filename !== ':memory:') this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    await this.writing;
    await this.writer?.stop({ kind: 'stop' } satisfies ToWriteThread);
    void this.checkpointer?.stop();
    this.checkpointer = null;
    if (this.db.open) {
      if (this.lock) this.db.pragma('optimize');
      this.db.close();
    }
    this.lock?.release();
    this.lock = null;
  }
}
