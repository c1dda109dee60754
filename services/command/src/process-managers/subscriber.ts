import type { RecordedEvent } from '@telemed/contracts';
import { throttledCheckpoint, type CheckpointStore, type EventStore, type Logger, type Subscription } from '@telemed/platform';
import { toRecorded } from '../decider';

/**
 * Feeds a process manager from the log, starting after its saved checkpoint. Handlers must be idempotent:
 * after a crash the events since the last checkpoint are delivered again.
 */
export async function startProcessManager(options: {
  name: string;
  eventStore: EventStore;
  checkpoints: CheckpointStore;
  logger: Logger;
  handles: ReadonlySet<string>;
  handle(event: RecordedEvent): Promise<void>;
}): Promise<Subscription> {
  const from = await options.checkpoints.load(options.name);
  const checkpoint = throttledCheckpoint(options.checkpoints, options.name);
  const subscription = options.eventStore.subscribeToAll({
    fromPosition: from,
    onEvents: async (events) => {
      for (const stored of events) {
        if (options.handles.has(stored.type)) await options.handle(toRecorded(stored));
      }
      await checkpoint.record(events[events.length - 1]!.position);
    },
    onError: (error) => options.logger.error({ err: error, processManager: options.name }, 'process manager failed; retrying'),
  });
  return {
    stop: async () => {
      await subscription.stop();
      await checkpoint.flush();
    },
  };
}
