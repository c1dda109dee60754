import type { FieldKind, KindLookup } from './sqlite-filter';

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

/**
 * The JSON types each dotted path of a collection's documents has ever held (paths go into objects, not arrays).
 * Only ever grows until the collection is dropped, so it is a safe over-approximation of what is stored.
 */
export class FieldKinds {
  private readonly byCollection = new Map<string, Map<string, Set<FieldKind>>>();

  private paths(collection: string): Map<string, Set<FieldKind>> {
    let paths = this.byCollection.get(collection);
    if (!paths) this.byCollection.set(collection, (paths = new Map()));
    return paths;
  }

  /** Adds a known (path, kind); true when it was new. */
  add(collection: string, path: string, kind: FieldKind): boolean {
    const paths = this.paths(collection);
    let kinds = paths.get(path);
    if (!kinds) paths.set(path, (kinds = new Set()));
    if (kinds.has(kind)) return false;
    kinds.add(kind);
    return true;
  }

  /** Records the kinds of a document's (or a patch's) fields; returns the pairs not seen before. */
  observe(collection: string, fields: object): Array<[string, FieldKind]> {
    const fresh: Array<[string, FieldKind]> = [];
    const walk = (value: object, prefix: string) => {
      for (const [key, v] of Object.entries(value)) {
        if (!prefix && key === '_id') continue;
        const kind = kindOf(v);
        if (kind === null) continue;
        const path = prefix ? `${prefix}.${key}` : key;
        if (this.add(collection, path, kind)) fresh.push([path, kind]);
        if (kind === 'object' && !(v instanceof Date)) walk(v as object, path);
      }
    };
    walk(fields, '');
    return fresh;
  }

  lookup(collection: string): KindLookup {
    const paths = this.byCollection.get(collection);
    return (path) => paths?.get(path);
  }

  forget(collection: string): void {
    this.byCollection.delete(collection);
  }

  clear(): void {
    this.byCollection.clear();
  }
}
