import type { PatientAppointment } from '@telemed/contracts';

/** Other times a doctor offered for an appointment (issue 35), as both lists carry them. */
export type Proposal = NonNullable<PatientAppointment['proposal']>;
export type ProposedSlot = Proposal['slots'][number];

/** The most times a doctor may offer at once (the propose-times route's `slot_ids` allow 1 to 3). */
export const MAX_OFFERED_TIMES = 3;

/**
 * The offer as it can still be answered: null once it has expired (the sweep cancels the appointment soon after), and
 * without the offered times that have already begun.
 */
export function openProposal(proposal: Proposal | null, now = Date.now()): Proposal | null {
  if (!proposal || Date.parse(proposal.expires_at) <= now) return null;
  const slots = proposal.slots.filter((slot) => Date.parse(slot.start_at) > now);
  return slots.length > 0 ? { ...proposal, slots } : null;
}
