import type { Worker } from 'node:worker_threads';
import { ERASED_VALUE, PERSONAL_FIELDS, sealedInReadModels } from '@telemed/contracts';
import type { StoredEvent } from '../event-store/port';
import { inPositionOrder } from '../event-store/sqlite-page';
import { typescriptWorker } from '../typescript-worker';
import type { FromThread, PagePatch, ThreadSetup, ToThread } from './decrypting-read-ahead-thread';
import { KEY_CACHE_LIMIT, type KeyRing } from './key-ring';
import { KEY_FORGETTING_EVENTS } from './key-forgetting-events';

type PageReply = Extract<FromThread, { kind: 'page' }>;

/** Pages the thread reads ahead of the last one taken: one being applied, one ready, one asking for keys meanwhile. */
const DEPTH = 2;


/** The page's events with the thread's patches (in log order) put into their data; null if one names no event of it. */
function patched(events: StoredEvent[], patches: readonly PagePatch[]): StoredEvent[] | null {
  let at = 0;
  for (const [position, field, value] of patches) {
    while (at < events.length && events[at]!.position !== position) at += 1;
    if (at === events.length) return null;
    (events[at]!.data as Record<string, unknown>)[field] = value;
  }
  return events;
}

/**
 * Reads a SQLite log's pages ahead on a worker thread with their personal fields already decrypted, so a rebuild's
 * thread only parses each page as it would a log without encryption. The thread asks for the keys a page names that it
 * does not hold; the keys come from this thread's key ring, which alone decides what is destroyed. The order of an
 * erasure is kept: a page holding one is read by the reader itself (in log order, forgetting as it goes), and a page
 * decrypted under keys from before a forget is not used.
 */
export class DecryptingReadAhead {
  private worker: Worker | null = null;
  private failed = false;
  /** The thread has loaded and answers: until then a reader reads and decrypts in line. */
  ready = false;
  private run = 0;
  /** Where the current run's next page starts, and its size; null when no run is going. */
  private next: { after: number; limit: number } | null = null;
  private readonly arrived = new Map<number, PageReply>();
  private waiter: { after: number; resolve(reply: PageReply | null): void } | null = null;
  private readonly readiness: Array<(ready: boolean) => void> = [];
  /** Pages handed over decrypted by the thread. */
  taken = 0;

  constructor(
    private readonly filename: string,
    private readonly keys: KeyRing,
  ) {}

  /** Starts the thread if it is not running, without waiting for it. */
  warm(): void {
    this.started();
  }

  /** Starts the thread and says when it is ready (false: it could not start). */
  whenReady(): Promise<boolean> {
    const worker = this.started();
    if (this.ready || !worker) return Promise.resolve(this.ready);
    worker.ref(); // whoever waits keeps the process alive meanwhile
    return new Promise((resolve) =>
      this.readiness.push((ready) => {
        worker.unref();
        resolve(ready);
      }),
    );
  }

  private readied(ready: boolean): void {
    this.ready = ready;
    for (const resolve of this.readiness.splice(0)) resolve(ready);
  }

  /** Starts reading pages after `after`, `limit` at a time, in place of any run going. */
  start(after: number, limit: number): void {
    if (!this.ready) return;
    const worker = this.started();
    if (!worker) return;
    this.stopRun();
    this.run += 1;
    this.next = { after, limit };
    worker.postMessage({ kind: 'read', run: this.run, after, limit, forgotten: this.keys.forgotten } satisfies ToThread);
  }

  /** Whether the run going reads the page after `after` next. */
  reading(after: number, limit: number): boolean {
    return this.next !== null && this.next.after === after && this.next.limit === limit;
  }

