import { MAX_OFFSET, MAX_PAGE } from '@telemed/contracts';

// The list query's schema is the route table's (contracts/src/admin-list.ts); the read side pages with it.
export { MAX_OFFSET, MAX_PAGE, idsFilter, listQuerySchema, type ListQuery } from '@telemed/contracts';

/** The deepest a list can be paged: the first LIST_DEPTH records of its order. */
export const LIST_DEPTH = MAX_OFFSET + MAX_PAGE;

/**
 * A list's total is counted up to one past LIST_DEPTH and no further: a count of every match grew with the whole
 * history (every appointment of a status, every account), and pages beyond the depth cannot be asked for anyway.
 */
export const COUNTED = { limit: LIST_DEPTH + 1 };

/**
 * `Content-Range: <resource> <first>-<last>/<total>` (`*` when the page is empty), which the provider reads its total
 * from. A total counted past LIST_DEPTH (COUNTED) is given as LIST_DEPTH, the pages there are, and said to be a lower
 * bound with `X-Total-Is-Lower-Bound: true` (the console says "more than").
 */
export function contentRange(resource: string, start: number, count: number, total: number): Record<string, string> {
  const shown = Math.min(total, LIST_DEPTH);
  return {
    'Content-Range': count > 0 ? `${resource} ${start}-${start + count - 1}/${shown}` : `${resource} */${shown}`,
    ...(total > LIST_DEPTH && { 'X-Total-Is-Lower-Bound': 'true' }),
  };
}

/** Sorts in memory (small sets only: an institution's staff, the caller's institutions) by a field, then id. */
export function byField<T extends Record<string, unknown>>(field: string, order: 1 | -1) {
  return (a: T, b: T) => {
    const x = a[field];
    const y = b[field];
    const cmp = x === y ? 0 : x === null || x === undefined ? -1 : y === null || y === undefined ? 1 : x < y ? -1 : 1;
    return cmp !== 0 ? cmp * order : String(a.id).localeCompare(String(b.id)) * order;
  };
}

/**
 * Orders documents by these keys as the read store does (missing values first, each key in its direction), for pages
 * merged from finds in that order or members read whole.
 */
export function byKeys<T extends object>(sort: Record<string, 1 | -1>) {
  const keys = Object.entries(sort);
  return (a: T, b: T) => {
    for (const [field, direction] of keys) {
      const x = (a as Record<string, unknown>)[field] as string | number | boolean | null | undefined;
      const y = (b as Record<string, unknown>)[field] as string | number | boolean | null | undefined;
      if (x === y) continue;
      if (x === undefined || x === null) return -direction;
      if (y === undefined || y === null) return direction;
      return (x < y ? -1 : 1) * direction;
    }
    return 0;
  };
}

/** A page of an in-memory list, with its Content-Range. */
export function pageOf<T>(resource: string, all: T[], q: { start: number; end: number }) {
  const page = all.slice(q.start, q.end + 1);
  return { body: page, headers: contentRange(resource, q.start, page.length, all.length) };
}

