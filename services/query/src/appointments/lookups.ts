import { NO_SHOW_SWEEP_WINDOW_DAYS, instantRange } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import type { AppointmentDoc } from '../projections';
import { checkpointWaiter } from '../projections/followers';
import { afterCursor } from '../keyset';
import { appointmentsProjection } from './projection';

/**
 * What the write side's sweeps look up of the appointments: requests still awaiting an answer once their start has
 * passed (the `status` index narrows appointments to those), and a closing account's appointments still to come.
 */
export function appointmentSweepLookups(readStore: ReadStore) {
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const appointmentsAt = checkpointWaiter(readStore, [appointmentsProjection]);
  return {
    // A process manager fed by an event looks up the appointments that event concerns only once the appointments read
    // model has applied everything before it (it is fed by another subscription, which may be behind).
    appointmentsReached: (position: number, timeoutMs: number) => appointmentsAt(position, timeoutMs),
    requestsStartedBefore: async (now: Date, page: { after: { appointment_id: string; start: string } | null; limit: number }) =>
      (
        await appointments.find(
          {
            status: 'requested',
            start: instantRange({ lte: now }),
            ...afterCursor('start', page.after && { value: page.after.start, id: page.after.appointment_id }),
          },
          { sort: { start: 1, _id: 1 }, limit: page.limit },
        )
      ).map((a) => ({ appointment_id: a.appointment_id, start: a.start })),
    // The no-show sweep: confirmed appointments ended by the cutoff, started in the week before it (the (status, start)
    // index; an end is after its start). Older ones are left as they are: a sweep's work never grows with the history
    // (confirmed appointments of long ago, from before no-shows were recorded, stay confirmed).
    confirmedEndedBy: async (cutoff: Date, page: { after: { appointment_id: string; start: string } | null; limit: number }) =>
      (
        await appointments.find(
          {
            status: 'confirmed',
            start: instantRange({ lte: cutoff, gt: cutoff.getTime() - NO_SHOW_SWEEP_WINDOW_DAYS * 86_400_000 }),
            end: instantRange({ lte: cutoff }),
            ...afterCursor('start', page.after && { value: page.after.start, id: page.after.appointment_id }),
          },
          { sort: { start: 1, _id: 1 }, limit: page.limit },
        )
      ).map((a) => ({ appointment_id: a.appointment_id, start: a.start })),
    // Offers of other times unanswered by now: the index on their end holds only offers still open.
    proposalsExpiredBy: async (now: Date, page: { after: { appointment_id: string; start: string } | null; limit: number }) =>
      (
        await appointments.find(
          {
            proposal_expires_at: instantRange({ lte: now }),
            ...afterCursor('proposal_expires_at', page.after && { value: page.after.start, id: page.after.appointment_id }),
          },
          { sort: { proposal_expires_at: 1, _id: 1 }, limit: page.limit },
        )
      ).map((a) => ({ appointment_id: a.appointment_id, start: a.proposal_expires_at ?? a.start })),
    // Closing an account: its appointments still to come (the (owner, start) index from a day back: none lasts a day).
    openAppointmentsOf: async (role: 'patient' | 'doctor', userId: string, now: Date, page: { after: { appointment_id: string; start: string } | null; limit: number }) =>
      (
        await appointments.find(
          {
            [role === 'patient' ? 'patient_id' : 'doctor_id']: userId,
            status: { $in: ['requested', 'confirmed'] },
            end: instantRange({ gt: now }),
            start: instantRange({ gt: now.getTime() - 86_400_000 }),
            ...afterCursor('start', page.after && { value: page.after.start, id: page.after.appointment_id }),
          },
          { sort: { start: 1, _id: 1 }, limit: page.limit },
        )
      ).map((a) => ({ appointment_id: a.appointment_id, slot_id: a.slot_id, start: a.start })),
  };
}
