import { storedInstant, type RecordedEvent } from '@telemed/contracts';
import { SETTLED, andThen, withDocument, type CollectionSource, type Doc, type ReadCollection } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { DoctorSlotRangeDoc, SlotDoc } from '../projections/documents';

export const SLOT_RANGES = 'doctor_slot_ranges';

/** The key of a doctor's slots starting on one UTC day (`start` is a UTC instant): an equality index answers a day. */
export const doctorDayKey = (doctorId: string, utcDate: string) => `${doctorId}/${utcDate}`;

type Opened = Extract<RecordedEvent, { type: 'SlotOpened' }>;
type Reserved = Extract<RecordedEvent, { type: 'SlotReserved' }>;
type Released = Extract<RecordedEvent, { type: 'SlotReleased' }>;
type Withdrawn = Extract<RecordedEvent, { type: 'SlotWithdrawn' }>;

/** The doctor's range as of the event: every change of the doctor's slots moves its revision. */
const revise = (store: CollectionSource, doctorId: string, position: number) =>
  store.collection<DoctorSlotRangeDoc>(SLOT_RANGES).patch(doctorId, { revision: position });

/** An opened slot, after its doctor's range (null: the doctor's first) is read. */
function opened(range: DoctorSlotRangeDoc | null, event: Opened, store: CollectionSource): Promise<void> {
  const { data, position } = event;
  // One stored format for instants, so the read stores' text comparisons are time comparisons (instants.ts).
  const start = storedInstant(data.start);
  const last_start = range && range.last_start > start ? range.last_start : start;
  const slot: SlotDoc = {
    _id: String(data.slot_id),
    slot_id: data.slot_id,
    doctor_id: data.doctor_id,
    doctor_day: doctorDayKey(data.doctor_id, start.slice(0, 10)),
    start,
    end: storedInstant(data.end),
    status: 'open',
    appointment_id: null,
    patient_id: null,
    reserved_at: null,
    reserved_event_id: null,
  };
  return andThen(store.collection<DoctorSlotRangeDoc>(SLOT_RANGES).put({ _id: data.doctor_id, last_start, revision: position }), putInto, store.collection<SlotDoc>('slots'), slot);
}

const putInto = <T extends Doc>(collection: ReadCollection<T>, doc: T) => collection.put(doc);

const reserve = (event: Reserved, store: CollectionSource) =>
  store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), {
    status: 'reserved',
    appointment_id: event.data.appointment_id,
    patient_id: event.data.patient_id,
    reserved_at: event.metadata.occurred_at,
    reserved_event_id: event.event_id,
  });

const release = (event: Released, store: CollectionSource) =>
  store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), { status: 'open', appointment_id: null, patient_id: null, reserved_at: null, reserved_event_id: null });

/** Held for a patient on the waitlist: out of everyone else's lists until the hold ends (or the patient books it). */
const hold = (event: Extract<RecordedEvent, { type: 'SlotHeld' }>, store: CollectionSource) => store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), { status: 'held' });
const endHold = (event: Extract<RecordedEvent, { type: 'SlotHoldReleased' }>, store: CollectionSource) => store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), { status: 'open' });

const withdraw = (event: Withdrawn, store: CollectionSource) => store.collection<SlotDoc>('slots').patch(String(event.data.slot_id), { status: 'withdrawn' });

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
  handles: ['SlotOpened', 'SlotWithdrawn', 'SlotReserved', 'SlotReleased', 'SlotHeld', 'SlotHoldReleased'],
  ignores: ['accounts', 'sessions', 'privacy', 'institutions', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet', 'AvailabilitySet'],
  // Not async: the store's answers are returned as they are (SETTLED when done as called, which the runner need not
  // wait for), and an opening's look-up of its doctor's range is withDocument's (no promise when the store answers at once).
  apply: (event, store) => {
    // A switch, not a pattern match: apply runs for every event of a rebuild.
    switch (event.type) {
      case 'SlotOpened':
        return withDocument(store.collection<DoctorSlotRangeDoc>(SLOT_RANGES), event.data.doctor_id, opened, event, store);
      case 'SlotWithdrawn':
        return andThen(revise(store, event.data.doctor_id, event.position), withdraw, event, store);
      case 'SlotReserved':
        return andThen(revise(store, event.data.doctor_id, event.position), reserve, event, store);
      case 'SlotReleased':
        return andThen(revise(store, event.data.doctor_id, event.position), release, event, store);
      case 'SlotHeld':
        return andThen(revise(store, event.data.doctor_id, event.position), hold, event, store);
      case 'SlotHoldReleased':
        return andThen(revise(store, event.data.doctor_id, event.position), endHold, event, store);
    }
    return SETTLED;
  },
});
