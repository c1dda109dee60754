import { SETTLED } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { PendingReservationDoc } from '../projections/documents';

export const PENDING_RESERVATIONS = 'pending_reservations';

/** One reservation's entry: an appointment may hold a second slot while it moves (issue 35). */
export const pendingReservationId = (appointmentId: string, slotId: number) => `${appointmentId}@${slotId}`;

/**
 * Reservations still waiting for their appointment: added when a slot is reserved, removed as soon as the appointment
 * is requested (or the slot released). Normally empty or nearly so, whatever the history: the orphaned-reservation
 * sweep reads only this, so a confirmed, completed or released booking is never looked at again.
 */
export const pendingReservationsProjection = defineProjection({
  name: 'pending_reservations',
  // 2: an index on reserved_at, which the healer's sweep filters and sorts by (it scanned the pending ones and sorted
  // them: few, but a query the access matrix rightly flags, and not bounded when a crash leaves many).
  // 3: keyed by appointment and slot, and a move's reserved slot waits here until the move is recorded (issue 35).
  version: 3,
  collections: [PENDING_RESERVATIONS],
  indexes: [
    { collection: PENDING_RESERVATIONS, field: 'slot_id' },
    { collection: PENDING_RESERVATIONS, field: 'reserved_at' },
  ],
  handles: ['SlotReserved', 'SlotReleased', 'AppointmentRequested', 'AppointmentRescheduled'],
  ignores: [
    'accounts', 'sessions', 'privacy', 'institutions', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'AvailabilitySet', 'SlotOpened', 'SlotWithdrawn',
    'AppointmentApproved', 'AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired',
    'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted', 'AppointmentHoldReleased', 'AppointmentNoShow', 'AppointmentTimesProposed', 'SlotHeld', 'SlotHoldReleased', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn',
  ],
  // Not async: the store's answer is returned as it is (SETTLED when the write is done, which the runner need not wait for).
  apply: (event, store) => {
    const pending = store.collection<PendingReservationDoc>(PENDING_RESERVATIONS);
    switch (event.type) {
      case 'SlotReserved': {
        const { data, metadata, event_id } = event;
        return pending.put({
          _id: pendingReservationId(data.appointment_id, data.slot_id),
          appointment_id: data.appointment_id,
          slot_id: data.slot_id,
          reserved_at: metadata.occurred_at,
          reserved_event_id: event_id,
        });
      }
      case 'AppointmentRequested':
      case 'SlotReleased':
        return pending.delete(pendingReservationId(event.data.appointment_id, event.data.slot_id));
      case 'AppointmentRescheduled':
        return pending.delete(pendingReservationId(event.data.appointment_id, event.data.to_slot_id));
    }
    return SETTLED;
  },
});
