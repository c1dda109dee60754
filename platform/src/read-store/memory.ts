import { matcher } from './matcher';
import { sortDocs } from './sort';
import { cloneDoc } from './clone';
import { FieldIndex, type Entry } from './memory-index';
import { SETTLED, type BatchStore, type Doc, type Filter, type FindOptions, type ProjectionCheckpoint, type ReadCollection, type ReadStore } from './port';

type AnyDoc = Doc & Record<string, unknown>;

/**
 * What a write answers: the work is done when the call returns, so one settled promise (SETTLED) serves every write
 * instead of a new one per call (a rebuild makes hundreds of thousands of writes), and a projection need not await it.
 */
const DONE: Promise<void> = SETTLED;

/** One collection: documents by id, plus equality indexes on declared fields. */
class MemoryCollection<T extends AnyDoc> implements ReadCollection<T> {
  private readonly docs = new Map<string, Entry<T>>();
  private readonly indexes: Array<FieldIndex<T>> = [];

  /**
   * Declares an equality index; it is filled on the first query that can use it and kept up from then on. An index a
   * projection declares for another store's range scans or sorts (a start time, unique per document) is never asked
   * for here, and keeping its buckets up cost a rebuild more than all its other writes.
   */
  addIndex(field: string): void {
    if (this.indexes.some((index) => index.field === field)) return;
    this.indexes.push(new FieldIndex<T>(field, this.indexes.length, () => this.indexes.length));
  }

  private filled(index: FieldIndex<T>): FieldIndex<T> {
    if (!index.filled) {
      for (const entry of this.docs.values()) index.add(entry.doc[index.field], entry);
      index.filled = true;
    }
    return index;
  }

  /**
   * Narrows the candidates with an index when the filter has a plain equality on an indexed field; of several such
   * fields, the one with the fewest documents for its value.
   */
  private candidates(filter: Filter): T[] {
    if (typeof filter._id === 'string') {
      const entry = this.docs.get(filter._id);
      return entry ? [entry.doc] : [];
    }
    let best: FieldIndex<T> | null = null;
    let bestSize = 0;
    for (const index of this.indexes) {
      const value = filter[index.field];
      if (value !== undefined && (value === null || typeof value !== 'object')) {
        const size = this.filled(index).size(value);
        if (size === 0) return [];
        if (!best || size < bestSize) {
          best = index;
          bestSize = size;
        }
      }
    }
    const entries = best ? best.entries(filter[best.field]) : this.docs.values();
    return Array.from(entries, (entry) => entry.doc);
  }

  async get(id: string): Promise<T | null> {
    const entry = this.docs.get(id);
    return entry ? cloneDoc(entry.doc) : null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    const candidates = this.candidates(filter);
    if (candidates.length === 0) return [];
    const query = matcher(filter);
    let found = candidates.filter((doc) => query.test(doc));
    if (options.sort) found = sortDocs(found, options.sort);
    const start = options.skip ?? 0;
    const end = options.limit === undefined ? undefined : start + options.limit;
    return found.slice(start, end).map((doc) => cloneDoc(doc));
  }

  async count(filter: Filter = {}): Promise<number> {
    const candidates = this.candidates(filter);
    if (candidates.length === 0) return 0;
    const query = matcher(filter);
    let n = 0;
    for (const doc of candidates) if (query.test(doc)) n += 1;
    return n;
  }

  /**
   * The store keeps the document it is given and patches it in place later: a caller hands over a fresh object and
   * does not touch it afterwards. Reads return copies, so no caller ever holds a stored document.
   */
  put(doc: T): Promise<void> {
    try {
      this.putNow(doc);
      return DONE;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  patch(id: string, fields: Partial<T>): Promise<void> {
    try {
      this.patchNow(id, fields);
      return DONE;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  delete(id: string): Promise<void> {
    this.deleteNow(id);
    return DONE;
  }

  private putNow(doc: T): void {
    const entry = this.docs.get(doc._id);
    if (!entry) {
      const added: Entry<T> = { doc, at: null };
      this.docs.set(doc._id, added);
      for (const index of this.indexes) if (index.filled) index.add(doc[index.field], added);
      return;
    }
    const previous = entry.doc;
    entry.doc = doc;
    for (const index of this.indexes) {
      if (!index.filled) continue;
      const old = previous[index.field];
      const value = doc[index.field];
      if (old === value) continue;
      index.remove(old, entry);
      index.add(value, entry);
    }
  }

  private patchNow(id: string, fields: Partial<T>): void {
    const entry = this.docs.get(id);
    if (!entry) return;
    const doc: Record<string, unknown> = entry.doc;
    for (const key in fields) {
      if (key === '_id' || !Object.hasOwn(fields, key)) continue;
      const value = cloneDoc(fields[key] as unknown);
      const old = doc[key];
      doc[key] = value;
      if (old === value) continue;
      for (const index of this.indexes) {
        if (index.field !== key || !index.filled) continue;
        index.remove(old, entry);
        index.add(value, entry);
      }
    }
  }

  private deleteNow(id: string): void {
    const entry = this.docs.get(id);
    if (!entry) return;
    for (const index of this.indexes) if (index.filled) index.remove(entry.doc[index.field], entry);
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
