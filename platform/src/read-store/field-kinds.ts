import type { FieldKind, KindLookup } from './sqlite-filter';

const BIT: Record<FieldKind, number> = { null: 1, array: 2, string: 4, number: 8, boolean: 16, object: 32 };

function kindOf(value: unknown): FieldKind | null {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (value instanceof Date) return 'string'; // JSON.stringify writes dates as ISO strings
  return 'object';
}

/** A field of a collection's documents: the kinds it has held as bits, and its own fields when it held objects. */
interface PathNode {
  kinds: number;
  children: Map<string, PathNode> | null;
}

/**
 * The JSON types each dotted path of a collection's documents has ever held (paths go into objects, not arrays).
 * Only ever grows until the collection is dropped, so it is a safe over-approximation of what is stored. Every write
 * of a rebuild is observed, so the walk compares bits in a tree of fields and builds a dotted path only for a kind
 * not seen before.
 */
export class FieldKinds {
  private readonly byCollection = new Map<string, { root: PathNode; flat: Map<string, Set<FieldKind>> }>();

  private of(collection: string) {
    let entry = this.byCollection.get(collection);
    if (!entry) this.byCollection.set(collection, (entry = { root: { kinds: 0, children: null }, flat: new Map() }));
    return entry;
  }

  /** Adds a known (path, kind); true when it was new. */
  add(collection: string, path: string, kind: FieldKind): boolean {
    const entry = this.of(collection);
    let node = entry.root;
    for (const key of path.split('.')) {
      if (!node.children) node.children = new Map();
      let child = node.children.get(key);
      if (!child) node.children.set(key, (child = { kinds: 0, children: null }));
      node = child;
    }
    return this.mark(entry.flat, node, path, kind);
  }

  private mark(flat: Map<string, Set<FieldKind>>, node: PathNode, path: string, kind: FieldKind): boolean {
    if (node.kinds & BIT[kind]) return false;
    node.kinds |= BIT[kind];
    let kinds = flat.get(path);
    if (!kinds) flat.set(path, (kinds = new Set()));
    kinds.add(kind);
    return true;
  }

  /** Records the kinds of a document's (or a patch's) fields; returns the pairs not seen before. */
  observe(collection: string, fields: object): Array<[string, FieldKind]> {
    const entry = this.of(collection);
    const fresh: Array<[string, FieldKind]> = [];
    this.walk(entry.flat, fields as Record<string, unknown>, entry.root, '', fresh);
    return fresh;
  }

  // A method rather than a closure made per call: observe runs for every document a rebuild writes.
  private walk(flat: Map<string, Set<FieldKind>>, value: Record<string, unknown>, node: PathNode, prefix: string, fresh: Array<[string, FieldKind]>): void {
    for (const key in value) {
      if (!Object.hasOwn(value, key) || (prefix === '' && key === '_id')) continue;
      const v = value[key];
      const kind = kindOf(v);
      if (kind === null) continue;
      if (!node.children) node.children = new Map();
      let child = node.children.get(key);
      if (!child) node.children.set(key, (child = { kinds: 0, children: null }));
      if (!(child.kinds & BIT[kind])) {
        const path = prefix ? `${prefix}.${key}` : key;
        this.mark(flat, child, path, kind);
        fresh.push([path, kind]);
      }
      if (kind === 'object' && !(v instanceof Date)) this.walk(flat, v as Record<string, unknown>, child, prefix ? `${prefix}.${key}` : key, fresh);
    }
  }

  lookup(collection: string): KindLookup {
    const flat = this.byCollection.get(collection)?.flat;
    return (path) => flat?.get(path);
  }

  forget(collection: string): void {
    this.byCollection.delete(collection);
  }

  clear(): void {
    this.byCollection.clear();
  }
}
