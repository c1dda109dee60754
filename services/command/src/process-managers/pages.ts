import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** How many pending items a sweep handles between two yields to the event loop. */
export const SWEEP_PAGE_SIZE = 100;

/**
 * Walks a cursor-paged lookup: fetches a page after the last item of the previous one, handles its items in order,
 * then yields to the event loop before the next page, so timer-driven work never holds the process for long.
 */
export async function forEachPage<T>(
  fetchPage: (after: T | null, limit: number) => Promise<T[]>,
  pageSize: number,
  handle: (item: T) => Promise<void>,
): Promise<void> {
  let after: T | null = null;
  for (;;) {
    const page = await fetchPage(after, pageSize);
    for (const item of page) await handle(item);
    if (page.length < pageSize) return;
    after = page[page.length - 1]!;
    await yieldToEventLoop();
  }
}

/**
 * A paged lookup that ends early once `stillApplies` says the reason for the work is gone (a deactivation undone
 * meanwhile): asked before each page, so items that appear after the reason went (a slot opened, an appointment booked
 * after a reactivation) are not acted on.
 */
export function whileStill<T>(
  stillApplies: (() => Promise<boolean>) | undefined,
  fetchPage: (after: T | null, limit: number) => Promise<T[]>,
): (after: T | null, limit: number) => Promise<T[]> {
  if (!stillApplies) return fetchPage;
  return async (after, limit) => ((await stillApplies()) ? fetchPage(after, limit) : []);
}
