import { instantRange } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import type { PendingReservationDoc, SlotDoc } from '../projections';
import { afterCursor } from '../keyset';
import { PENDING_RESERVATIONS, pendingReservationId } from './pending-reservations';

/**
 * What the write side's sweeps look up of the slots: a closing doctor's open slots ahead (the (doctor_id, start)
 * index), and reservations still awaiting their appointment (a collection of only those).
 */
export function slotSweepLookups(readStore: ReadStore) {
  const pending = readStore.collection<PendingReservationDoc>(PENDING_RESERVATIONS);
  const slots = readStore.collection<SlotDoc>('slots');
  return {
    openSlotsOf: async (doctorId: string, now: Date, page: { after: { slot_id: number; start: string } | null; limit: number }) =>
      (
        await slots.find(
          {
            doctor_id: doctorId,
            status: 'open',
            start: page.after ? { $gt: page.after.start } : instantRange({ gt: now }),
          },
          { sort: { start: 1 }, limit: page.limit },
        )
      ).map((s) => ({ slot_id: s.slot_id, start: s.start })),
    reservationsMadeBefore: async (cutoff: Date, page: { after: { appointment_id: string; slot_id: number; reserved_at: string } | null; limit: number }) =>
      (
        await pending.find(
          {
            reserved_at: { $lte: cutoff.toISOString() },
            ...afterCursor('reserved_at', page.after && { value: page.after.reserved_at, id: pendingReservationId(page.after.appointment_id, page.after.slot_id) }),
          },
          { sort: { reserved_at: 1, _id: 1 }, limit: page.limit },
        )
      ).map((r) => ({ slot_id: r.slot_id, appointment_id: r.appointment_id, reserved_event_id: r.reserved_event_id, reserved_at: r.reserved_at })),
  };
}
