import type { PatientAppointment } from '@telemed/contracts';
import type { Slot } from './types';

/** A completed consultation's follow-up offer (issue 35). */
export type FollowUpOffer = NonNullable<PatientAppointment['follow_up']>;

/** The offer while it can still be taken up: none booked on it, and its window not over. */
export function openFollowUp(offer: FollowUpOffer | null, now = Date.now()): FollowUpOffer | null {
  return offer && offer.booked_appointment_id === null && Date.parse(offer.until) > now ? offer : null;
}

/** The doctor's open times a follow-up may take: those starting before the offer's end. */
export function slotsInWindow(slots: Slot[], offer: Pick<FollowUpOffer, 'until'>): Slot[] {
  const until = Date.parse(offer.until);
  return slots.filter((slot) => Date.parse(slot.start_at) < until);
}
