import { ThreadRequests } from '../thread-requests';
import type { AppendThreadSetup, FromAppendThread, ThreadAppend, ToAppendThread } from './sqlite-append-thread';

/**
 * Commits the log's appends on a worker thread with its own connection (sqlite-append-thread.ts), so that the
 * transaction's page writes and its sync to disk (synchronous=FULL: one fsync per commit) do not hold the event loop
 * that serves requests; appends arriving meanwhile gather into the next batch (group commit). The thread commits
 * batches in the order they are sent, so positions are handed out in that order. If the thread cannot start or stops,
 * `available` turns false and the store commits on its own connection again.
 */
export class SqliteAppender {
  private readonly thread: ThreadRequests<Exclude<ToAppendThread, { kind: 'stop' }>, FromAppendThread>;

  private constructor(setup: AppendThreadSetup) {
    this.thread = new ThreadRequests(new URL('./sqlite-append-thread.ts', import.meta.url), setup, "The event log's commit");
  }

  /** For a file (an in-memory database cannot be opened by another connection): null otherwise. */
  static for(filename: string, synchronous: 'FULL' | 'NORMAL'): SqliteAppender | null {
    return filename === ':memory:' || filename === '' ? null : new SqliteAppender({ filename, synchronous });
  }

  get available(): boolean {
    return this.thread.available;
  }

  /** The batch's outcomes, in order; throws when the whole transaction failed or its outcome is unknown. */
  async append(batch: ThreadAppend[]) {
    const reply = this.answered(await this.thread.request((id) => ({ kind: 'append', id, batch })));
    if ('outcomes' in reply) return reply.outcomes;
    throw new Error('unexpected reply from the writer thread');
  }

  async saveCheckpoint(name: string, position: number): Promise<void> {
    this.answered(await this.thread.request((id) => ({ kind: 'checkpoint', id, name, position })));
  }

  private answered(reply: FromAppendThread): Exclude<FromAppendThread, { failed: string }> {
    if ('failed' in reply) throw Object.assign(new Error(reply.failed), { code: reply.code });
    return reply;
  }

  /** Stops the thread (the store has awaited its last commit). */
  stop(): Promise<void> {
    return this.thread.stop({ kind: 'stop' } satisfies ToAppendThread);
  }
}
