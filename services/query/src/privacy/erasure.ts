import { ERASED_VALUE, type RecordedEvent } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import type { Projection } from '../projections/projection';
import type { AppointmentDoc, DoctorDoc, HistoryDoc, InvitationDoc, MemberDoctorDoc, PersonDoc, StaffDoc, UserDoc } from '../projections/documents';
import { APPOINTMENT_PEOPLE } from '../appointments/projection';
import { MEMBER_DOCTORS } from '../institutions/projection';
import { CONTACTS, type ContactDoc } from '../messaging/contacts-projection';
import { MESSAGES, type MessageDoc } from '../messaging/projection';
import { allWithAny, forEachMatching, inTurns } from '../projections/in-pages';

/**
 * What each projection does with PersonalDataErased: it blanks the person's plain values it holds, in its own
 * collections. Live, they held the plain values until now; in a rebuild after the key was destroyed, the events
 * already read as ERASED_VALUE. Both end in the same documents (a string that must stay a string becomes
 * ERASED_VALUE, a nullable contact detail null), so a rebuild's checksum equals the live one and no plain value of
 * the person remains in the read store. Facts kept under the legal hold (ids, dates, statuses, fees) stay.
 */
type Eraser = (userId: string, event: RecordedEvent, store: CollectionSource) => Promise<void>;

/** A reason or note that was given stays visibly erased; one that was never given stays null. */
const blank = (value: string | null | undefined): string | null => (value === null || value === undefined ? null : ERASED_VALUE);

const ERASERS: Record<string, Eraser> = {
  contacts: async (userId, _event, store) => {
    await store.collection<ContactDoc>(CONTACTS).patch(userId, { verified_phone: null, time_zone: null });
  },
  // The log keeps that a message was sent (a fact), not where to.
  messages: async (userId, _event, store) => {
    const messages = store.collection<MessageDoc>(MESSAGES);
    await forEachMatching(messages, { recipient_id: userId }, (m) => (m.to_masked === null ? Promise.resolve() : messages.patch(m._id, { to_masked: ERASED_VALUE })));
  },
  users: async (userId, event, store) => {
    await store.collection<UserDoc>('users').patch(userId, { name: ERASED_VALUE, email: null, phone_number: null, active: false, erased_at: event.metadata.occurred_at });
  },
  doctors: async (userId, event, store) => {
    const doctors = store.collection<DoctorDoc>('doctors');
    const doctor = await doctors.get(userId);
    if (!doctor) return;
    await doctors.patch(userId, { name: ERASED_VALUE, email: null, phone_number: null, registration_number: blank(doctor.registration_number), erased_at: event.metadata.occurred_at });
  },
  appointments: async (userId, _event, store) => {
    await store.collection<PersonDoc>(APPOINTMENT_PEOPLE).patch(userId, { name: ERASED_VALUE, phone_number: null });
    const appointments = store.collection<AppointmentDoc>('appointments');
    await forEachMatching(appointments, { patient_id: userId }, (a) =>
      appointments.patch(a._id, {
        patient_name: ERASED_VALUE,
        patient_phone: null,
        notes: ERASED_VALUE,
        rejection_reason: blank(a.rejection_reason),
        cancellation_reason: blank(a.cancellation_reason),
      }),
    );
    await forEachMatching(appointments, { doctor_id: userId }, (a) => appointments.patch(a._id, { doctor_name: ERASED_VALUE }));
  },
  appointment_history: async (userId, _event, store) => {
    const history = store.collection<HistoryDoc>('appointment_history');
    // Only the request names its patient (the data.patient_id index); then their appointments' entries, many
    // appointments to a query, all read before any is written.
    const appointmentIds: string[] = [];
    await forEachMatching(history, { type: 'AppointmentRequested', 'data.patient_id': userId }, async (request) => void appointmentIds.push(request.appointment_id));
    await inTurns(await allWithAny(history, 'appointment_id', appointmentIds), (doc) => {
      const data = { ...doc.data };
      if ('notes' in data) data.notes = ERASED_VALUE;
      if ('reason' in data) data.reason = blank(data.reason as string | null);
      return history.put({ ...doc, data });
    });
  },
  institutions: async (userId, _event, store) => {
    const doctors = store.collection<MemberDoctorDoc>(MEMBER_DOCTORS);
    // A doctor account's specialty is not theirs to erase (DoctorRegistered's is in clear); a recorded specialization is.
    const doctor = await doctors.get(userId);
    if (doctor) await doctors.patch(userId, { name: ERASED_VALUE });
    const staff = store.collection<StaffDoc>('institution_staff');
    for (const s of await staff.find({ user_id: userId })) {
      await staff.patch(s._id, {
        name: ERASED_VALUE,
        email: ERASED_VALUE,
        phone: ERASED_VALUE,
        role_title: blank(s.role_title),
        department: blank(s.department),
        specialization: blank(s.specialization),
        doctor_name: ERASED_VALUE,
        doctor_specialty: doctor ? s.doctor_specialty : blank(s.doctor_specialty),
      });
    }
  },
  institution_invitations: async (userId, _event, store) => {
    const invitations = store.collection<InvitationDoc>('institution_invitations');
    for (const i of await invitations.find({ user_id: userId })) {
      await invitations.patch(i._id, {
        name: ERASED_VALUE,
        email: ERASED_VALUE,
        phone: ERASED_VALUE,
        role_title: blank(i.role_title),
        department: blank(i.department),
        specialization: blank(i.specialization),
      });
    }
  },
};

/** The projection, also blanking the person on PersonalDataErased when it holds personal values (others unchanged). */
export function withErasure(projection: Projection): Projection {
  const erase = ERASERS[projection.name];
  if (!erase) return projection;
  return {
    ...projection,
    handles: new Set([...projection.handles, 'PersonalDataErased']),
    apply: (event, store) =>
      event.type === 'PersonalDataErased' ? erase(event.data.user_id, event, store) : projection.apply(event, store),
  };
}

/** Names of the projections that hold personal values, for tests to check none is forgotten. */
export const ERASING_PROJECTIONS = Object.keys(ERASERS);
