import { Lru, type EventStore } from '@telemed/platform';
import type { DomainEvent } from '@telemed/contracts';
import { toRecorded, type Fold } from './decider';

interface Folded<State> {
  state: State;
  revision: number | null;
}

/**
 * The latest fold of streams that a request path checks but does not write (a doctor's account and institutions when
 * a patient books, the patient's consent): each look reads only the events after the last fold, so its cost does not
 * grow with the stream's history and nothing already read is decrypted again. Always current: every look reads the
 * stream's tail from the log, so another process's appends are seen. Folds rely on `evolve` returning new state
 * (the deciders' rule); hand the state to nothing that evolves it further. Keep only deciders whose state holds no
 * personal data (a status, ids, versions), so the cache is not a second copy of what an erasure must remove.
 */
export class StreamFolds<State, Event extends DomainEvent> {
  private readonly folds: Lru<string, Folded<State>>;

  constructor(
    private readonly eventStore: EventStore,
    private readonly decider: Fold<State, Event>,
    capacity = 10_000,
  ) {
    this.folds = new Lru(capacity);
  }

  async current(stream: string): Promise<Folded<State>> {
    const known = this.folds.get(stream);
    const fromRevision = known?.revision == null ? 0 : known.revision + 1;
    const events = await this.eventStore.readStream(stream, { fromRevision });
    if (known && events.length === 0) return known;
    let state = known?.state ?? this.decider.initialState();
    for (const event of events) state = this.decider.evolve(state, toRecorded(event) as unknown as Event);
    const folded = { state, revision: events.length ? events[events.length - 1]!.revision : (known?.revision ?? null) };
    // A slower concurrent look may finish after a newer one: keep whichever has read further.
    const latest = this.folds.get(stream);
    if (!latest || (latest.revision ?? -1) <= (folded.revision ?? -1)) this.folds.set(stream, folded);
    return folded;
  }

  /**
   * Changes the stream's kept state, at the revision it was folded to, to what its events now read as without a new
   * event (a key they were sealed under was destroyed): the next look reads only what is new, not the whole stream.
   */
  reread(stream: string, change: (state: State) => State): void {
    const known = this.folds.get(stream);
    if (known) this.folds.set(stream, { state: change(known.state), revision: known.revision });
  }
}

/**
 * Each event store's StreamFolds of one decider, made on first use: a request path or process manager that has no
 * object of its own to hold them asks for them by event store (a test's store, the product's).
 */
export function foldsPerEventStore<State, Event extends DomainEvent>(decider: Fold<State, Event>, capacity?: number): (eventStore: EventStore) => StreamFolds<State, Event> {
  const folds = new WeakMap<EventStore, StreamFolds<State, Event>>();
  return (eventStore) => {
    let found = folds.get(eventStore);
    if (!found) folds.set(eventStore, (found = new StreamFolds(eventStore, decider, capacity)));
    return found;
  };
}
