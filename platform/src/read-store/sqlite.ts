import { SqliteDocuments, type RecordedQuery } from './sqlite-documents';
import { SqliteBatch } from './sqlite-batch';
import type { BatchStore, Doc, Filter, FindOptions, CountOptions, ProjectionCheckpoint, ReadCollection, ReadStore } from './port';
import type { CheckpointStore } from '../event-store/port';

/**
 * How long one slice of a gradual drop may hold the writer (the event loop when there is no writer thread): live
 * batches commit between slices. The slice's size follows from the last one's speed.
 */
const DROP_SLICE_MS = 8;
const FIRST_DROP_SLICE_ROWS = 500;

type AnyDoc = Doc & Record<string, unknown>;
type SubscriberCheckpoint = { _id: string; position: number };
const SUBSCRIBER_CHECKPOINTS = '_subscriber_checkpoints';

export interface SqliteReadStoreOptions {
  /** File path (e.g. DATA_DIR/read-models.db), or ':memory:'. */
  filename: string;
  /**
   * NORMAL (the default) is enough for read models: WAL still commits each batch with its checkpoint atomically, and a
   * power loss can only lose whole recent batches, which are applied again from the log.
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/** A collection outside a batch: every write is its own transaction. Reads parse fresh documents, never shared ones. */
class SqliteCollection<T extends Doc> implements ReadCollection<T> {
  constructor(private readonly docs: SqliteDocuments, private readonly name: string) {}

  async get(id: string): Promise<T | null> {
    const json = this.docs.getJson(this.name, id);
    return json === null ? null : (JSON.parse(json) as T);
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    return this.docs.find(this.name, filter, options) as unknown as T[];
  }

  async count(filter: Filter = {}, options: CountOptions = {}): Promise<number> {
    return this.docs.count(this.name, filter, options.limit);
  }

  // Writes outside a batch go on this thread's connection, after any batch on the writer thread (docs.idle).
  async put(doc: T): Promise<void> {
    await this.docs.idle();
    this.write(doc as unknown as AnyDoc);
  }

  async patch(id: string, fields: Partial<T>): Promise<void> {
    await this.docs.idle();
    this.docs.transaction(() => {
      const json = this.docs.getJson(this.name, id);
      if (json !== null) this.write({ ...(JSON.parse(json) as AnyDoc), ...fields, _id: id });
    });
  }

  async delete(id: string): Promise<void> {
    await this.docs.idle();
    this.docs.transaction(() => this.docs.write([{ collection: this.name, id, json: null }], [], []));
  }

  private write(doc: AnyDoc): void {
    const kinds = this.docs.observe(this.name, doc).map(([path, kind]) => [this.name, path, kind] as [string, string, typeof kind]);
    this.docs.transaction(() => this.docs.write([{ collection: this.name, id: doc._id, json: JSON.stringify(doc) }], kinds, []));
  }
}

/**
 * Read store in a SQLite file of its own (WAL): a table per collection of JSON documents with expression indexes,
 * Mongo filters translated to SQL where SQLite can answer them exactly (mingo checks every result), and each
 * projection batch committed with its checkpoints in one transaction. A restart resumes from the checkpoints.
 * One process writes a file (a lock beside it says which); any number may read it.
 */
export class SqliteReadStore implements ReadStore, CheckpointStore {
  private readonly docs: SqliteDocuments;
  private readonly collections = new Map<string, SqliteCollection<Doc>>();

  constructor(options: SqliteReadStoreOptions) {
    this.docs = new SqliteDocuments(options.filename, options.synchronous ?? 'NORMAL');
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) this.collections.set(name, (collection = new SqliteCollection(this.docs, name)));
    return collection as unknown as ReadCollection<T>;
  }

  async ensureIndex(collection: string, field: string): Promise<void> {
    await this.docs.idle();
    this.docs.ensureIndex(collection, [field]);
  }

  async ensureCompoundIndex(collection: string, fields: readonly string[]): Promise<void> {
    await this.docs.idle();
    this.docs.ensureIndex(collection, [...fields]);
  }

  async getCheckpoint(projection: string): Promise<ProjectionCheckpoint | null> {
    return this.docs.getCheckpoint(projection);
  }

  async setCheckpoint(checkpoint: ProjectionCheckpoint): Promise<void> {
    await this.docs.idle();
    this.docs.transaction(() => this.docs.write([], [], [checkpoint]));
  }

  async settle(): Promise<void> {
    await this.docs.idle();
    this.docs.settle();
  }

  async scrub(): Promise<void> {
    await this.docs.idle();
    this.docs.truncateLog();
  }

  beginBatch(options?: { bulk?: boolean }): BatchStore {
    return new SqliteBatch(this.docs, options?.bulk ?? false);
  }

  async drop(projection: string, collections: string[]): Promise<void> {
    await this.docs.idle();
    this.docs.drop(projection, collections);
  }

  /**
   * Deletes a retired collection's documents in slices of a few milliseconds each (its own transaction, on the writer
   * thread when there is one, live batches and the event loop going on between), then drops the empty tables. Not a DROP at once: secure_delete zeroes every freed page, 1.6 s
   * for 300k documents. Not its indexes first either: dropping one index of a million rows is one long stall too.
   */
  async dropGradually(collections: string[]): Promise<void> {
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    for (const collection of collections) {
      let rows = FIRST_DROP_SLICE_ROWS;
      for (;;) {
        const started = performance.now();
        const deleted = await this.docs.deleteSlice(collection, rows);
        if (deleted === 0) break;
        const ms = Math.max(0.1, performance.now() - started);
        // Toward the size that takes DROP_SLICE_MS, at most doubling: one quick slice on an idle moment is no promise.
        rows = Math.max(100, Math.min(rows * 2, 20_000, Math.round((rows * DROP_SLICE_MS) / ms)));
        await turn();
      }
    }
    await this.docs.idle();
    this.docs.drop(null, collections);
  }

  /** SQLite's plan for a find (EXPLAIN QUERY PLAN), e.g. to check that an index is used. */
  explain(collection: string, filter: Filter = {}, options: FindOptions = {}): string[] {
    return this.docs.explain(collection, filter, options);
  }

  /**
   * Subscribers' (process managers') checkpoints beside the read models, for an event store that keeps none of its own
   * (EventStoreDB without MongoDB): without them each start would hand them the whole log again.
   */
  async load(name: string): Promise<number> {
    return (await this.collection<SubscriberCheckpoint>(SUBSCRIBER_CHECKPOINTS).get(name))?.position ?? 0;
  }

  async save(name: string, position: number): Promise<void> {
    await this.collection<SubscriberCheckpoint>(SUBSCRIBER_CHECKPOINTS).put({ _id: name, position });
  }

  /** Records the distinct queries reads run from now on, for a check of their plans (tests). */
  recordQueries(): ReadonlyMap<string, RecordedQuery> {
    return this.docs.recordQueries();
  }

  /** Each query's plan as SQLite makes it without statistics: whether an index serves it (tests). */
  plansWithoutStatistics(queries: Iterable<RecordedQuery>): Array<RecordedQuery & { plan: string[] }> {
    return this.docs.plansWithoutStatistics(queries);
  }

  async close(): Promise<void> {
    await this.docs.close();
  }
}
