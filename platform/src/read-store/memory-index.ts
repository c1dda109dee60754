/**
 * A stored document with its place in each filled index's bucket (`at[index.slot]`), so removal needs no search; null
 * while no index holds it (a rebuild queries nothing, and an array per document was a tenth of its writes' cost).
 */
export interface Entry<T> {
  doc: T;
  at: number[] | null;
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
    /** How many indexes the collection has: the size of an entry's `at`. */
    private readonly slots: () => number,
  ) {}

  add(value: unknown, entry: Entry<T>): void {
    // Sized up front: assigning into an empty array literal would give each entry room for 16 positions.
    const at = entry.at ?? (entry.at = new Array<number>(this.slots()).fill(0));
    const bucket = this.buckets.get(value);
    if (bucket === undefined) {
      at[this.slot] = 0;
      this.buckets.set(value, [entry]);
    } else {
      at[this.slot] = bucket.length;
      bucket.push(entry);
    }
  }

  remove(value: unknown, entry: Entry<T>): void {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return;
    const last = bucket.pop()!;
    if (bucket.length === 0) this.buckets.delete(value);
    else if (last !== entry) {
      const at = entry.at![this.slot]!;
      bucket[at] = last;
      last.at![this.slot] = at;
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
