import { Query } from 'mingo';
import { sortDocs } from './sort';
import type { BatchStore, Doc, Filter, FindOptions, ProjectionCheckpoint, ReadCollection, ReadStore } from './port';

type AnyDoc = Doc & Record<string, unknown>;

/** One collection: documents by id, plus hash indexes on declared fields. */
class MemoryCollection<T extends AnyDoc> implements ReadCollection<T> {
  readonly docs = new Map<string, T>();
  private readonly indexes = new Map<string, Map<unknown, Set<string>>>();

  addIndex(field: string): void {
    if (this.indexes.has(field)) return;
    const index = new Map<unknown, Set<string>>();
    this.indexes.set(field, index);
    for (const doc of this.docs.values()) this.indexAdd(field, index, doc);
  }

  private indexAdd(field: string, index: Map<unknown, Set<string>>, doc: T): void {
    const key = doc[field];
    let ids = index.get(key);
    if (!ids) index.set(key, (ids = new Set()));
    ids.add(doc._id);
  }

  private indexRemove(doc: T): void {
    for (const [field, index] of this.indexes) index.get(doc[field])?.delete(doc._id);
  }

  /**
   * Narrows the candidates with an index when the filter has a plain equality on an indexed field; of several such
   * fields, the one with the fewest documents for its value.
   */
  private candidates(filter: Filter): Iterable<T> {
    if (typeof filter._id === 'string') {
      const doc = this.docs.get(filter._id);
      return doc ? [doc] : [];
    }
    let best: Set<string> | null = null;
    for (const [field, index] of this.indexes) {
      const value = filter[field];
      if (value !== undefined && (value === null || typeof value !== 'object')) {
        const ids = index.get(value);
        if (!ids || ids.size === 0) return [];
        if (!best || ids.size < best.size) best = ids;
      }
    }
    return best ? [...best].map((id) => this.docs.get(id)!) : this.docs.values();
  }

  async get(id: string): Promise<T | null> {
    const doc = this.docs.get(id);
    return doc ? structuredClone(doc) : null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    const query = new Query(filter);
    let found = [...this.candidates(filter)].filter((doc) => query.test(doc));
    if (options.sort) found = sortDocs(found, options.sort);
    const start = options.skip ?? 0;
    const end = options.limit === undefined ? undefined : start + options.limit;
    return found.slice(start, end).map((doc) => structuredClone(doc));
  }

  async count(filter: Filter = {}): Promise<number> {
    const query = new Query(filter);
    let n = 0;
    for (const doc of this.candidates(filter)) if (query.test(doc)) n += 1;
    return n;
  }

  /** The store keeps the document it is given (callers hand over fresh objects); reads return copies. */
  async put(doc: T): Promise<void> {
    this.store(doc);
  }

  private store(doc: T): void {
    const previous = this.docs.get(doc._id);
    this.docs.set(doc._id, doc);
    for (const [field, index] of this.indexes) {
      if (previous) {
        if (previous[field] === doc[field]) continue;
        index.get(previous[field])?.delete(doc._id);
      }
      this.indexAdd(field, index, doc);
    }
  }

  async patch(id: string, fields: Partial<T>): Promise<void> {
    const previous = this.docs.get(id);
    if (!previous) return;
    this.store({ ...previous, ...structuredClone(fields), _id: id });
  }

  async delete(id: string): Promise<void> {
    const previous = this.docs.get(id);
    if (!previous) return;
    this.indexRemove(previous);
    this.docs.delete(id);
  }
}


/** Read store kept in memory; rebuilt from the log at every start. */
export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection<AnyDoc>>();
  private readonly checkpoints = new Map<string, ProjectionCheckpoint>();

  private get(name: string): MemoryCollection<AnyDoc> {
    let collection = this.collections.get(name);
    if (!collection) this.collections.set(name, (collection = new MemoryCollection()));
    return collection;
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    return this.get(name) as unknown as ReadCollection<T>;
  }

  async ensureIndex(collection: string, field: string): Promise<void> {
    this.get(collection).addIndex(field);
  }

  /** In memory an index on the first field serves equality on it; the rest of the filter is tested per document. */
  async ensureCompoundIndex(collection: string, fields: readonly string[]): Promise<void> {
    if (fields.length > 0) this.get(collection).addIndex(fields[0]!);
  }

  async getCheckpoint(projection: string): Promise<ProjectionCheckpoint | null> {
    return this.checkpoints.get(projection) ?? null;
  }

  async setCheckpoint(checkpoint: ProjectionCheckpoint): Promise<void> {
    this.checkpoints.set(checkpoint.name, { ...checkpoint });
  }

  /** In memory a write is already where it belongs: a batch only has its checkpoints to store. */
  beginBatch(): BatchStore {
    return {
      collection: <T extends Doc>(name: string) => this.collection<T>(name),
      commit: async (checkpoints) => {
        for (const checkpoint of checkpoints) await this.setCheckpoint(checkpoint);
      },
    };
  }

  async drop(projection: string, collections: string[]): Promise<void> {
    for (const name of collections) this.collections.delete(name);
    this.checkpoints.delete(projection);
  }

  async close(): Promise<void> {}
}
