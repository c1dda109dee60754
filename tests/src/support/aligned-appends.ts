import { WrongExpectedRevisionError, type AppendOptions, type AppendResult, type EventStore, type NewEvent } from '@telemed/platform';

/**
 * Concurrency at its worst, on demand: the first `count` appends to `stream` are held until all `count` have arrived,
 * then go to the store together, as when that many requests decided on the same revision in the same instant (what a
 * loaded machine does by chance). Counts the appends to `stream` the store refused for their expected revision until
 * `stop`.
 */
export function alignedAppends(store: EventStore, stream: string, count: number): { refused(): number; stop(): void } {
  const original = store.appendToStream;
  const append = original.bind(store);
  let refused = 0;
  let arrived = 0;
  let release!: () => void;
  const together = new Promise<void>((resolve) => (release = resolve));
  store.appendToStream = async (name: string, events: NewEvent[], options?: AppendOptions): Promise<AppendResult> => {
    if (name !== stream) return append(name, events, options);
    if (arrived < count) {
      arrived += 1;
      if (arrived === count) release();
      await together;
    }
    try {
      return await append(name, events, options);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) refused += 1;
      throw error;
    }
  };
  return { refused: () => refused, stop: () => void (store.appendToStream = original) };
}
