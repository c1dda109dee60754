import type { Worker } from 'node:worker_threads';
import { typescriptWorker } from '../typescript-worker';
import type { AppendThreadSetup, FromAppendThread, ThreadAppend, ToAppendThread } from './sqlite-append-thread';

/** The thread stopped with this message's work on it: whether it was committed is not known. */
export class AppendOutcomeUnknownError extends Error {
  constructor() {
    super("The event log's writer thread stopped during the commit: whether it was committed is not known");
  }
}

/**
 * Commits the log's appends on a worker thread with its own connection (sqlite-append-thread.ts), so that the
 * transaction's page writes and its sync to disk (synchronous=FULL: one fsync per commit) do not hold the event loop
 * that serves requests; appends arriving meanwhile gather into the next batch (group commit). The store sends one
 * batch at a time, so positions are handed out in the order batches are sent. If the thread cannot start or stops,
 * `available` turns false and the store commits on its own connection again.
 */
export class SqliteAppender {
  private worker: Worker | null = null;
  private failed = false;
  private nextId = 0;
  private readonly replies = new Map<number, (reply: FromAppendThread | null) => void>();

  private constructor(private readonly setup: AppendThreadSetup) {}

  /** For a file (an in-memory database cannot be opened by another connection): null otherwise. */
  static for(filename: string, synchronous: 'FULL' | 'NORMAL'): SqliteAppender | null {
    return filename === ':memory:' || filename === '' ? null : new SqliteAppender({ filename, synchronous });
  }

  get available(): boolean {
    return !this.failed;
  }

  /** The batch's outcomes, in order; throws when the whole transaction failed or its outcome is unknown. */
  async append(batch: ThreadAppend[]) {
    const reply = await this.send((id) => ({ kind: 'append', id, batch }));
    if ('outcomes' in reply) return reply.outcomes;
    throw new Error('unexpected reply from the writer thread');
  }

  async saveCheckpoint(name: string, position: number): Promise<void> {
    await this.send((id) => ({ kind: 'checkpoint', id, name, position }));
  }

  private async send(message: (id: number) => ToAppendThread): Promise<Exclude<FromAppendThread, { failed: string }>> {
    const worker = this.started();
    if (!worker) throw new AppendOutcomeUnknownError();
    const id = (this.nextId += 1);
    const replied = new Promise<FromAppendThread | null>((resolve) => this.replies.set(id, resolve));
    worker.ref(); // a commit on its way keeps the process alive, as one on this thread would
    worker.postMessage(message(id));
    const reply = await replied;
    if (!reply) throw new AppendOutcomeUnknownError();
    if ('failed' in reply) throw Object.assign(new Error(reply.failed), { code: reply.code });
    return reply;
  }

  private started(): Worker | null {
    if (this.worker || this.failed) return this.worker;
    let worker: Worker;
    try {
      worker = typescriptWorker(new URL('./sqlite-append-thread.ts', import.meta.url), { workerData: this.setup });
    } catch {
      this.failed = true;
      return null;
    }
    worker.on('message', (reply: FromAppendThread) => {
      const resolve = this.replies.get(reply.id);
      this.replies.delete(reply.id);
      resolve?.(reply);
      if (this.replies.size === 0) worker.unref();
    });
    // An idle thread does not keep the process alive (a writer may never close the store). Only after the 'message'
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

  /** Stops the thread once its last commit has answered (the store sends nothing more). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.failed = true;
    this.worker = null;
    if (!worker) return;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'stop' } satisfies ToAppendThread);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    await worker.terminate();
  }
}
