import type { Doc, Filter, ReadCollection } from '@telemed/platform';

/** Documents read, or handled, between two turns of the event loop by a handler that walks many (an erasure). */
const PAGE = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `each` on every document that matches `filter`, for a handler that walks all of one person's documents (an
 * erasure of someone with years of appointments, posts or records): the matches are read first, in one query through
 * the filter's index (no order asked, so none is sorted), then handled a page at a time with the event loop free
 * between pages, so one event's work holds no other request up for long. Reading before writing matters too: a
 * batch's read of a collection it has written merges its own writes into the answer, a cost that grows with them.
 */
export async function forEachMatching<T extends Doc>(collection: ReadCollection<T>, filter: Filter, each: (doc: T) => Promise<void>): Promise<void> {
  await inTurns(await collection.find(filter), each);
}

/** Runs `each` on the items in order, the event loop free after every `every` of them. */
export async function inTurns<T>(items: readonly T[], each: (item: T) => Promise<void>, every = PAGE): Promise<void> {
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0 && i % every === 0) await nextTurn();
    await each(items[i]!);
  }
}

/**
 * Every document whose `field` is one of `values`, read a page of values at a time (one `$in` query each), with the
 * event loop free between pages. Read them all before writing any of them (see forEachMatching).
 */
export async function allWithAny<T extends Doc>(collection: ReadCollection<T>, field: string, values: readonly string[], perQuery = 100): Promise<T[]> {
  const found: T[] = [];
  for (let start = 0; start < values.length; start += perQuery) {
    if (start > 0) await nextTurn();
    found.push(...(await collection.find({ [field]: { $in: values.slice(start, start + perQuery) } })));
  }
  return found;
}
