import type { Worker } from 'node:worker_threads';
import { typescriptWorker } from './typescript-worker';

/** The thread stopped with a request on it: whether its work was done is not known. */
export class ThreadStoppedError extends Error {
  constructor(what: string) {
    super(`${what}: the thread stopped before it answered, so whether it was done is not known`);
  }
}

/**
 * Requests to a worker thread (a TypeScript module, started on the first request), each answered by one reply with
 * the same `id`, in the order they were sent. The thread keeps the process alive only while a request is on it. When
 * it cannot start or stops, `available` turns false and every request on it fails with ThreadStoppedError.
 */
export class ThreadRequests<Request extends { id: number }, Reply extends { id: number }> {
  private worker: Worker | null = null;
  private failed = false;
  private nextId = 0;
  private readonly replies = new Map<number, (reply: Reply | null) => void>();

  constructor(
    private readonly module: URL,
    private readonly workerData: unknown,
    /** What the thread does, for errors. */
    private readonly what: string,
  ) {}

  get available(): boolean {
    return !this.failed;
  }

  async request(message: (id: number) => Request): Promise<Reply> {
    const worker = this.started();
    if (!worker) throw new ThreadStoppedError(this.what);
    const id = (this.nextId += 1);
    const replied = new Promise<Reply | null>((resolve) => this.replies.set(id, resolve));
    worker.ref(); // work on its way keeps the process alive, as the same work on this thread would
    worker.postMessage(message(id));
    const reply = await replied;
    if (!reply) throw new ThreadStoppedError(this.what);
    return reply;
  }

  private started(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    let worker: Worker;
    try {
      worker = typescriptWorker(this.module, { workerData: this.workerData });
    } catch {
      this.failed = true;
      return null;
    }
    worker.on('message', (reply: Reply) => {
      const resolve = this.replies.get(reply.id);
      this.replies.delete(reply.id);
      resolve?.(reply);
      if (this.replies.size === 0) worker.unref();
    });
    // An idle thread does not keep the process alive (its owner may never be closed). Only after the 'message'
    // listener: adding one refs the thread's port again.
    worker.unref();
    const fail = () => {
      this.failed = true;
      this.worker = null;
      for (const resolve of this.replies.values()) resolve(null);
      this.replies.clear();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    this.worker = worker;
    return worker;
  }

  /** Stops the thread with `stopMessage` (its owner has awaited its last request), at most 2 s later by force. */
  async stop(stopMessage: unknown): Promise<void> {
    const worker = this.worker;
    this.failed = true;
    this.worker = null;
    if (!worker) return;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage(stopMessage);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await worker.terminate();
  }
}