  /** The page after `after` in clear if the run read it, full and under the keys as they are now; null: read it yourself. */
  async take(after: number, limit: number): Promise<StoredEvent[] | null> {
    const next = this.next;
    const worker = this.worker;
    if (!next || !worker || next.after !== after || next.limit !== limit) {
      this.stopRun();
      return null;
    }
    // The thread's questions (the keys of a page further on) are answered only when this thread turns to its event
    // loop: taking a page that has already arrived would not, and the thread would wait until a page is missing here.
    await new Promise((resolve) => setImmediate(resolve));
    let reply = this.arrived.get(after) ?? null;
    this.arrived.delete(after);
    if (!reply) {
      worker.ref(); // a page on its way keeps the process alive, as a read on this thread would
      reply = await new Promise<PageReply | null>((resolve) => (this.waiter = { after, resolve }));
      worker.unref();
    }
    if (!reply || reply.text === null || reply.count !== limit || reply.forgotten !== this.keys.forgotten) {
      this.stopRun();
      return null;
    }
    this.next = { after: reply.last, limit };
    worker.postMessage({ kind: 'took', run: this.run } satisfies ToThread);
    const events = patched(inPositionOrder(JSON.parse(reply.text) as StoredEvent[]), reply.patches);
    if (!events) {
      this.stopRun();
      return null;
    }
    this.taken += 1;
    return events;
  }

  async close(): Promise<void> {
    this.failed = true;
    this.stopRun();
    const worker = this.worker;
    this.worker = null;
    this.readied(false);
    if (!worker) return;
    worker.postMessage({ kind: 'stop' } satisfies ToThread);
    await worker.terminate();
  }

  private stopRun(): void {
    this.next = null;
    this.arrived.clear();
    this.waiter?.resolve(null);
    this.waiter = null;
  }

  private started(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    const fields: Record<string, string[]> = {};
    const json: Record<string, Record<string, string>> = {};
    for (const [type, rules] of Object.entries(PERSONAL_FIELDS)) {
      // Not the fields read models keep sealed: a page is read for projections, which store them as they are (a reader
      // that wants them in clear opens them itself, see EncryptingEventStore.readAllAhead).
      fields[type] = rules.flatMap((rule) => rule.fields.filter((field) => !sealedInReadModels(type).has(field)));
      for (const rule of rules) for (const [field, erased] of Object.entries(rule.json ?? {})) (json[type] ??= {})[field] = JSON.stringify(erased);
    }
    const setup: ThreadSetup = { filename: this.filename, fields, erasures: Object.keys(KEY_FORGETTING_EVENTS), erased: ERASED_VALUE, json, maxKeys: KEY_CACHE_LIMIT, depth: DEPTH };
    const worker = typescriptWorker(new URL('./decrypting-read-ahead-thread.ts', import.meta.url), { workerData: setup });
    worker.on('message', (message: FromThread) => {
      if (this.worker !== worker) return;
      if (message.kind === 'ready') this.readied(true);
      else if (message.kind === 'need') void this.sendKeys(worker, message.run, message.keyIds);
      else if (message.run === this.run) {
        if (this.waiter?.after === message.after) {
          this.waiter.resolve(message);
          this.waiter = null;
        } else this.arrived.set(message.after, message);
      }
    });
    // An idle thread does not keep the process alive (a reader may never close the store). Only after the 'message'
    // listener: adding one refs the thread's port again.
    worker.unref();
    const fail = () => {
      if (this.worker !== worker) return;
      this.failed = true;
      this.worker = null;
      this.readied(false);
      this.stopRun();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    this.worker = worker;
    return worker;
  }

  /** The keys the thread asked for (null: destroyed), each its own copy of the 32 bytes, not a view of a shared pool. */
  private async sendKeys(worker: Worker, run: number, keyIds: string[]): Promise<void> {
    const forgotten = this.keys.forgotten;
    const keys = new Map<string, Uint8Array | null>();
    try {
      for (const [keyId, key] of await this.keys.keysById(keyIds)) keys.set(keyId, key ? new Uint8Array(key) : null);
    } catch {
      keys.clear(); // the key store failed: the thread leaves the page to the reader, which reports it
    }
    if (this.worker === worker) worker.postMessage({ kind: 'keys', run, keys, forgotten } satisfies ToThread);
  }
}
