import type { Worker } from 'node:worker_threads';
import { typescriptWorker } from '../typescript-worker';
import type { DecryptRequest, FieldJob, FieldResult } from './decryption-thread';

/**
 * AES-GCM decryption on a worker thread, for a reader that reads ahead: while the main thread applies one page of
 * the log, the next page's fields are decrypted beside it. Started on first use; it does not keep the process alive.
 */
export class DecryptionWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(results: FieldResult[]): void; reject(error: unknown): void }>();

  decrypt(jobs: FieldJob[], keys: Map<string, Buffer>): Promise<FieldResult[]> {
    const worker = this.started();
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, jobs, keys } satisfies DecryptRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = typescriptWorker(new URL('./decryption-thread.ts', import.meta.url));
    worker.unref();
    worker.on('message', ({ id, results }: { id: number; results: FieldResult[] }) => {
      this.waiting.get(id)?.resolve(results);
      this.waiting.delete(id);
    });
    const fail = (error: unknown) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
      this.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The decryption thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
