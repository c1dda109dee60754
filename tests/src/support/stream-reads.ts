import type { EventStore, ReadStreamOptions, StoredEvent } from '@telemed/platform';

/**
 * From now until `stop`, how many events each read of `stream` returned, in order: what a test of a path's cost
 * asserts (a path that folds the whole stream each time reads more with every use).
 */
export function eventsReadFrom(store: EventStore, stream: string): { counts: number[]; stop(): void } {
  const counts: number[] = [];
  const original = store.readStream;
  const readStream = original.bind(store);
  store.readStream = async (name: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
    const events = await readStream(name, options);
    if (name === stream) counts.push(events.length);
    return events;
  };
  return { counts, stop: () => void (store.readStream = original) };
}
