/**
 * Refetch what is on screen, from code that must not carry the query library (the notification socket): the
 * query layer registers itself here when a page that uses queries is first shown; before that there is nothing
 * cached to refresh.
 */
let invalidate: (() => void) | null = null;

export function setQueryInvalidator(next: () => void): void {
  invalidate = next;
}

export function invalidateQueries(): void {
  invalidate?.();
}
