/**
 * A deep copy of a read-model document: plain objects and arrays are copied member by member, dates become new dates,
 * anything else (rare in JSON documents) goes through structuredClone. Several times faster than structuredClone on
 * the small flat documents projections write, which is what every read of the in-memory stores pays.
 */
export function cloneDoc<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) copy[i] = cloneDoc(value[i] as unknown);
    return copy as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    return (value instanceof Date ? new Date(value.getTime()) : structuredClone(value)) as T;
  }
  // A spread copies a flat document in one step (V8's fast path); only nested objects and arrays need a copy of their own.
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in copy) {
    const member = copy[key];
    if (typeof member === 'object' && member !== null) copy[key] = cloneDoc(member);
  }
  return copy as T;
}

/** A patch merged over a document: the document's own fields are shared, the patch's values are copied. */
export function patched<T extends object>(current: T, fields: object, id: string): T {
  const next = { ...current } as Record<string, unknown>;
  for (const key of Object.keys(fields)) next[key] = cloneDoc((fields as Record<string, unknown>)[key]);
  next._id = id;
  return next as T;
}
