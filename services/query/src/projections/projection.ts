import type { EventType, RecordedEvent } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';

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

export function defineProjection(spec: Omit<Projection, 'handles'> & { handles: EventType[] }): Projection {
  return { ...spec, handles: new Set(spec.handles) };
}
