import { matcher } from './matcher';
import { sortDocs } from './sort';
import { cloneDoc } from './clone';
import { FieldIndex, type Places } from './memory-index';
import { SETTLED, type BatchStore, type Doc, type Filter, type FindOptions, type CountOptions, type ProjectionCheckpoint, type ReadCollection, type ReadStore } from './port';

type AnyDoc = Doc & Record<string, unknown>;

/**
 * What a write answers: the work is done when the call returns, so one settled promise (SETTLED) serves every write
 * instead of a new one per call (a rebuild makes hundreds of thousands of writes), and a projection need not await it.
 */
const DONE: Promise<void> = SETTLED;

/** One collection: documents by id, plus equality indexes on declared fields. */
class MemoryCollection<T extends AnyDoc> implements ReadCollection<T> {
  /** The documents themselves by id, no wrapper: a rebuild's writes are one map operation each. */
  private readonly docs = new Map<string, T>();
  private readonly indexes: FieldIndex[] = [];
  /** Each document's places in the filled indexes' buckets, by id; null while no index is filled (memory-index.ts). */
  private places: Places | null = null;

  /**
   * Declares an equality index; it is filled on the first query that can use it and kept up from then on. An index a
   * projection declares for another store's range scans or sorts (a start time, unique per document) is never asked
   * for here, and keeping its buckets up cost a rebuild more than all its other writes.
   */
  addIndex(field: string): void {
    // Buckets hold a top-level field's value: a nested path's (data.patient_id) is found by a scan here, still exactly.
    if (field.includes('.')) return;
    if (this.indexes.some((index) => index.field === field)) return;
    this.indexes.push(new FieldIndex(field, this.indexes.length));
  }

  /** The document's places, made when first needed. */
  private placesOf(places: Places, id: string): number[] {
    let at = places.get(id);
    if (at === undefined) {
      // Sized up front: assigning into an empty array literal would give each document room for 16 places.
      at = new Array<number>(this.indexes.length).fill(0);
      places.set(id, at);
    }
    return at;
  }

  private filled(index: FieldIndex): FieldIndex {
    if (!index.filled) {
      const places = (this.places ??= new Map());
      for (const [id, doc] of this.docs) index.add(doc[index.field], id, this.placesOf(places, id));
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
      const doc = this.docs.get(filter._id);
      return doc ? [doc] : [];
    }
    let best: FieldIndex | null = null;
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
    if (!best) return Array.from(this.docs.values());
    return best.ids(filter[best.field]).map((id) => this.docs.get(id)!);
  }

  async get(id: string): Promise<T | null> {
    return this.getNow(id);
  }

  getNow(id: string): T | null {
    const doc = this.docs.get(id);
    return doc ? cloneDoc(doc) : null;
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

  async count(filter: Filter = {}, options: CountOptions = {}): Promise<number> {
    const candidates = this.candidates(filter);
    if (candidates.length === 0) return 0;
    const query = matcher(filter);
    const limit = options.limit ?? Infinity;
    let n = 0;
    for (const doc of candidates) if (query.test(doc) && (n += 1) >= limit) break;
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
    const places = this.places;
    if (places === null) {
      // No index filled (a rebuild): the document is all there is to keep.
      this.docs.set(doc._id, doc);
      return;
    }
    const previous = this.docs.get(doc._id);
    this.docs.set(doc._id, doc);
    const at = this.placesOf(places, doc._id);
    for (const index of this.indexes) {
      if (!index.filled) continue;
      const value = doc[index.field];
      if (previous === undefined) {
        index.add(value, doc._id, at);
        continue;
      }
      const old = previous[index.field];
      if (old === value) continue;
      index.remove(old, doc._id, at, places);
      index.add(value, doc._id, at);
    }
  }

  private patchNow(id: string, fields: Partial<T>): void {
    const doc: Record<string, unknown> | undefined = this.docs.get(id);
    if (doc === undefined) return;
    const places = this.places;
    for (const key in fields) {
      if (key === '_id' || !Object.hasOwn(fields, key)) continue;
      const value = cloneDoc(fields[key] as unknown);
      const old = doc[key];
      doc[key] = value;
      if (old === value || places === null) continue;
      for (const index of this.indexes) {
        if (index.field !== key || !index.filled) continue;
        const at = places.get(id)!;
        index.remove(old, id, at, places);
        index.add(value, id, at);
      }
    }
  }

  private deleteNow(id: string): void {
    const doc = this.docs.get(id);
    if (doc === undefined) return;
    const places = this.places;
    if (places !== null) {
      const at = places.get(id);
      if (at !== undefined) for (const index of this.indexes) if (index.filled) index.remove(doc[index.field], id, at, places);
      places.delete(id);
    }
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
