import { streamCategory } from '@telemed/contracts';
import { ciphertextLog, throttledCheckpoint, type Bus, type CheckpointStore, type EventStore, type Logger, type Subscription } from '@telemed/platform';

export const eventSubject = (category: string, type: string) => `telemed.events.${category}.${type}`;

/**
 * Publishes every committed event to the bus, at least once, with the event id for de-duplication: as stored, so
 * personal fields stay ciphertext (the bus keeps messages for days; consumers build what they show from read models).
 */
export async function startRelay(deps: { eventStore: EventStore; bus: Bus; checkpoints: CheckpointStore; logger: Logger }): Promise<Subscription> {
  const name = 'bus-relay';
  const log = ciphertextLog(deps.eventStore);
  const from = (await deps.checkpoints.load(name)) || (await log.headPosition());
  const checkpoint = throttledCheckpoint(deps.checkpoints, name);
  const subscription = log.subscribeToAll({
    fromPosition: from,
    onEvents: async (events) => {
      for (const event of events) {
        await deps.bus.publish({ subject: eventSubject(streamCategory(event.stream_id), event.type), id: event.event_id, payload: event });
      }
      await checkpoint.record(events[events.length - 1]!.position);
    },
    onError: (error) => deps.logger.error({ err: error }, 'relay failed; retrying'),
  });
  return {
    stop: async () => {
      await subscription.stop();
      await checkpoint.flush();
    },
  };
}
