import { match } from 'ts-pattern';
import { defineProjection } from './projection';
import type { DoctorSlotRangeDoc, SlotDoc } from './documents';

export const SLOT_RANGES = 'doctor_slot_ranges';

/** The key of a doctor's slots starting on one UTC day (`start` is a UTC instant): an equality index answers a day. */
export const doctorDayKey = (doctorId: string, utcDate: string) => `${doctorId}/${utcDate}`;

export const slotsProjection = defineProjection({
  name: 'slots',
  // 2: doctor_day (indexed) and each doctor's last slot start, so a doctor's slots in a time range are found by
  // day through an index instead of a scan of every slot the doctor ever had.
  version: 2,
  collections: ['slots', SLOT_RANGES],
  // doctor_day first: an adapter that uses one equality index per query takes the first declared that the filter has.
  indexes: [
    { collection: 'slots', field: 'doctor_day' },
    { collection: 'slots', field: 'doctor_id' },
    { collection: 'slots', field: 'status' },
    { collection: 'slots', fields: ['doctor_id', 'start'] },
  ],
  handles: ['SlotOpened', 'SlotWithdrawn', 'SlotReserved', 'SlotReleased'],
  apply: async (event, store) => {
    const slots = store.collection<SlotDoc>('slots');
    await match(event)
      .with({ type: 'SlotOpened' }, async ({ data }) => {
        const ranges = store.collection<DoctorSlotRangeDoc>(SLOT_RANGES);
        const range = await ranges.get(data.doctor_id);
        if (!range || range.last_start < data.start) await ranges.put({ _id: data.doctor_id, last_start: data.start });
        await slots.put({
          _id: String(data.slot_id),
          slot_id: data.slot_id,
          doctor_id: data.doctor_id,
          doctor_day: doctorDayKey(data.doctor_id, data.start.slice(0, 10)),
          start: data.start,
          end: data.end,
          status: 'open',
          appointment_id: null,
          patient_id: null,
          reserved_at: null,
          reserved_event_id: null,
        });
      })
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
