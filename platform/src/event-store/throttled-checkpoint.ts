import type { CheckpointStore } from './port';

/**
 * Saves a subscriber's checkpoint at most once per interval (and on flush). Subscribers are idempotent, so after a
 * crash they only see again the events since the last save; in exchange, no write (and no fsync) per batch.
 */
export function throttledCheckpoint(store: CheckpointStore, name: string, intervalMs = 1000) {
  let pending: number | null = null;
  let lastSaved = 0;
  return {
    async record(position: number): Promise<void> {
      pending = position;
      if (Date.now() - lastSaved >= intervalMs) await this.flush();
    },
    async flush(): Promise<void> {
      if (pending === null) return;
      const position = pending;
      pending = null;
      lastSaved = Date.now();
      await store.save(name, position);
    },
  };
}
