import type Database from 'better-sqlite3';
import { type ExpectedRevision, revisionMatches } from './port';

/** One append as it is written: its events' data and metadata already JSON text. */
export interface AppendToWrite {
  stream: string;
  expected: ExpectedRevision;
  events: Array<{ event_id: string; type: string; data: string; metadata: string }>;
}

/** What became of one append of a batch. */
export type AppendWritten =
  /** Its events' positions, in order; the first event's revision is `first_revision`. */
  | { first_revision: number; positions: number[] }
  /** The stream's revision did not match the expected one. */
  | { conflict: { actual: number | null } }
  /** SQLite refused it (e.g. a duplicate event id); the rest of the batch is not affected. */
  | { failed: string };

/**
 * The group commit of the SQLite event store, on whichever connection writes (the store's thread of its own, or its
 * one connection in memory): a batch of appends in one transaction, each in a savepoint so that a revision conflict or
 * a refused row fails only that append.
 */
export function sqliteAppender(db: Database.Database): (batch: AppendToWrite[]) => AppendWritten[] {
  const streamRevision = db.prepare<[string], { revision: number }>('SELECT revision FROM streams WHERE stream_id = ?');
  const insertEvent = db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const upsertStream = db.prepare(
    'INSERT INTO streams (stream_id, revision) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision',
  );

  class Conflict {
    constructor(readonly actual: number | null) {}
  }
  const appendInSavepoint = db.transaction((append: AppendToWrite) => {
    const actual = streamRevision.get(append.stream)?.revision ?? null;
    if (!revisionMatches(append.expected, actual)) throw new Conflict(actual);
    let revision = actual ?? -1;
    const positions: number[] = [];
    for (const event of append.events) {
      revision += 1;
      positions.push(Number(insertEvent.run(event.event_id, append.stream, revision, event.type, event.data, event.metadata).lastInsertRowid));
    }
    upsertStream.run(append.stream, revision);
    return { first_revision: (actual ?? -1) + 1, positions };
  });
  const commitBatch = db.transaction((batch: AppendToWrite[]) =>
    batch.map((append): AppendWritten => {
      try {
        return appendInSavepoint(append);
      } catch (error) {
        if (error instanceof Conflict) return { conflict: { actual: error.actual } };
        return { failed: String((error as Error)?.message ?? error) };
      }
    }),
  );
  return (batch) => commitBatch.immediate(batch);
}
