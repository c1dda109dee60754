import { match } from 'ts-pattern';
import { defineProjection } from './projection';
import type { SlotDoc } from './documents';

export const slotsProjection = defineProjection({
  name: 'slots',
  version: 1,
  collections: ['slots'],
  indexes: [
    { collection: 'slots', field: 'doctor_id' },
    { collection: 'slots', field: 'status' },
  ],
  handles: ['SlotOpened', 'SlotWithdrawn', 'SlotReserved', 'SlotReleased'],
  apply: async (event, store) => {
    const slots = store.collection<SlotDoc>('slots');
    await match(event)
      .with({ type: 'SlotOpened' }, ({ data }) =>
        slots.put({
          _id: String(data.slot_id),
          slot_id: data.slot_id,
          doctor_id: data.doctor_id,
          start: data.start,
          end: data.end,
          status: 'open',
          appointment_id: null,
          patient_id: null,
          reserved_at: null,
          reserved_event_id: null,
        }),
      )
      .with({ type: 'SlotWithdrawn' }, ({ data }) => slots.patch(String(data.slot_id), { status: 'withdrawn' }))
      .with({ type: 'SlotReserved' }, ({ data, metadata, event_id }) =>
        slots.patch(String(data.slot_id), {
          status: 'reserved',
          appointment_id: data.appointment_id,
          patient_id: data.patient_id,
          reserved_at: metadata.occurred_at,
          reserved_event_id: event_id,
        }),
      )
      .with({ type: 'SlotReleased' }, ({ data }) =>
        slots.patch(String(data.slot_id), { status: 'open', appointment_id: null, patient_id: null, reserved_at: null, reserved_event_id: null }),
      )
      .otherwise(async () => {});
  },
});
