/** A stored document with its place in each index's bucket (`at[index.slot]`), so removal needs no search. */
export interface Entry<T> {
  doc: T;
  at: number[];
}

/**
 * An equality index of the in-memory store: field value → the entries holding it, in an array. Adding appends and
 * removing moves the bucket's last entry into the hole: no hashing of ids, which in hash sets of thousands of ids
 * (a status shared by most documents) cost more than the rest of a rebuild's writes together.
 */
export class FieldIndex<T extends Record<string, unknown>> {
  private readonly buckets = new Map<unknown, Array<Entry<T>>>();
  /** Whether it holds every document of its collection (see MemoryCollection.addIndex). */
  filled = false;

  constructor(
    readonly field: string,
    /** This index's position in the entries' `at`. */
    readonly slot: number,
  ) {}

  add(value: unknown, entry: Entry<T>): void {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) {
      entry.at[this.slot] = 0;
      this.buckets.set(value, [entry]);
    } else {
      entry.at[this.slot] = bucket.length;
      bucket.push(entry);
    }
  }

  remove(value: unknown, entry: Entry<T>): void {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return;
    const last = bucket.pop()!;
    if (bucket.length === 0) this.buckets.delete(value);
    else if (last !== entry) {
      const at = entry.at[this.slot]!;
      bucket[at] = last;
      last.at[this.slot] = at;
    }
  }

  /** How many documents hold the value. */
  size(value: unknown): number {
    return this.buckets.get(value)?.length ?? 0;
  }

  entries(value: unknown): ReadonlyArray<Entry<T>> {
    return this.buckets.get(value) ?? [];
  }
}
