import type { Filter } from '@telemed/platform';

/** Documents after a cursor in the order (field ascending, then _id): the next page of a keyset-paged query. */
export function afterCursor(field: string, cursor: { value: string; id: string } | null): Filter {
  if (!cursor) return {};
  return { $or: [{ [field]: { $gt: cursor.value } }, { [field]: cursor.value, _id: { $gt: cursor.id } }] };
}
