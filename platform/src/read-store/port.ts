/** The read store port: collections of JSON documents with Mongo query semantics, plus projection checkpoints. */

export type Doc = { _id: string };
export type Filter = Record<string, unknown>;
export interface FindOptions {
  /** Keys in order; equal keys are ordered by `_id`, in the last key's direction unless the sort names `_id`. */
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

export interface CountOptions {
  limit?: number;
}

export interface ReadCollection<T extends Doc> {
  get(id: string): Promise<T | null>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * How many documents match; with `limit`, counting stops there (what a list says of a total it will not page to
   * costs no more than that many matches).
   */
  count(filter?: Filter, options?: CountOptions): Promise<number>;
  /**
   * Inserts or replaces the whole document. The store may keep the object itself (the in-memory store and batches
   * do), so a caller hands over a fresh one and does not change it afterwards; what reads return is always a copy.
   */
  put(doc: T): Promise<void>;
  /** Sets the given fields of an existing document; no-op when it does not exist. */
  patch(id: string, fields: Partial<T>): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * What `get` answers, without a promise: for a store that answers without waiting (in memory). Optional; a caller
   * reads through `withDocument` (below), which falls back to `get`.
   */
  getNow?(id: string): T | null;
}

/**
 * What a write answers when its effect is complete as the call returns (the in-memory store's writes, a SQLite
 * batch's): one settled promise for every such write, so a caller with many writes in a row (a projection in a rebuild)
 * may go on without awaiting it (`done === SETTLED`), and an await of it is all anyone else pays. Never rejected.
 */
export const SETTLED: Promise<void> = Promise.resolve();

/**
 * `next(a, b)` once `first` has settled: at once (no await, no promise of its own) when `first` is SETTLED, else after
 * it. For a projection's writes in a row that need no answer from the store. The arguments are passed, not captured: a
 * closure per call (and the frame it keeps) was garbage on every event of a rebuild.
 */
export function andThen<A, B>(first: Promise<void>, next: (a: A, b: B) => Promise<void>, a: A, b: B): Promise<void> {
  return first === SETTLED ? next(a, b) : afterSettled(first, next, a, b);
}

function afterSettled<A, B>(first: Promise<void>, next: (a: A, b: B) => Promise<void>, a: A, b: B): Promise<void> {
  return first.then(() => next(a, b));
}

/**
 * `use(document, a, b)` once the document is read: at once, with no promise or async frame of its own, when the
 * collection answers synchronously (getNow), else when `get` has answered. For a projection's look-up that a rebuild
 * makes for every event of a type: an async function awaiting `get` cost each such event a saved frame and a microtask
 * turn. The arguments are passed, not captured (see andThen).
 */
export function withDocument<T extends Doc, A, B>(collection: ReadCollection<T>, id: string, use: (doc: T | null, a: A, b: B) => Promise<void>, a: A, b: B): Promise<void> {
  return collection.getNow ? use(collection.getNow(id), a, b) : whenRead(collection.get(id), use, a, b);
}

function whenRead<T, A, B>(read: Promise<T | null>, use: (doc: T | null, a: A, b: B) => Promise<void>, a: A, b: B): Promise<void> {
  return read.then((doc) => use(doc, a, b));
}

export interface ProjectionCheckpoint {
  name: string;
  version: number;
  position: number;
}

/** A write recorded during a batch, applied when the batch commits. */
export type WriteOp = { collection: string; kind: 'put'; doc: Doc } | { collection: string; kind: 'delete'; id: string };

/** The documents side of a store as a projection sees it while applying a batch of events. */
export interface CollectionSource {
  collection<T extends Doc>(name: string): ReadCollection<T>;
}

/** A batch: projections read and write through it; `commit` stores its writes together with the new checkpoints. */
export interface BatchStore extends CollectionSource {
  commit(checkpoints: ProjectionCheckpoint[]): Promise<void>;
}

export interface ReadStore extends CollectionSource {
  collection<T extends Doc>(name: string): ReadCollection<T>;
  /** Declares an equality index; adapters use it to answer filters on that field without a scan. */
  ensureIndex(collection: string, field: string): Promise<void>;
  /**
   * Declares an index on several fields in order, e.g. (doctor_id, start): equality on the first ones, then a range
   * or the sort order on the next. Optional: callers use `store.ensureCompoundIndex?.(...)`; a store without it
   * answers the same queries, only with its single-field indexes.
   */
  ensureCompoundIndex?(collection: string, fields: readonly string[]): Promise<void>;
  getCheckpoint(projection: string): Promise<ProjectionCheckpoint | null>;
  setCheckpoint(checkpoint: ProjectionCheckpoint): Promise<void>;
  /**
   * Starts a batch. The in-memory store writes through at once; the SQLite and remote stores buffer the writes and
   * commit them with the checkpoints in one go (one transaction where they can), so documents and checkpoint never
   * disagree. `bulk`: a catch-up's batch, whose runner waits for nothing else meanwhile (SQLite then commits it on the
   * connection that reads, not on its writer thread).
   */
  beginBatch(options?: { bulk?: boolean }): BatchStore;
  /**
   * Finishes work a store put off while read models were being built, e.g. SQLite's indexes declared on empty
   * collections, created in one pass. Optional; the runner calls it once it has caught up with the log.
   */
  settle?(): Promise<void>;
  /**
   * Called after a batch that blanked an erased person's values: no freed copy of them may stay in the store's
   * files (SQLite zeroes freed content as it writes, and this empties its write-ahead log). Optional.
   */
  scrub?(): Promise<void>;
  /** Removes collections and the checkpoint of a projection, so it rebuilds from position 0. */
  drop(projection: string, collections: string[]): Promise<void>;
  /**
   * Removes collections nobody reads any more (a retired generation) a slice at a time, yielding between slices, so a
   * large one does not hold the process. Optional: `drop` does it at once.
   */
  dropGradually?(collections: string[]): Promise<void>;
  close(): Promise<void>;
}
