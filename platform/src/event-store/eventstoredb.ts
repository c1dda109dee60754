import {
  ANY,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamOptions,
  type StoredEvent,
  type SubscribeOptions,
  type Subscription,
} from './port';

/**
 * Event store on EventStoreDB. A global position is the event's prepare position: unique and increasing in `$all`.
 * Resuming from p reads from {commit: p, prepare: p}, which may deliver the event at p once more (never skips one):
 * subscribers are idempotent by position.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async appendToStream(stream: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    const expectedRevision: AppendExpectedRevision =
      expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected === 'stream_exists' ? STREAM_EXISTS : BigInt(expected);
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((e) => jsonEvent({ id: e.event_id, type: e.type, data: e.data as never, metadata: e.metadata as never })),
        { expectedRevision },
      );
      return { next_revision: Number(result.nextExpectedRevision), position: Number(result.position?.prepare ?? 0n) };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : null;
        throw new WrongExpectedRevisionError(stream, expected, actual);
      }
      throw error;
    }
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    const fromRevision = options?.fromRevision ? BigInt(options.fromRevision) : START;
    try {
      for await (const resolved of this.client.readStream(stream, { direction: FORWARDS, fromRevision, ...(options?.maxCount === undefined ? {} : { maxCount: BigInt(options.maxCount) }) })) {
        const stored = toStored(resolved);
        if (stored) events.push(stored);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: { fromPosition: number; limit: number }): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    const from = options.fromPosition === 0 ? START : positionOf(options.fromPosition);
    for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: options.limit + 1 })) {
      const stored = toStored(resolved);
      if (!stored || stored.type.startsWith('$') || stored.position <= options.fromPosition) continue;
      events.push(stored);
      if (events.length === options.limit) break;
    }
    return events;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const subscription = this.client.subscribeToAll({
      fromPosition: options.fromPosition === 0 ? START : positionOf(options.fromPosition),
      filter: excludeSystemEvents(),
    });
    let last = options.fromPosition;
    const loop = (async () => {
      try {
        for await (const resolved of subscription) {
          const stored = toStored(resolved);
          if (!stored || stored.position <= last) continue;
          for (;;) {
            try {
              await options.onEvents([stored]);
              last = stored.position;
              break;
            } catch (error) {
              options.onError?.(error);
              await new Promise((r) => setTimeout(r, 500));
            }
          }
        }
      } catch (error) {
        options.onError?.(error);
      }
    })();
    return {
      stop: async () => {
        await subscription.unsubscribe();
        await loop;
      },
    };
  }

  async headPosition(): Promise<number> {
    for await (const resolved of this.client.readAll({ direction: 'backwards', fromPosition: 'end', maxCount: 50 })) {
      const stored = toStored(resolved);
      if (stored && !stored.type.startsWith('$')) return stored.position;
    }
    return 0;
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

function positionOf(position: number): Position {
  return { commit: BigInt(position), prepare: BigInt(position) };
}

function toStored(resolved: ResolvedEvent | AllStreamResolvedEvent): StoredEvent | null {
  const event = resolved.event;
  if (!event || !event.isJson) return null;
  return {
    event_id: event.id,
    stream_id: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position?.prepare ?? 0n),
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  };
}
