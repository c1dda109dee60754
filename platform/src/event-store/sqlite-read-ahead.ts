import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { commonJsWorker } from '../typescript-worker';
import type { StoredEvent } from './port';
import { PAGE_TEXT_SQL, inPositionOrder } from './sqlite-page';

// The thread's whole program, plain JavaScript (no loader to start): its own read-only connection, and for each
// request one page of the log as a single JSON text (SQLite writes each event's JSON and joins them, see
// sqlite-page.ts, so nothing is parsed, quoted or joined here). After answering a full page it reads the page after it
// at once, before anyone asks: the reader asks for that one only once it has the page just sent, and then applies
// that page while this thread reads (its own look-ahead, one page). Asked for only once the reader has it in hand,
// the page was often not ready: a rebuild's applying thread, now faster than this one, waited a third of its time.
// A full page is the same whenever it is read (see SqliteReadAhead), so one read early is the right answer later.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const page = db.prepare(${JSON.stringify(PAGE_TEXT_SQL)});
let next = null;
let reading = null;
parentPort.on('message', (message) => {
  if (message === 'stop') { clearImmediate(reading); db.close(); parentPort.close(); return; }
  try {
    const ready = next !== null && next.after === message.after && next.limit === message.limit ? next.page : null;
    next = null;
    const read = ready || page.get(message.after, message.limit);
    parentPort.postMessage({ id: message.id, text: read.text, count: read.count });
    if (message.limit > 0 && read.count === message.limit) {
      clearImmediate(reading);
      reading = setImmediate(() => {
        reading = null;
        try {
          const ahead = page.get(read.last, message.limit);
          // Only a full page: a short one is the log's tail, which may grow before it is asked for.
          if (ahead.count === message.limit) next = { after: read.last, limit: message.limit, page: ahead };
        } catch {}
      });
    }
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
});
`;

/** Pages asked for ahead at once (readers working through history side by side each have theirs). */
const MAX_PENDING = 4;

type Page = { count: number; text: string } | null;

/**
 * Reads the next page of the log on a worker thread while the reader applies the current one: a rebuild or a
 * catch-up then pays on its own thread only for parsing, not for SQLite's stepping and the row objects. Only a full
 * page read ahead is used: the log only grows at its end and commits in position order, so the `limit` events after a
 * position are the same whenever they are read; a short page (the log's tail, which may have grown since) is read
 * again by the caller. If the thread fails, the store reads as before.
 */
export class SqliteReadAhead {
  private worker: Worker | null = null;
  private failed = false;
  private nextId = 0;
  private readonly replies = new Map<number, (page: Page) => void>();
  /** `after:limit` → the page being read. */
  private readonly pending = new Map<string, Promise<Page>>();

  private constructor(private readonly filename: string) {}

  /** For a file (an in-memory database cannot be opened by another connection): null otherwise. */
  static for(filename: string): SqliteReadAhead | null {
    return filename === ':memory:' || filename === '' ? null : new SqliteReadAhead(filename);
  }

  /** Starts reading the page after `after`, unless it is already being read. */
  request(after: number, limit: number): void {
    const key = `${after}:${limit}`;
    if (this.failed || this.pending.has(key)) return;
    const worker = this.started();
    if (!worker) return;
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    const id = (this.nextId += 1);
    this.pending.set(key, new Promise<Page>((resolve) => this.replies.set(id, resolve)));
    worker.ref(); // a page on its way keeps the process alive, as a read on this thread would
    worker.postMessage({ id, after, limit });
  }

  /** Starts the thread and says when it answers (false: it could not start). */
  async whenReady(): Promise<boolean> {
    const worker = this.failed ? null : this.started();
    if (!worker) return false;
    const id = (this.nextId += 1);
    const answered = new Promise<Page>((resolve) => this.replies.set(id, resolve));
    worker.ref();
    worker.postMessage({ id, after: 0, limit: 0 }); // an empty page: the thread has loaded and opened the log
    return (await answered) !== null;
  }

  /** The page after `after` if it was read ahead and is full; null: read it yourself. */
  async take(after: number, limit: number): Promise<StoredEvent[] | null> {
    const key = `${after}:${limit}`;
    const page = this.pending.get(key);
    if (!page) return null;
    this.pending.delete(key);
    const read = await page;
    if (!read || read.count !== limit) return null;
    return inPositionOrder(JSON.parse(read.text) as StoredEvent[]);
  }

  private started(): Worker | null {
    if (this.worker) return this.worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = commonJsWorker(THREAD, { workerData: { driver, filename: this.filename } });
      worker.on('message', (reply: { id: number; text?: string; count?: number; error?: string }) => {
        const resolve = this.replies.get(reply.id);
        this.replies.delete(reply.id);
        resolve?.(reply.text === undefined ? null : { text: reply.text, count: reply.count! });
        if (this.replies.size === 0) worker.unref();
      });
      // An idle thread does not keep the process alive (a reader may never close the store). Only after the 'message'
      // listener: adding one refs the thread's port again.
      worker.unref();
      const fail = () => {
        this.failed = true;
        this.worker = null;
        for (const resolve of this.replies.values()) resolve(null);
        this.replies.clear();
        this.pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', fail);
      this.worker = worker;
      return worker;
    } catch {
      this.failed = true;
      return null;
    }
  }

  /** Stops the thread (before the store's connection closes). */
  async stop(): Promise<void> {
    this.failed = true;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    for (const resolve of this.replies.values()) resolve(null);
    this.replies.clear();
    this.pending.clear();
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await worker.terminate();
  }
}
