import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { revisionMatches, type ExpectedRevision } from './port';

/** What the thread is started with. */
export interface AppendThreadSetup {
  filename: string;
  synchronous: 'FULL' | 'NORMAL';
}

/** One append of a batch: its events with their data and metadata already JSON text. */
export interface ThreadAppend {
  stream: string;
  expected: ExpectedRevision;
  events: Array<{ event_id: string; type: string; data: string; metadata: string }>;
}

export type ToAppendThread =
  | { kind: 'append'; id: number; batch: ThreadAppend[] }
  | { kind: 'checkpoint'; id: number; name: string; position: number }
  | { kind: 'stop' };

/** Each append's outcome, in the batch's order. */
export type AppendOutcomeFromThread =
  /** Its events' revisions run from `first_revision`, at these positions. */
  | { first_revision: number; positions: number[] }
  /** The stream was at `actual` (null: none), which the expected revision did not match. */
  | { conflict: number | null }
  | { error: string; code?: string };

export type FromAppendThread =
  | { id: number; outcomes: AppendOutcomeFromThread[] }
  /** The whole transaction failed (nothing of the batch was committed). */
  | { id: number; failed: string; code?: string }
  | { id: number; saved: true };

// The body of the thread (see SqliteAppender): its own connection to the log, which the store has created; each batch
// of appends is one transaction, each append in its own savepoint so that a revision conflict fails only that append.
const setup = workerData as AppendThreadSetup;
const port = parentPort!;
const db = new Database(setup.filename, { fileMustExist: true });
db.pragma(`synchronous = ${setup.synchronous}`);
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');
const stmts = {
  streamRevision: db.prepare<[string], { revision: number }>('SELECT revision FROM streams WHERE stream_id = ?'),
  insertEvent: db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)'),
  upsertStream: db.prepare('INSERT INTO streams (stream_id, revision) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision'),
  saveCheckpoint: db.prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position'),
};

class Conflict extends Error {
  constructor(readonly actual: number | null) {
    super('wrong expected revision');
  }
}

const appendOne = db.transaction((append: ThreadAppend): AppendOutcomeFromThread => {
  const actual = stmts.streamRevision.get(append.stream)?.revision ?? null;
  if (!revisionMatches(append.expected, actual)) throw new Conflict(actual);
  const first_revision = (actual ?? -1) + 1;
  const positions = append.events.map((event, i) =>
    Number(stmts.insertEvent.run(event.event_id, append.stream, first_revision + i, event.type, event.data, event.metadata).lastInsertRowid),
  );
  stmts.upsertStream.run(append.stream, first_revision + append.events.length - 1);
  return { first_revision, positions };
});

function outcomeOfFailure(error: unknown): AppendOutcomeFromThread {
  if (error instanceof Conflict) return { conflict: error.actual };
  const { message, code } = error as { message?: string; code?: string };
  return { error: String(message ?? error), code };
}

/** Every append of the batches in one transaction (one sync to disk), each append in its own savepoint. */
const commitBatches = db.transaction((batches: ThreadAppend[][]) =>
  batches.map((batch) =>
    batch.map((append) => {
      try {
        return appendOne(append);
      } catch (error) {
        return outcomeOfFailure(error);
      }
    }),
  ),
);

function failure(id: number, error: unknown): FromAppendThread {
  const { message, code } = error as { message?: string; code?: string };
  return { id, failed: String(message ?? error), code };
}

/**
 * Commits the appends of `first` and of every batch already waiting behind it together: while one commit syncs to
 * disk, the store goes on sending batches, and they share the next commit instead of each paying its own sync.
 */
function commitWaiting(first: Extract<ToAppendThread, { kind: 'append' }>): void {
  const appends = [first];
  let stop = false;
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    const message = next.message as ToAppendThread;
    if (message.kind === 'append') appends.push(message);
    else {
      // Not an append: committed after the appends before it, in the order sent.
      flushAppends(appends.splice(0));
      if (message.kind === 'stop') stop = true;
      else handle(message);
      if (stop) break;
    }
  }
  flushAppends(appends);
  if (stop) stopThread();
}

function flushAppends(appends: Array<Extract<ToAppendThread, { kind: 'append' }>>): void {
  if (appends.length === 0) return;
  let outcomes: AppendOutcomeFromThread[][];
  try {
    outcomes = commitBatches.immediate(appends.map((m) => m.batch));
  } catch (error) {
    for (const m of appends) port.postMessage(failure(m.id, error));
    return;
  }
  appends.forEach((m, i) => port.postMessage({ id: m.id, outcomes: outcomes[i]! } satisfies FromAppendThread));
}

function stopThread(): void {
  db.close();
  port.close();
}

function handle(message: Exclude<ToAppendThread, { kind: 'stop' }>): void {
  if (message.kind === 'append') return commitWaiting(message);
  try {
    stmts.saveCheckpoint.run(message.name, message.position);
    port.postMessage({ id: message.id, saved: true } satisfies FromAppendThread);
  } catch (error) {
    port.postMessage(failure(message.id, error));
  }
}

port.on('message', (message: ToAppendThread) => {
  if (message.kind === 'stop') stopThread();
  else handle(message);
});
