import { storedInstant, type RecordedEvent } from '@telemed/contracts';
import { SETTLED, andThen, type CollectionSource } from '@telemed/platform';
import { defineProjection } from './projection';
import type { DoctorSlotRangeDoc, SlotDoc } from './documents';

export const SLOT_RANGES = 'doctor_slot_ranges';

/** The key of a doctor's slots starting on one UTC day (`start` is a UTC instant): an equality index answers a day. */
export const doctorDayKey = (doctorId: string, utcDate: string) => `${doctorId}/${utcDate}`;

async function opened(event: Extract<RecordedEvent, { type: 'SlotOpened' }>, store: CollectionSource): Promise<void> {
  const { position } = event;
  const ranges = store.collection<DoctorSlotRangeDoc>(SLOT_RANGES);
  // One stored format for instants, so the read stores' text comparisons are time comparisons (instants.ts).
  const data = { ...event.data, start: storedInstant(event.data.start), end: storedInstant(event.data.end) };
  const range = await ranges.get(data.doctor_id);
  const last_start = range && range.last_start > data.start ? range.last_start : data.start;
  await ranges.put({ _id: data.doctor_id, last_start, revision: position });
  return store.collection<SlotDoc>('slots').put({
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
}

export const slotsProjection = defineProjection({
  name: 'slots',
  // 2: doctor_day (indexed) and each doctor's last slot start, so a doctor's slots in a time range are found by
  // day through an index instead of a scan of every slot the doctor ever had.
  // 3: the range's revision, so a doctor's open slots can be served from a cache checked by one lookup.
  version: 3,
  collections: ['slots', SLOT_RANGES],
  // doctor_day first: an adapter that uses one equality index per query takes the first declared that the filter has.
  // No index of its own on doctor_id (the (doctor_id, start) one serves it) or on status (no query asks for a status
  // alone): every booking updated both. A read-models file made before keeps them until the projection's next rebuild.
  indexes: [
    { collection: 'slots', field: 'doctor_day' },
    { collection: 'slots', fields: ['doctor_id', 'start'] },
  ],
  handles: ['SlotOpened', 'SlotWithdrawn', 'SlotReserved', 'SlotReleased'],
  // Not async: only an opening reads (its doctor's range); the other events' writes return the store's answers (SETTLED
  // when done as called, which the runner need not wait for).
  apply: (event, store) => {
    // A switch, not a pattern match: apply runs for every event of a rebuild.
    switch (event.type) {
      case 'SlotOpened':
        return opened(event, store);
      case 'SlotWithdrawn':
        return andThen(store.collection<DoctorSlotRangeDoc>(SLOT_RANGES).patch(event.data.doctor_id, { revision: event.position }), () =>
          store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), { status: 'withdrawn' }),
        );
      case 'SlotReserved': {
        const { data, metadata, event_id, position } = event;
        return andThen(store.collection<DoctorSlotRangeDoc>(SLOT_RANGES).patch(data.doctor_id, { revision: position }), () =>
          store.collection<SlotDoc>('slots').patch(String(data.slot_id), {
            status: 'reserved',
            appointment_id: data.appointment_id,
            patient_id: data.patient_id,
            reserved_at: metadata.occurred_at,
            reserved_event_id: event_id,
          }),
        );
      }
      case 'SlotReleased':
        return andThen(store.collection<DoctorSlotRangeDoc>(SLOT_RANGES).patch(event.data.doctor_id, { revision: event.position }), () =>
          store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), { status: 'open', appointment_id: null, patient_id: null, reserved_at: null, reserved_event_id: null }),
        );
    }
    return SETTLED;
  },
});
