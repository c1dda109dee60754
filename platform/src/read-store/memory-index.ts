/**
 * Where a document's id sits in each filled index's bucket (`at[index.slot]`), so removal needs no search. Kept by id
 * beside the documents, only once an index is filled: a rebuild queries nothing, and a wrapper object per document (the
 * store's map held one to carry these places) was a tenth of the objects a rebuild keeps, each copied by the collector.
 */
export type Places = Map<string, number[]>;

/**
 * An equality index of the in-memory store: field value → the ids of the documents holding it, in an array. Adding
 * appends and removing moves the bucket's last id into the hole: no hashing of ids, which in hash sets of thousands of
 * ids (a status shared by most documents) cost more than the rest of a rebuild's writes together.
 */
export class FieldIndex {
  private readonly buckets = new Map<unknown, string[]>();
  /** Whether it holds every document of its collection (see MemoryCollection.addIndex). */
  filled = false;

  constructor(
    readonly field: string,
    /** This index's position in the documents' places. */
    readonly slot: number,
  ) {}

  /** Adds the id under the value; `at` is the document's places. */
  add(value: unknown, id: string, at: number[]): void {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) {
      at[this.slot] = 0;
      this.buckets.set(value, [id]);
    } else {
      at[this.slot] = bucket.length;
      bucket.push(id);
    }
  }

  /** Removes the id from under the value; `at` is its places, `places` everyone's (the id moved into its hole). */
  remove(value: unknown, id: string, at: number[], places: Places): void {
    const bucket = this.buckets.get(value);
    if (bucket === undefined) return;
    const last = bucket.pop()!;
    if (bucket.length === 0) this.buckets.delete(value);
    else if (last !== id) {
      const hole = at[this.slot]!;
      bucket[hole] = last;
      places.get(last)![this.slot] = hole;
    }
  }

  /** How many documents hold the value. */
  size(value: unknown): number {
    return this.buckets.get(value)?.length ?? 0;
  }

  ids(value: unknown): readonly string[] {
    return this.buckets.get(value) ?? [];
  }
}
