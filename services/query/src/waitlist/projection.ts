import { storedInstant, type RecordedEvent } from '@telemed/contracts';
import { SETTLED, type CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';

/**
 * Places on doctors' waitlists (issue 35), one document per patient and doctor (as their stream): whom a freed slot is
 * offered to first (a doctor's waiting places by the log position of their join), offers past their time (the sweep's),
 * and a patient's own places. Nothing here is shown to anyone but the place's patient.
 */
export const WAITLIST = 'waitlist';

export interface WaitlistDoc {
  _id: string;
  doctor_id: string;
  patient_id: string;
  from: string;
  to: string;
  timezone: string;
  status: 'waiting' | 'offered' | 'closed';
  /** The log position of the join: the order in which places are offered a slot. */
  joined_position: number;
  joined_at: string;
  offer: { slot_id: number; start: string; end: string; until: string } | null;
  /** The offer's end while one is open (indexed for the sweep); null otherwise. */
  offer_until: string | null;
}

export const waitlistId = (doctorId: string, patientId: string) => `${doctorId}-${patientId}`;

function setPlace(store: CollectionSource, data: { doctor_id: string; patient_id: string }, fields: Partial<WaitlistDoc>): Promise<void> {
  return store.collection<WaitlistDoc>(WAITLIST).patch(waitlistId(data.doctor_id, data.patient_id), fields);
}

function apply(event: RecordedEvent, store: CollectionSource): Promise<void> {
  switch (event.type) {
    case 'WaitlistJoined': {
      const { data } = event;
      return store.collection<WaitlistDoc>(WAITLIST).put({
        _id: waitlistId(data.doctor_id, data.patient_id),
        doctor_id: data.doctor_id,
        patient_id: data.patient_id,
        from: data.from,
        to: data.to,
        timezone: data.timezone,
        status: 'waiting',
        joined_position: event.position,
        joined_at: event.metadata.occurred_at,
        offer: null,
        offer_until: null,
      });
    }
    case 'WaitlistOfferMade': {
      const { slot_id, start, end, until } = event.data;
      return setPlace(store, event.data, { status: 'offered', offer: { slot_id, start, end, until }, offer_until: storedInstant(until) });
    }
    case 'WaitlistOfferEnded':
      return setPlace(store, event.data, { status: 'waiting', offer: null, offer_until: null });
    case 'WaitlistLeft':
      return setPlace(store, event.data, { status: 'closed', offer: null, offer_until: null });
  }
  return SETTLED;
}

export const waitlistProjection = defineProjection({
  name: 'waitlist',
  version: 2,
  collections: [WAITLIST],
  indexes: [
    // A doctor's waiting places in the order they joined: whom a freed slot is offered to.
    { collection: WAITLIST, fields: ['doctor_id', 'status', 'joined_position'] },
    // Offers past their time.
    { collection: WAITLIST, field: 'offer_until' },
    // A patient's own places.
    { collection: WAITLIST, field: 'patient_id' },
    // Open places past their last day (the sweep's).
    { collection: WAITLIST, fields: ['status', 'to'] },
  ],
  handles: ['WaitlistJoined', 'WaitlistLeft', 'WaitlistOfferMade', 'WaitlistOfferEnded'],
  // PersonalDataErased closes nothing here: the erasure's closer leaves the waitlists (close-accounts).
  ignores: ['wallet', 'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone'],
  apply,
});
