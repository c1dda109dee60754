import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** What the thread is started with. */
export interface WriteThreadSetup {
  filename: string;
  synchronous: 'FULL' | 'NORMAL';
}

/** One document to store (json) or delete (null), in a table that exists. */
export interface TableWrite {
  table: string;
  id: string;
  json: string | null;
}

export interface BatchToWrite {
  writes: TableWrite[];
  kinds: Array<[collection: string, path: string, kind: string]>;
  checkpoints: Array<{ name: string; version: number; position: number }>;
}

export type ToWriteThread =
  /** `schema`: the store's schema generation as the sender knows it (a change drops the thread's prepared statements). */
  | { kind: 'commit'; id: number; schema: number; batch: BatchToWrite }
  /** Deletes up to `rows` documents of a table in one transaction (a retired generation, dropped gradually). */
  | { kind: 'delete-slice'; id: number; table: string; rows: number }
  | { kind: 'stop' };

export type FromWriteThread = { id: number; committed: true } | { id: number; deleted: number } | { id: number; failed: string };

// The body of the thread (see SqliteDocuments.commit): its own connection to the read-store file, on which each batch
// of documents, kinds and checkpoints is one transaction. Tables and indexes are created by the store beforehand.
const setup = workerData as WriteThreadSetup;
const port = parentPort!;
const db = new Database(setup.filename, { fileMustExist: true });
db.pragma(`synchronous = ${setup.synchronous}`);
db.pragma('busy_timeout = 5000');
// As on the store's own connection: what an update or delete frees is zeroed, not left in the file.
db.pragma('secure_delete = ON');
// The store's checkpointer thread copies the log into the file; this only bounds the log if that thread has stopped.
db.pragma('wal_autocheckpoint = 10000');

const insertKind = db.prepare('INSERT OR IGNORE INTO _read_store_kinds (collection, path, kind) VALUES (?, ?, ?)');
const bumpGeneration = db.prepare(`UPDATE _read_store_meta SET value = value + 1 WHERE key = 'generation'`);
const saveCheckpoint = db.prepare(
  'INSERT INTO _read_store_checkpoints (name, version, position) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position',
);
const tableStatements = new Map<string, { upsert: Database.Statement; delete: Database.Statement }>();
let schemaSeen = -1;

function statementsOf(table: string) {
  let statements = tableStatements.get(table);
  if (!statements) {
    statements = {
      upsert: db.prepare(`INSERT INTO "${table}" (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`),
      delete: db.prepare(`DELETE FROM "${table}" WHERE id = ?`),
    };
    tableStatements.set(table, statements);
  }
  return statements;
}

const commit = db.transaction((batch: BatchToWrite) => {
  for (const w of batch.writes) {
    const statements = statementsOf(w.table);
    if (w.json === null) statements.delete.run(w.id);
    else statements.upsert.run(w.id, w.json);
  }
  if (batch.kinds.length > 0) {
    for (const [collection, path, kind] of batch.kinds) insertKind.run(collection, path, kind);
    bumpGeneration.run(); // readers in other processes reload kinds
  }
  for (const c of batch.checkpoints) saveCheckpoint.run(c.name, c.version, c.position);
});

port.on('message', (message: ToWriteThread) => {
  if (message.kind === 'stop') {
    db.close();
    port.close();
    return;
  }
  try {
    if (message.kind === 'delete-slice') {
      const deleted = db.prepare(`DELETE FROM "${message.table}" WHERE rowid IN (SELECT rowid FROM "${message.table}" LIMIT ?)`).run(message.rows).changes;
      port.postMessage({ id: message.id, deleted } satisfies FromWriteThread);
      return;
    }
    if (message.schema !== schemaSeen) {
      tableStatements.clear();
      schemaSeen = message.schema;
    }
    commit.immediate(message.batch);
    port.postMessage({ id: message.id, committed: true } satisfies FromWriteThread);
  } catch (error) {
    port.postMessage({ id: message.id, failed: String((error as Error)?.message ?? error) } satisfies FromWriteThread);
  }
});
