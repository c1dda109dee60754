import { Query } from 'mingo';
import { sortDocs } from './sort';
import { cloneDoc } from './clone';
import type { SqliteDocuments, JsonWrite } from './sqlite-documents';
import type { FieldKind } from './sqlite-filter';
import type { BatchStore, Doc, Filter, FindOptions, ProjectionCheckpoint, ReadCollection } from './port';

type AnyDoc = Doc & Record<string, unknown>;

/**
 * A projection batch over SQLite: writes wait in an overlay as documents the batch owns (patched in place, handed
 * out only as copies), reads see them, and `commit` serializes each once and stores them with the new checkpoints
 * in one transaction. Nothing of a batch is visible to other readers, or on disk, before its commit; a failed commit
 * leaves nothing behind.
 */
export class SqliteBatch implements BatchStore {
  /** collection → id → the document as the batch left it (null: deleted). */
  private readonly overlay = new Map<string, Map<string, AnyDoc | null>>();

  constructor(private readonly docs: SqliteDocuments) {}

  private layer(collection: string): Map<string, AnyDoc | null> {
    let layer = this.overlay.get(collection);
    if (!layer) this.overlay.set(collection, (layer = new Map()));
    return layer;
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    const layer = this.layer(name);
    const stored = (id: string): AnyDoc | null => {
      const json = this.docs.getJson(name, id);
      return json === null ? null : (JSON.parse(json) as AnyDoc);
    };
    const find = (filter: Filter = {}, options: FindOptions = {}): AnyDoc[] => {
      if (layer.size === 0) return this.docs.find(name, filter, options);
      const query = new Query(filter);
      const merged = this.docs.find(name, filter, {}).filter((d) => !layer.has(d._id));
      for (const doc of layer.values()) if (doc !== null && query.test(doc)) merged.push(cloneDoc(doc));
      const sorted = options.sort ? sortDocs(merged, options.sort) : merged;
      const start = options.skip ?? 0;
      return sorted.slice(start, options.limit === undefined ? undefined : start + options.limit);
    };
    const collection: ReadCollection<AnyDoc> = {
      get: async (id) => {
        const own = layer.get(id);
        return own === undefined ? stored(id) : own && cloneDoc(own);
      },
      find: async (filter, options) => find(filter, options),
      count: async (filter = {}) => (layer.size === 0 ? this.docs.count(name, filter) : find(filter).length),
      put: async (doc) => void layer.set(doc._id, doc),
      patch: async (id, fields) => {
        let doc = layer.get(id);
        if (doc === undefined) {
          doc = stored(id);
          if (doc === null) return;
          layer.set(id, doc);
        }
        if (doc === null) return;
        for (const key of Object.keys(fields)) if (key !== '_id') doc[key] = cloneDoc((fields as Record<string, unknown>)[key]);
      },
      delete: async (id) => void layer.set(id, null),
    };
    return collection as unknown as ReadCollection<T>;
  }

  async commit(checkpoints: ProjectionCheckpoint[]): Promise<void> {
    const writes: JsonWrite[] = [];
    const kinds: Array<[string, string, FieldKind]> = [];
    for (const [collection, layer] of this.overlay) {
      for (const [id, doc] of layer) {
        if (doc !== null) for (const [path, kind] of this.docs.observe(collection, doc)) kinds.push([collection, path, kind]);
        writes.push({ collection, id, json: doc === null ? null : JSON.stringify(doc) });
      }
    }
    this.docs.transaction(() => this.docs.write(writes, kinds, checkpoints));
    // Handles a projection still holds keep their (now empty) layer.
    for (const layer of this.overlay.values()) layer.clear();
  }
}
