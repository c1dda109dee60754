import { z } from './zod';

/* The console's list queries in ra-data-simple-rest's conventions (DESIGN.md §7): pure zod, shared by the route table and the read side. */

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

/** An id filter: one id or, from getMany, a list of them. */
export const idsFilter = z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(MAX_PAGE)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** The institutions list: all for platform admins, otherwise the caller's. */
export const adminInstitutionFilter = z.object({ id: idsFilter.optional(), is_active: z.boolean().optional(), q: z.string().max(100).optional() });
export const ADMIN_INSTITUTION_SORT = ['name', 'slug', 'created_at', 'id'] as const;

/** The staff and doctors lists (an institution's members, each id `<institution_id>~<user_id>`). */
export const adminMemberFilter = z.object({
  id: idsFilter.optional(),
  institution_id: z.string().min(1).max(64).optional(),
  role: z.string().max(20).optional(),
  is_active: z.boolean().optional(),
  q: z.string().max(100).optional(),
});
export const ADMIN_MEMBER_SORT = ['name', 'role', 'email', 'added_at', 'specialty', 'id'] as const;

const isoInstant = z.iso.datetime({ offset: true });

/** The appointments list. */
export const adminAppointmentFilter = z.object({
  id: idsFilter.optional(),
  status: z.enum(['requested', 'confirmed', 'rejected', 'cancelled', 'completed']).optional(),
  doctor_id: z.string().min(1).max(64).optional(),
  patient_id: z.string().min(1).max(64).optional(),
  institution_id: z.string().min(1).max(64).optional(),
  start_gte: isoInstant.optional(),
  start_lte: isoInstant.optional(),
  start_gt: isoInstant.optional(),
  start_lt: isoInstant.optional(),
  q: z.string().min(1).max(100).optional(),
});
// Orders an index answers a page of: sorting every appointment ever by a field without one (created_at, updated_at:
// a third of a second at 200 000 appointments, the event loop held) grew with the history, and the console never asks it.
// By status means by status, then start: one status's appointments are most of the history, and a page of them sorted
// by id alone would sort them all.
export const ADMIN_APPOINTMENT_SORT = ['start', 'status', 'id'] as const;

/** The accounts list (platform admins). */
export const adminUserFilter = z.object({ id: idsFilter.optional(), account_type: z.enum(['patient', 'doctor', 'admin']).optional(), is_active: z.boolean().optional() });
export const ADMIN_USER_SORT = ['registered_at', 'name', 'account_type', 'id'] as const;
