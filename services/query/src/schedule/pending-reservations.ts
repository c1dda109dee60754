import { SETTLED } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { PendingReservationDoc } from '../projections/documents';

export const PENDING_RESERVATIONS = 'pending_reservations';

/**
 * Reservations still waiting for their appointment: added when a slot is reserved, removed as soon as the appointment
 * is requested (or the slot released). Normally empty or nearly so, whatever the history: the orphaned-reservation
 * sweep reads only this, so a confirmed, completed or released booking is never looked at again.
 */
export const pendingReservationsProjection = defineProjection({
  name: 'pending_reservations',
  // 2: an index on reserved_at, which the healer's sweep filters and sorts by (it scanned the pending ones and sorted
  // them: few, but a query the access matrix rightly flags, and not bounded when a crash leaves many).
  version: 2,
  collections: [PENDING_RESERVATIONS],
  indexes: [
    { collection: PENDING_RESERVATIONS, field: 'slot_id' },
    { collection: PENDING_RESERVATIONS, field: 'reserved_at' },
  ],
  handles: ['SlotReserved', 'SlotReleased', 'AppointmentRequested'],
  ignores: [
    'accounts', 'sessions', 'privacy', 'institutions', 'consultations', 'records', 'blog', 'messaging', 'phone',
    'AvailabilitySet', 'SlotOpened', 'SlotWithdrawn',
    'AppointmentApproved', 'AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired',
    'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted',
  ],
  // Not async: the store's answer is returned as it is (SETTLED when the write is done, which the runner need not wait for).
  apply: (event, store) => {
    const pending = store.collection<PendingReservationDoc>(PENDING_RESERVATIONS);
    switch (event.type) {
      case 'SlotReserved': {
        const { data, metadata, event_id } = event;
        return pending.put({
          _id: data.appointment_id,
          appointment_id: data.appointment_id,
          slot_id: data.slot_id,
          reserved_at: metadata.occurred_at,
          reserved_event_id: event_id,
        });
      }
      case 'AppointmentRequested':
      case 'SlotReleased':
        return pending.delete(event.data.appointment_id);
    }
    return SETTLED;
  },
});
