import { z } from '@telemed/contracts';

/** The most records one page may ask for: `range=[0,99]`. */
export const MAX_PAGE = 100;

/**
 * The furthest a list may be paged by offset: a page starts at record MAX_OFFSET at the latest, so the first 10 000
 * records can be read (the console's export reads that many, a page of MAX_PAGE at a time). A page at an offset costs
 * the records before it (an institution's list merges the first `end + 1` of each doctor's membership), so an offset
 * without a bound (it went up to 1 000 000) was a request that grew with the whole history; further back, a filter
 * narrows the list (dates, status, doctor).
 */
export const MAX_OFFSET = 10_000 - MAX_PAGE;

/** A query value that is JSON (ra-data-simple-rest's `sort`, `range`, `filter`), parsed and then validated by `schema`. */
function jsonValue<S extends z.ZodType>(schema: S, example: string) {
  return z
    .string()
    .max(4000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `Not valid JSON (expected e.g. ${example})` });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

export type ListQuery<F, K extends string> = {
  sort: { field: K; order: 1 | -1 };
  /** Zero-based, inclusive, as in `range=[0,24]`. */
  start: number;
  end: number;
  filter: F;
};

/**
 * ra-data-simple-rest's list query: `sort=["field","ASC"]`, `range=[0,24]`, `filter={...}`; each optional, each
 * validated (a field that cannot be sorted on, a range backwards, longer than MAX_PAGE or starting after MAX_OFFSET, a filter key the resource
 * does not know are 422 with where and why).
 */
export function listQuerySchema<F extends z.ZodObject, K extends string>(filter: F, sortable: readonly [K, ...K[]], defaultSort: K) {
  const range = z
    .tuple([z.number().int().min(0), z.number().int().min(0)])
    .refine(([a, b]) => b >= a, 'The range ends before it starts')
    .refine(([a, b]) => b - a < MAX_PAGE, `At most ${MAX_PAGE} records a page`)
    .refine(([a]) => a <= MAX_OFFSET, `Pages start at record ${MAX_OFFSET} at the latest: narrow the list with a filter (dates, status, doctor) to see the records after the first ${MAX_OFFSET + MAX_PAGE}`);
  return z
    .object({
      sort: jsonValue(z.tuple([z.enum(sortable), z.enum(['ASC', 'DESC'])]), `["${defaultSort}","ASC"]`).optional(),
      range: jsonValue(range, '[0,24]').optional(),
      filter: jsonValue(filter.strict(), '{}').optional(),
    })
    .transform(
      (q): ListQuery<z.output<F>, K> => ({
        sort: { field: q.sort?.[0] ?? defaultSort, order: q.sort?.[1] === 'DESC' ? -1 : 1 },
        start: q.range?.[0] ?? 0,
        end: q.range?.[1] ?? 24,
        filter: (q.filter ?? {}) as z.output<F>,
      }),
    );
}

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

/** An id filter: one id or, from getMany, a list of them. */
export const idsFilter = z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(MAX_PAGE)]).transform((v) => (Array.isArray(v) ? v : [v]));

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

