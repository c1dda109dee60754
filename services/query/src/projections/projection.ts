import { isEventOf, type DomainEventOf, type EventType, type EveryEventDecided, type Ignorable, type RecordedEvent } from '@telemed/contracts';
import { SETTLED, type CollectionSource } from '@telemed/platform';

/** A read model: which events it handles, how each changes its documents, and the collections it owns. */
export interface Projection {
  name: string;
  /** Bump to rebuild the projection from position 0. */
  version: number;
  collections: string[];
  indexes?: Array<{ collection: string; field: string } | { collection: string; fields: string[] }>;
  handles: ReadonlySet<EventType>;
  apply(event: RecordedEvent, store: CollectionSource): Promise<void>;
}

/**
 * Every projection decides every event type: it lists what it `handles` and what it `ignores` (event types by name,
 * or whole families of contracts' EVENT_FAMILIES it has nothing to do with; a family it handles any event of is listed
 * by name), and the compiler refuses a definition that leaves a type out or names one in both. So a new event type
 * fails to compile until each projection has said whether it reads it (as it does for each process manager and each
 * of the notifier's EventTables; tests/src/contracts/event-readers.test.ts proves it). `apply` sees only the handled types.
 */
export function defineProjection<const H extends EventType, const I extends Ignorable>(
  spec: Omit<Projection, 'handles' | 'apply'> & {
    handles: readonly H[];
    ignores: readonly I[] & EveryEventDecided<H, I>;
    apply: (event: RecordedEvent<DomainEventOf<H>>, store: CollectionSource) => Promise<void>;
  },
): Projection {
  const { ignores: _decided, apply, ...rest } = spec;
  const handles = new Set(spec.handles);
  // The runner gives a projection only the types it handles; the check narrows the event for `apply`.
  return { ...rest, handles, apply: (event, store) => (isEventOf(handles, event) ? apply(event, store) : SETTLED) };
}
