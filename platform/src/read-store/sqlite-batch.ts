import { matcher } from './matcher';
import { sortDocs } from './sort';
import { cloneDoc } from './clone';
import type { SqliteDocuments, JsonWrite } from './sqlite-documents';
import type { FieldKind } from './sqlite-filter';
import { SETTLED, type BatchStore, type Doc, type Filter, type FindOptions, type CountOptions, type ProjectionCheckpoint, type ReadCollection } from './port';

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

  constructor(
    private readonly docs: SqliteDocuments,
    private readonly bulk: boolean,
  ) {}

  private layer(collection: string): Map<string, AnyDoc | null> {
    let layer = this.overlay.get(collection);
    if (!layer) this.overlay.set(collection, (layer = new Map()));
    return layer;
  }

  /** One handle per collection: projections ask for theirs on every event. */
  private readonly handles = new Map<string, BatchCollection>();

  collection<T extends Doc>(name: string): ReadCollection<T> {
    let handle = this.handles.get(name);
    if (!handle) this.handles.set(name, (handle = new BatchCollection(this.docs, name, this.layer(name))));
    return handle as unknown as ReadCollection<T>;
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
    await this.docs.commit(writes, kinds, checkpoints, this.bulk);
    // Handles a projection still holds keep their (now empty) layer.
    for (const layer of this.overlay.values()) layer.clear();
  }
}

/** A collection as a batch sees it: its own writes (the layer) over what is stored. */
class BatchCollection implements ReadCollection<AnyDoc> {
  constructor(
    private readonly docs: SqliteDocuments,
    private readonly name: string,
    private readonly layer: Map<string, AnyDoc | null>,
  ) {}

  private stored(id: string): AnyDoc | null {
    const json = this.docs.getJson(this.name, id);
    return json === null ? null : (JSON.parse(json) as AnyDoc);
  }

  private findNow(filter: Filter = {}, options: FindOptions = {}): AnyDoc[] {
    const layer = this.layer;
    if (layer.size === 0) return this.docs.find(this.name, filter, options);
    const query = matcher(filter);
    const merged = this.docs.find(this.name, filter, {}).filter((d) => !layer.has(d._id));
    for (const doc of layer.values()) if (doc !== null && query.test(doc)) merged.push(cloneDoc(doc));
    const sorted = options.sort ? sortDocs(merged, options.sort) : merged;
    const start = options.skip ?? 0;
    return sorted.slice(start, options.limit === undefined ? undefined : start + options.limit);
  }

  async get(id: string): Promise<AnyDoc | null> {
    return this.getNow(id);
  }

  /** What get answers, without a promise (the layer, else the file: both at hand), for withDocument (port.ts). */
  getNow(id: string): AnyDoc | null {
    const own = this.layer.get(id);
    return own === undefined ? this.stored(id) : own && cloneDoc(own);
  }

  async find(filter?: Filter, options?: FindOptions): Promise<AnyDoc[]> {
    return this.findNow(filter, options);
  }

  async count(filter: Filter = {}, options: CountOptions = {}): Promise<number> {
    return this.layer.size === 0 ? this.docs.count(this.name, filter, options.limit) : this.findNow(filter, { limit: options.limit }).length;
  }

  // Writes land in the layer as they are called: they answer SETTLED (port.ts), which a projection need not await.
  put(doc: AnyDoc): Promise<void> {
    this.layer.set(doc._id, doc);
    return SETTLED;
  }

  patch(id: string, fields: Partial<AnyDoc>): Promise<void> {
    try {
      this.patchNow(id, fields);
      return SETTLED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private patchNow(id: string, fields: Partial<AnyDoc>): void {
    let doc = this.layer.get(id);
    if (doc === undefined) {
      doc = this.stored(id);
      if (doc === null) return;
      this.layer.set(id, doc);
    }
    if (doc === null) return;
    for (const key of Object.keys(fields)) if (key !== '_id') doc[key] = cloneDoc((fields as Record<string, unknown>)[key]);
  }

  delete(id: string): Promise<void> {
    this.layer.set(id, null);
    return SETTLED;
  }
}
