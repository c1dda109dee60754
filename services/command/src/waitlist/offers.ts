import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { StreamFolds } from '../stream-folds';
import { accountStandingFold } from '../users/account-standing';
import { startProcessManager } from '../process-managers/subscriber';
import { offerFreedSlot, type WaitlistLookups } from './service';

/**
 * A slot that becomes free (opened, released by a cancellation, rejection, expiry or move, or let go from a hold) is
 * offered to the first place on its doctor's waitlist that covers its day (issue 35). The order is decided by the
 * slot's stream (one hold at a time) and the places' join order, never by a timer's race.
 */
export function startWaitlistOffers(deps: { eventStore: EventStore; checkpoints: CheckpointStore; logger: Logger; clock: () => Date; lookups: WaitlistLookups }) {
  const accounts = new StreamFolds(deps.eventStore, accountStandingFold);
  return startProcessManager({
    name: 'waitlist-offers',
    ...deps,
    handles: ['SlotOpened', 'SlotReleased', 'SlotHoldReleased'],
    ignores: [
      'accounts', 'sessions', 'privacy', 'institutions', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'AvailabilitySet', 'SlotWithdrawn', 'SlotReserved', 'SlotHeld',
    ],
    handle: async (event) => {
      // Most doctors have nobody waiting: then nothing of the slot is read (a schedule's save opens many at once).
      if ((await deps.lookups.waitingPlaces(event.data.doctor_id, { afterPosition: -1, limit: 1 })).length === 0) return;
      await offerFreedSlot({ ...deps, accounts }, event.data.slot_id, { event_id: event.event_id, correlation_id: event.metadata.correlation_id });
    },
  });
}
