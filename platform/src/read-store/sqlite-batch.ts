import { Query } from 'mingo';
import { sortDocs } from './sort';
import type { SqliteDocuments, JsonWrite } from './sqlite-documents';
import type { FieldKind } from './sqlite-filter';
import type { BatchStore, Doc, Filter, FindOptions, ProjectionCheckpoint, ReadCollection } from './port';

type AnyDoc = Doc & Record<string, unknown>;

/**
 * A projection batch over SQLite: writes wait in an overlay (documents as JSON text, so every read of them parses a
 * fresh copy), reads see them, and `commit` stores them with the new checkpoints in one transaction. Nothing of a
 * batch is visible to other readers, or on disk, before its commit; a failed commit leaves nothing behind.
 */
export class SqliteBatch implements BatchStore {
  /** collection → id → JSON of the document as the batch left it (null: deleted). */
  private readonly overlay = new Map<string, Map<string, string | null>>();
  private kinds: Array<[string, string, FieldKind]> = [];

  constructor(private readonly docs: SqliteDocuments) {}

  private layer(collection: string): Map<string, string | null> {
    let layer = this.overlay.get(collection);
    if (!layer) this.overlay.set(collection, (layer = new Map()));
    return layer;
  }

  private stage(collection: string, doc: AnyDoc): void {
    for (const [path, kind] of this.docs.observe(collection, doc)) this.kinds.push([collection, path, kind]);
    this.layer(collection).set(doc._id, JSON.stringify(doc));
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    const layer = this.layer(name);
    const get = (id: string): AnyDoc | null => {
      const json = layer.has(id) ? layer.get(id)! : this.docs.getJson(name, id);
      return json === null ? null : (JSON.parse(json) as AnyDoc);
    };
    const find = (filter: Filter = {}, options: FindOptions = {}): AnyDoc[] => {
      if (layer.size === 0) return this.docs.find(name, filter, options);
      const query = new Query(filter);
      const merged = this.docs.find(name, filter, {}).filter((d) => !layer.has(d._id));
      for (const json of layer.values()) {
        if (json === null) continue;
        const doc = JSON.parse(json) as AnyDoc;
        if (query.test(doc)) merged.push(doc);
      }
      const sorted = options.sort ? sortDocs(merged, options.sort) : merged;
      const start = options.skip ?? 0;
      return sorted.slice(start, options.limit === undefined ? undefined : start + options.limit);
    };
    const collection: ReadCollection<AnyDoc> = {
      get: async (id) => get(id),
      find: async (filter, options) => find(filter, options),
      count: async (filter = {}) => (layer.size === 0 ? this.docs.count(name, filter) : find(filter).length),
      put: async (doc) => this.stage(name, doc),
      patch: async (id, fields) => {
        const current = get(id);
        if (current) this.stage(name, { ...current, ...fields, _id: id });
      },
      delete: async (id) => void layer.set(id, null),
    };
    return collection as unknown as ReadCollection<T>;
  }

  async commit(checkpoints: ProjectionCheckpoint[]): Promise<void> {
    const writes: JsonWrite[] = [];
    for (const [collection, layer] of this.overlay) for (const [id, json] of layer) writes.push({ collection, id, json });
    this.docs.transaction(() => this.docs.write(writes, this.kinds, checkpoints));
    // Handles a projection still holds keep their (now empty) layer.
    for (const layer of this.overlay.values()) layer.clear();
    this.kinds = [];
  }
}
