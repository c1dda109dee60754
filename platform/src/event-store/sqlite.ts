import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files';
import { SqliteCheckpointer } from '../sqlite-checkpointer';
import { SqliteReadAhead } from './sqlite-read-ahead';
import { type AppendToWrite, type AppendWritten, sqliteAppender } from './sqlite-append';
import type { AppendThreadSetup, FromAppendThread, ToAppendThread } from './sqlite-append-thread';
import { ThreadRequests } from '../thread-requests';
import { EventEmitter } from 'node:events';

import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AppendResult,
  type CheckpointStore,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamOptions,
  type StoredEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedRevisionError,
} from './port';

interface PendingAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface EventRow {
  position: number;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
}

/** Pages smaller than this are read on the spot: a live reader's, not worth a thread's round trip. */
const READ_AHEAD_MIN_PAGE = 100;

/** A subscriber that falls this far behind reads from the file instead of buffering pushed events. */
const MAX_PUSH_BUFFER = 10_000;

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:'. */
  filename: string;
  /** FULL survives power loss; NORMAL survives a process crash (WAL). */
  synchronous?: 'FULL' | 'NORMAL';
  /** How often a subscription looks for appends made by other processes. */
  pollIntervalMs?: number;
}

/**
 * Event store on SQLite. Appends that arrive in the same tick are committed together in one transaction
 * (group commit), each inside its own savepoint so a revision conflict fails only that append. On a file the commit
 * runs on a thread of its own: the wait for the disk (a sync per commit, with `synchronous = FULL`) is then not spent
 * on the thread that serves requests, and the appends that arrive meanwhile make the next batch.
 */
export class SqliteEventStore implements EventStore, CheckpointStore {
  private readonly db: Database.Database;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  /** The batch on the append thread, until it is answered and settled. */
  private inFlight: Promise<void> | null = null;
  /** Commits batches on a connection of its own (a file's only: an in-memory database has one connection). */
  private readonly appendThread: ThreadRequests<Exclude<ToAppendThread, { kind: 'stop' }>, FromAppendThread> | null;
  /** The group commit on this thread's connection: in memory, or once the append thread has stopped. */
  private readonly appendHere: (batch: AppendToWrite[]) => AppendWritten[];
  /** The last checkpoint sent to the append thread, settled: a load waits for it. */
  private saving: Promise<unknown> = Promise.resolve();
  /** The last position this store has committed and pushed to its subscribers. */
  private lastCommitted = 0;
  private readonly committed = new EventEmitter();
  private readonly pollIntervalMs: number;
  private closed = false;
  private readonly stmts;
  private readonly checkpointer: SqliteCheckpointer | null;
  private readonly readAhead: SqliteReadAhead | null;
  /** The file other connections may open to read the log (a reader's own read-ahead thread); null in memory. */
  readonly fileForReaders: string | null;

