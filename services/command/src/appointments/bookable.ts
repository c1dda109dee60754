import { streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { readStream } from '../decider';
import { loadUser } from '../users/service';
import { deactivatedHere, institutionDecider } from '../institutions/institution';

/** What booking looks up by id in the read models (then reads on the log). */
export interface BookingLookups {
  /** The institutions the doctor is currently on the staff of (ids only). */
  institutionsOfMember(userId: string): Promise<string[]>;
}

/**
 * Does this doctor take bookings? Their account is active, and no institution they practise through has deactivated
 * them. Decided from the streams; the read model only names the institutions (a membership younger than its lag is
 * missed, a deactivation never is: it is in the institution's stream before the deactivation answers).
 */
export async function doctorAcceptsBookings(eventStore: EventStore, lookups: BookingLookups, doctorId: string): Promise<boolean> {
  const user = await loadUser(eventStore, doctorId);
  if (user.status !== 'registered' || !user.active) return false;
  for (const institutionId of await lookups.institutionsOfMember(doctorId)) {
    const { state } = await readStream(eventStore, streams.institution(institutionId), institutionDecider);
    if (deactivatedHere(state, doctorId)) return false;
  }
  return true;
}
