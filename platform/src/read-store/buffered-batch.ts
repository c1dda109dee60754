import { matcher } from './matcher';
import { sortDocs } from './sort';
import { cloneDoc } from './clone';
import type { BatchStore, CollectionSource, Doc, Filter, FindOptions, ProjectionCheckpoint, ReadCollection, WriteOp } from './port';

type AnyDoc = Doc & Record<string, unknown>;


/**
 * Buffers a batch's writes over a remote store: reads see the batch's own writes (an overlay by id), and commit
 * hands every write and the checkpoints to the store at once. Patches become whole-document writes.
 */
export class BufferedBatch implements BatchStore {
  /** collection → id → the document as the batch left it (null: deleted). */
  private readonly overlay = new Map<string, Map<string, AnyDoc | null>>();

  constructor(
    private readonly backend: CollectionSource,
    private readonly store: (ops: WriteOp[], checkpoints: ProjectionCheckpoint[]) => Promise<void>,
  ) {}

  private layer(collection: string): Map<string, AnyDoc | null> {
    let layer = this.overlay.get(collection);
    if (!layer) this.overlay.set(collection, (layer = new Map()));
    return layer;
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    const backend = this.backend.collection<AnyDoc>(name);
    const layer = this.layer(name);
    const get = async (id: string): Promise<AnyDoc | null> => (layer.has(id) ? cloneDoc(layer.get(id)!) : backend.get(id));
    const find = async (filter: Filter = {}, options: FindOptions = {}): Promise<AnyDoc[]> => {
      const query = matcher(filter);
      const merged = (await backend.find(filter)).filter((d) => !layer.has(d._id));
      for (const doc of layer.values()) if (doc && query.test(doc)) merged.push(cloneDoc(doc));
      const sorted = options.sort ? sortDocs(merged, options.sort) : merged;
      const start = options.skip ?? 0;
      return sorted.slice(start, options.limit === undefined ? undefined : start + options.limit);
    };
    const collection: ReadCollection<AnyDoc> = {
      get,
      find,
      count: async (filter, options) => (await find(filter, { limit: options?.limit })).length,
      put: async (doc) => void layer.set(doc._id, cloneDoc(doc)),
      patch: async (id, fields) => {
        const current = await get(id);
        if (current) layer.set(id, { ...current, ...cloneDoc(fields), _id: id });
      },
      delete: async (id) => void layer.set(id, null),
    };
    return collection as unknown as ReadCollection<T>;
  }

  async commit(checkpoints: ProjectionCheckpoint[]): Promise<void> {
    const ops: WriteOp[] = [];
    for (const [collection, layer] of this.overlay) {
      for (const [id, doc] of layer) ops.push(doc ? { collection, kind: 'put', doc } : { collection, kind: 'delete', id });
    }
    await this.store(ops, checkpoints);
    this.overlay.clear();
  }
}
