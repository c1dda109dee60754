import type { ReadStore } from '@telemed/platform';
import { appointmentSweepLookups } from './appointments/lookups';
import { retentionLookups } from './records/lookups';
import { slotSweepLookups } from './schedule/lookups';
import { bookingLookups } from './users/bookable-doctors';
import { waitlistLookups } from './waitlist/routes';

export { checkpointWaiter, followLogIfReadModelsAreLocal } from './projections/followers';

/**
 * What the write side's sweeps look for, each from its area: requests still awaiting an answer, appointments and slots
 * of a closing account, reservations still awaiting their appointment, erased people's records due for destruction.
 * None ever sees a confirmed, completed or released booking, so the sweeps cost what is pending, not the length of
 * history.
 */
export function sweepLookups(readStore: ReadStore) {
  return {
    // The institutions a doctor practises through (a request recorded late is checked again: late-requests.ts).
    ...bookingLookups(readStore),
    ...appointmentSweepLookups(readStore),
    ...slotSweepLookups(readStore),
    ...retentionLookups(readStore),
    ...waitlistLookups(readStore),
  };
}
