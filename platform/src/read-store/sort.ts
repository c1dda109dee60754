import type { Doc } from './port';

/**
 * The direction equal keys are ordered by `_id` in when the sort does not name `_id`: its last key's, so one index
 * read forwards or backwards serves the whole sort (MongoDB cannot serve mixed directions from an ascending index).
 */
export function idDirection(sort: Record<string, 1 | -1>): 1 | -1 {
  return Object.values(sort).at(-1) ?? 1;
}

/** Sorts documents as MongoDB would by the given keys (missing values first), then by id (see idDirection). */
export function sortDocs<T extends Doc & Record<string, unknown>>(docs: T[], sort: Record<string, 1 | -1>): T[] {
  const keys = Object.entries(sort);
  const tie = idDirection(sort);
  return [...docs].sort((a, b) => {
    for (const [field, direction] of keys) {
      const x = a[field] as string | number | null | undefined;
      const y = b[field] as string | number | null | undefined;
      if (x === y) continue;
      if (x === undefined || x === null) return -direction;
      if (y === undefined || y === null) return direction;
      return (x < y ? -1 : 1) * direction;
    }
    return (a._id < b._id ? -1 : a._id > b._id ? 1 : 0) * tie;
  });
}
