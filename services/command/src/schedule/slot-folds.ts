import { streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { slotDecider, type SlotCommand } from './slot';

/**
 * Each event store's kept folds of slots (StreamFolds; a slot's state is its times, its doctor and the ids of the
 * appointment and patient holding it, nothing personal): a slot's stream gains events with every request, rejection,
 * cancellation and reopening, and each booking, release and schedule save read it whole.
 */
export const slotFoldsOf = foldsPerEventStore(slotDecider);

/** The slot now: the kept fold, read on from its last look. */
export function loadSlot(eventStore: EventStore, slotId: number) {
  return slotFoldsOf(eventStore).current(streams.slot(slotId));
}

/**
 * A command on the slot's stream, loaded from the kept fold on every attempt (a retry after a conflict too); `loaded`,
 * a look the caller has just made, serves the first attempt without another read.
 */
export function handleSlotCommand(eventStore: EventStore, slotId: number, command: SlotCommand, context: CommandContext, loaded?: Awaited<ReturnType<typeof loadSlot>>) {
  let first = loaded;
  return handleCommand(eventStore, streams.slot(slotId), slotDecider, command, context, async () => {
    const look = first ?? (await loadSlot(eventStore, slotId));
    first = undefined;
    return look;
  });
}
