import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { type AppendToWrite, type AppendWritten, sqliteAppender } from './sqlite-append';

/** What the thread is started with. */
export interface AppendThreadSetup {
  filename: string;
  synchronous: 'FULL' | 'NORMAL';
}

export type ToAppendThread =
  | { kind: 'commit'; id: number; appends: AppendToWrite[] }
  | { kind: 'checkpoint'; id: number; name: string; position: number }
  | { kind: 'stop' };

export type FromAppendThread = { id: number; outcomes: AppendWritten[] } | { id: number; saved: true } | { id: number; failed: string };

// The body of the thread (see SqliteEventStore.flush): its own connection to the log, on which each batch of appends
// is one transaction, so the commit's wait for the disk is not spent on the thread that serves requests. The store
// created the tables beforehand.
const setup = workerData as AppendThreadSetup;
const port = parentPort!;
const db = new Database(setup.filename, { fileMustExist: true });
db.pragma(`synchronous = ${setup.synchronous}`);
db.pragma('busy_timeout = 5000');
// The store's checkpointer thread copies the log into the file; this only bounds the log if that thread has stopped.
db.pragma('wal_autocheckpoint = 10000');
const append = sqliteAppender(db);
const saveCheckpoint = db.prepare(
  'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
);

port.on('message', (message: ToAppendThread) => {
  if (message.kind === 'stop') {
    db.close();
    port.close();
    return;
  }
  try {
    if (message.kind === 'checkpoint') {
      saveCheckpoint.run(message.name, message.position);
      port.postMessage({ id: message.id, saved: true } satisfies FromAppendThread);
      return;
    }
    port.postMessage({ id: message.id, outcomes: append(message.appends) } satisfies FromAppendThread);
  } catch (error) {
    port.postMessage({ id: message.id, failed: String((error as Error)?.message ?? error) } satisfies FromAppendThread);
  }
});
