import { isEventOf, type DomainEventOf, type EventType, type EveryEventDecided, type Ignorable, type RecordedEvent } from '@telemed/contracts';
import { throttledCheckpoint, type CheckpointStore, type EventStore, type Logger, type Subscription } from '@telemed/platform';
import { toRecorded } from '../decider';

/** A running process manager: how far into the log it has acted (in this process; the checkpoint follows, throttled). */
export interface ProcessManagerSubscription extends Subscription {
  readonly processed: number;
}

/**
 * Feeds a process manager from the log, starting after its saved checkpoint. Handlers must be idempotent:
 * after a crash the events since the last checkpoint are delivered again.
 *
 * Like a projection (query's projection.ts), a process manager decides every event type: the types it `handles` and
 * the ones it `ignores` (by name, or whole families of contracts' EVENT_FAMILIES), so a new event type fails to compile
 * until it has said whether it acts on it. `handle` sees only the handled types.
 */
export async function startProcessManager<const H extends EventType, const I extends Ignorable>(options: {
  name: string;
  eventStore: EventStore;
  checkpoints: CheckpointStore;
  logger: Logger;
  handles: readonly H[];
  ignores: readonly I[] & EveryEventDecided<H, I>;
  handle: (event: RecordedEvent<DomainEventOf<H>>) => Promise<void>;
}): Promise<ProcessManagerSubscription> {
  const handles = new Set(options.handles);
  const from = await options.checkpoints.load(options.name);
  const checkpoint = throttledCheckpoint(options.checkpoints, options.name);
  let processed = from;
  const subscription = options.eventStore.subscribeToAll({
    fromPosition: from,
    onEvents: async (events) => {
      for (const stored of events) {
        const event = toRecorded(stored);
        if (isEventOf(handles, event)) await options.handle(event);
      }
      processed = events[events.length - 1]!.position;
      await checkpoint.record(processed);
    },
    onError: (error) => options.logger.error({ err: error, processManager: options.name }, 'process manager failed; retrying'),
  });
  return {
    get processed() {
      return processed;
    },
    stop: async () => {
      await subscription.stop();
      await checkpoint.flush();
    },
  };
}