  constructor(options: SqliteEventStoreOptions) {
    this.fileForReaders = options.filename === ':memory:' || options.filename === '' ? null : options.filename;
    if (this.fileForReaders) ensurePrivateFile(this.fileForReaders);
    this.db = new Database(options.filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    this.db.pragma('busy_timeout = 5000');
    this.checkpointer = SqliteCheckpointer.start(this.db, options.filename);
    this.readAhead = SqliteReadAhead.for(options.filename);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL UNIQUE,
        stream_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        UNIQUE (stream_id, revision)
      );
      CREATE TABLE IF NOT EXISTS streams (stream_id TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TRIGGER IF NOT EXISTS events_are_immutable_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are never edited'); END;
      CREATE TRIGGER IF NOT EXISTS events_are_immutable_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are never deleted'); END;
    `);
    this.appendHere = sqliteAppender(this.db);
    this.appendThread =
      this.fileForReaders === null
        ? null
        : new ThreadRequests(
            new URL('./sqlite-append-thread.ts', import.meta.url),
            { filename: this.fileForReaders, synchronous: options.synchronous ?? 'FULL' } satisfies AppendThreadSetup,
            "The event store's commit",
          );
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.committed.setMaxListeners(0);
    this.stmts = {
      committedAs: this.db.prepare<[string], { position: number; revision: number }>('SELECT position, revision FROM events WHERE event_id = ?'),
      // LIMIT -1: no limit (SQLite's meaning of a negative limit).
      readStream: this.db.prepare<[string, number, number], EventRow>('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?'),
      readAll: this.db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: this.db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events'),
      loadCheckpoint: this.db.prepare<[string], { position: number }>('SELECT position FROM checkpoints WHERE name = ?'),
      saveCheckpoint: this.db.prepare(
        'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
      ),
    };
  }

  appendToStream(stream: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('Event store is closed'));
    if (events.length === 0) return Promise.reject(new Error('Nothing to append'));
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expected: options.expectedRevision ?? 'any', resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Sends what is queued to be committed; with a batch on the thread, the next one is sent when it is answered. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    const sendable: PendingAppend[] = [];
    const appends: AppendToWrite[] = [];
    for (const pending of batch) {
      try {
        appends.push({
          stream: pending.stream,
          expected: pending.expected,
          events: pending.events.map((e) => ({ event_id: e.event_id, type: e.type, data: JSON.stringify(e.data), metadata: JSON.stringify(e.metadata) })),
        });
        sendable.push(pending);
      } catch (error) {
        pending.reject(error); // data that cannot be written as JSON fails its own append only
      }
    }
    if (sendable.length === 0) return;
    if (this.appendThread?.available) {
      this.inFlight = this.appendThread
        .request((id) => ({ kind: 'commit', id, appends }))
        .then(
          (reply) => {
            if ('outcomes' in reply) this.settle(sendable, appends, reply.outcomes);
            else for (const pending of sendable) pending.reject(new Error(`The event store could not commit: ${'failed' in reply ? reply.failed : 'no answer'}`));
          },
          () => this.settle(sendable, appends, this.recover(appends)),
        )
        .finally(() => {
          this.inFlight = null;
          this.flush();
        });
      return;
    }
    let outcomes: AppendWritten[];
    try {
      outcomes = this.appendHere(appends);
    } catch (error) {
      for (const pending of sendable) pending.reject(error);
      return;
    }
    this.settle(sendable, appends, outcomes);
  }

  /**
   * The append thread stopped with a batch on it, which it may or may not have committed: an append whose first event
   * is in the log was committed (the batch is one transaction); the rest are committed here.
   */
  private recover(appends: AppendToWrite[]): AppendWritten[] {
    const committed = appends.map((append) => this.stmts.committedAs.get(append.events[0]!.event_id));
    if (committed.every((row) => row === undefined)) {
      try {
        return this.appendHere(appends);
      } catch (error) {
        return appends.map(() => ({ failed: String((error as Error)?.message ?? error) }));
      }
    }
    return appends.map((append, i) => {
      const first = committed[i];
      if (!first) return { failed: 'the event store stopped while committing it' };
      const positions = append.events.map((e) => this.stmts.committedAs.get(e.event_id)!.position);
      return { first_revision: first.revision, positions };
    });
  }

  /** Answers each append of a committed batch and pushes its events to this store's subscribers. */
  private settle(batch: PendingAppend[], appends: AppendToWrite[], outcomes: AppendWritten[]): void {
    const committed: StoredEvent[] = [];
    batch.forEach((pending, i) => {
      const outcome = outcomes[i]!;
      if ('conflict' in outcome) return pending.reject(new WrongExpectedRevisionError(pending.stream, pending.expected, outcome.conflict.actual));
      if ('failed' in outcome) return pending.reject(new Error(outcome.failed));
      const events = appends[i]!.events;
      // Pushed as parsed copies of what was stored, so a subscriber sees exactly what a later read would return.
      events.forEach((event, k) =>
        committed.push({
          event_id: event.event_id,
          stream_id: pending.stream,
          revision: outcome.first_revision + k,
          position: outcome.positions[k]!,
          type: event.type,
          data: JSON.parse(event.data) as unknown,
          metadata: JSON.parse(event.metadata) as unknown,
        }),
      );
      pending.resolve({ next_revision: outcome.first_revision + events.length - 1, position: outcome.positions[events.length - 1]! });
    });
    committed.sort((a, b) => a.position - b.position);
    if (committed.length > 0) this.lastCommitted = Math.max(this.lastCommitted, committed[committed.length - 1]!.position);
    this.committed.emit('commit', committed);
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.stmts.readStream.all(stream, options?.fromRevision ?? 0, options?.maxCount ?? -1).map(toStoredEvent);
  }

  async readAll(options: { fromPosition: number; limit: number }): Promise<StoredEvent[]> {
    const { fromPosition, limit } = options;
    const events = (await this.readAhead?.take(fromPosition, limit)) ?? this.readPage(options);
    // A full page is a reader working through history: its next page is read beside it.
    if (events.length === limit && limit >= READ_AHEAD_MIN_PAGE && !this.closed) this.readAhead?.request(events[events.length - 1]!.position, limit);
    return events;
  }

  /** Whether pages are read ahead on a thread (started now if not yet), once it answers. */
  readAheadOnThread(): Promise<boolean> {
    return this.readAhead?.whenReady() ?? Promise.resolve(false);
  }

  /** One page on this thread, without reading the next one ahead (for a reader that reads ahead itself). */
  readPage(options: { fromPosition: number; limit: number }): StoredEvent[] {
    return this.stmts.readAll.all(options.fromPosition, options.limit).map(toStoredEvent);
  }

  async headPosition(): Promise<number> {
    return this.stmts.head.get()?.head ?? 0;
  }

  /**
   * Catch-up subscription. Appends committed by this process are pushed to it straight from the commit, so a
   * live subscriber does not read them back; anything else (history, other processes' appends) is read from the file.
   */
  subscribeToAll(options: SubscribeOptions): Subscription {
    let stopped = false;
    let wake: (() => void) | null = null;
    let pushed: StoredEvent[] = [];
    let appendedSinceRead = false;
    const onCommit = (events: StoredEvent[] = []) => {
      appendedSinceRead = true;
      if (pushed.length < MAX_PUSH_BUFFER) pushed.push(...events);
      wake?.();
    };
    this.committed.on('commit', onCommit);
    const batchSize = options.batchSize ?? 1000;

    /** Resolves true on a commit of this store, false when the poll interval passed without one. */
    const waitForAppend = () =>
      new Promise<boolean>((resolve) => {
        if (appendedSinceRead) return resolve(true);
        const timer = setTimeout(() => resolve(false), this.pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      }).finally(() => {
        wake = null;
      });

    /** The pushed events that continue exactly after `position`, or null when there is a gap to read from the file. */
    const takePushed = (position: number): StoredEvent[] | null => {
      pushed = pushed.filter((e) => e.position > position);
      if (pushed.length === 0 || pushed[0]!.position !== position + 1) return null;
      let end = 1;
      while (end < pushed.length && end < batchSize && pushed[end]!.position === pushed[end - 1]!.position + 1) end += 1;
      const run = pushed.slice(0, end);
      pushed = pushed.slice(end);
      return run;
    };

    const loop = (async () => {
      let position = options.fromPosition;
      // History, and whatever other processes append, is read from the file. Once a read found nothing more, a
      // subscriber that has everything this store committed waits without reading, until the poll interval passes.
      let fileMayHaveMore = true;
      while (!stopped && !this.closed) {
        try {
          appendedSinceRead = false;
          let events = takePushed(position);
          if (!events) {
            if (!fileMayHaveMore && position >= this.lastCommitted) {
              fileMayHaveMore = !(await waitForAppend());
              continue;
            }
            events = await this.readAll({ fromPosition: position, limit: batchSize });
            if (events.length === 0) {
              fileMayHaveMore = !(await waitForAppend());
              continue;
            }
          }
          await options.onEvents(events);
          position = events[events.length - 1]!.position;
        } catch (error) {
          options.onError?.(error);
          await sleep(500);
        }
      }
    })();

    return {
      stop: async () => {
        stopped = true;
        this.committed.off('commit', onCommit);
        wake?.();
        await loop;
      },
    };
  }

  async load(name: string): Promise<number> {
    await this.saving;
    return this.stmts.loadCheckpoint.get(name)?.position ?? 0;
  }

  /** On the append thread when there is one: a write here would wait, blocking, for the thread's commit to end. */
  async save(name: string, position: number): Promise<void> {
    if (this.appendThread?.available) {
      const saved = this.appendThread.request((id) => ({ kind: 'checkpoint', id, name, position })).catch(() => null);
      this.saving = saved;
      const reply = await saved;
      if (reply && 'saved' in reply) return;
    }
    this.stmts.saveCheckpoint.run(name, position);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    while (this.inFlight || this.queue.length > 0) {
      if (this.inFlight) await this.inFlight;
      else this.flush();
    }
    this.closed = true;
    await this.saving;
    await this.appendThread?.stop({ kind: 'stop' } satisfies ToAppendThread);
    this.committed.emit('commit', []);
    await this.readAhead?.stop();
    await this.checkpointer?.stop();
    this.db.close();
  }
}

/**
 * The row becomes the event: its two JSON columns parsed in place (the row object is the statement's fresh result and
 * has exactly the event's columns), instead of a second object per event of a rebuild.
 */
function toStoredEvent(row: EventRow): StoredEvent {
  const event = row as unknown as Record<keyof EventRow, unknown>;
  event.data = JSON.parse(row.data);
  event.metadata = JSON.parse(row.metadata);
  return event as unknown as StoredEvent;
}
