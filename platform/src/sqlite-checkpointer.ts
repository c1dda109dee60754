import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { commonJsWorker } from './typescript-worker';
import type Database from 'better-sqlite3';

/** How often the thread copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 1000;

// The thread's whole program, plain JavaScript (no loader to start): its own connection to the file, and a passive
// checkpoint (it never waits for, nor blocks, the writer or readers) every interval until told to stop.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or locked: the next turn tries again */ }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Moves a SQLite file's checkpoints off the event loop. In WAL mode SQLite copies the log into the database file
 * (and syncs both) every thousand pages, inside whichever commit crosses the mark: on the one thread that also serves
 * requests. Here the connection stops checkpointing itself and a worker thread does it on a timer; if the thread
 * fails, the connection checkpoints itself again as before.
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private stopped = false;

  private constructor(db: Database.Database, filename: string, intervalMs: number) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    db.pragma('wal_autocheckpoint = 0');
    this.worker = commonJsWorker(THREAD, { workerData: { driver, filename, intervalMs } });
    this.worker.unref();
    const fallBack = () => {
      if (!this.stopped && db.open) db.pragma('wal_autocheckpoint = 1000');
    };
    this.worker.on('error', fallBack);
    this.worker.on('exit', fallBack);
  }

  /** For a file in WAL mode (an in-memory database has no log to copy): null otherwise. */
  static start(db: Database.Database, filename: string, intervalMs = CHECKPOINT_INTERVAL_MS): SqliteCheckpointer | null {
    if (filename === ':memory:' || filename === '') return null;
    return new SqliteCheckpointer(db, filename, intervalMs);
  }

  /** Stops the thread (before the connection closes: the connection's own close checkpoints what is left). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Held alive until the thread has closed its connection (the file may be removed right after).
    this.worker.ref();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await this.worker.terminate();
  }
}
