import type { CheckpointStore } from './port';

/**
 * Saves a subscriber's checkpoint at most once per interval (and on flush). Subscribers are idempotent, so after a
 * crash they only see again the events since the last save; in exchange, no write (and no fsync) per batch. A position
 * recorded within the interval is saved when the interval ends, even if nothing else arrives: a subscriber that has
 * caught up and gone quiet must not leave its last stretch to be read again at every start.
 */
export function throttledCheckpoint(store: CheckpointStore, name: string, intervalMs = 1000) {
  let pending: number | null = null;
  let lastSaved = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === null) return;
    const position = pending;
    pending = null;
    lastSaved = Date.now();
    await store.save(name, position);
  };
  return {
    async record(position: number): Promise<void> {
      pending = position;
      const wait = intervalMs - (Date.now() - lastSaved);
      if (wait <= 0) return flush();
      // A save that fails here is tried again by the next record or flush (and by stop's flush).
      timer ??= setTimeout(() => void flush().catch(() => undefined), wait);
      timer.unref();
    },
    flush,
  };
}
