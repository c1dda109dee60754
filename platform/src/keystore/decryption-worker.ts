import type { Worker } from 'node:worker_threads';
import { typescriptWorker } from '../typescript-worker';
import type { DecryptRequest, FieldResult } from './decryption-thread';

/** Keys the thread may hold before it is told to forget them all (the process's own key cache holds as many). */
const MAX_KEYS_HELD = 10_000;

/**
 * AES-GCM decryption on a worker thread, for a reader that reads ahead: while the main thread applies one page of
 * the log, the next page's fields are decrypted beside it. Started on first use (`warm`); it does not keep the process
 * alive while idle. Starting takes a few hundred milliseconds (the thread loads TypeScript): `ready` says when it has.
 */
export class DecryptionWorker {
  private worker: Worker | null = null;
  /** The thread has started and answers at once: until then a reader decrypts on its own thread rather than wait. */
  ready = false;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(results: FieldResult[]): void; reject(error: unknown): void }>();

  /** Key ids the thread holds, and the key ring's forget count they were sent under. */
  private readonly sent = new Set<string>();
  private sentAsOf = -1;

  /**
   * Decrypts the texts (each with its context) with their keys. A key goes to the thread once (its own copy of the 32 bytes: a Buffer's view of
   * Node's shared pool would carry the whole pool along); the thread forgets every key when `forgotten` moves.
   */
  decrypt(texts: string[], contexts: string[], keys: Map<string, Buffer>, forgotten: number): Promise<FieldResult[]> {
    const worker = this.started();
    const id = (this.nextId += 1);
    const reset = forgotten !== this.sentAsOf || this.sent.size > MAX_KEYS_HELD;
    if (reset) {
      this.sent.clear();
      this.sentAsOf = forgotten;
    }
    const fresh = new Map<string, Uint8Array>();
    for (const [keyId, key] of keys) {
      if (this.sent.has(keyId)) continue;
      fresh.set(keyId, new Uint8Array(key));
      this.sent.add(keyId);
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref(); // fields on their way keep the process alive, as decrypting on this thread would
      worker.postMessage({ id, texts, contexts, reset, keys: fresh } satisfies DecryptRequest);
    });
  }

  /** Starts the thread if it is not running, without waiting for it. */
  warm(): void {
    this.started();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = typescriptWorker(new URL('./decryption-thread.ts', import.meta.url));
    worker.on('message', (message: { id: number; results: FieldResult[] } | 'ready') => {
      if (message === 'ready') {
        this.ready = this.worker === worker;
        return;
      }
      const { id, results } = message;
      this.waiting.get(id)?.resolve(results);
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
    });
    // An idle thread does not keep the process alive (a reader may never close the store). Only after the 'message'
    // listener: adding one refs the thread's port again.
    worker.unref();
    const fail = (error: unknown) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
      this.worker = null;
      this.ready = false;
      this.sent.clear(); // a new thread holds nothing
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The decryption thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = false;
    await worker?.terminate();
  }
}
