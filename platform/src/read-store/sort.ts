import type { Doc } from './port';

/** Sorts documents as MongoDB would by the given keys (missing values first), then by id for a stable order. */
export function sortDocs<T extends Doc & Record<string, unknown>>(docs: T[], sort: Record<string, 1 | -1>): T[] {
  const keys = Object.entries(sort);
  return [...docs].sort((a, b) => {
    for (const [field, direction] of keys) {
      const x = a[field] as string | number | null | undefined;
      const y = b[field] as string | number | null | undefined;
      if (x === y) continue;
      if (x === undefined || x === null) return -direction;
      if (y === undefined || y === null) return direction;
      return (x < y ? -1 : 1) * direction;
    }
    return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
  });
}
