import { ERASED_VALUE, storedInstant, type EventType } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { PersonDoc } from '../projections/documents';
import { allWithAny, forEachMatching, inTurns } from '../projections/in-pages';

export const CONSULTATIONS = 'consultations';
export const OPEN_CONSULTATIONS = 'open_consultations';
export const CONSULTATION_MESSAGES = 'consultation_messages';
/** The people the consultation names (kept here so this projection needs no other's collections). */
const PEOPLE = 'consultation_people';
/** What an erased person is called in a consultation: in the people, the participants and the chat's senders alike. */
const ERASED_PARTICIPANT = 'Participant';

export interface ConsultationParticipantDoc {
  user_id: string;
  name: string;
  role: 'patient' | 'doctor';
  present: boolean;
  connection_id: string;
  joined_at: string;
  left_at: string | null;
}

export interface ConsultationDoc {
  _id: string;
  appointment_id: string;
  patient_id: string;
  doctor_id: string;
  provider: 'p2p' | 'livekit';
  room: string;
  status: 'active' | 'ended';
  started_at: string;
  ends_at: string;
  ended_at: string | null;
  ended_by: string | null;
  auto_ended: boolean;
  participants: ConsultationParticipantDoc[];
  /** Everyone who ever joined, for the summary's participant count. */
  message_count: number;
}

/** A consultation still open, by its limit: the limit's process manager reads only these. */
export interface OpenConsultationDoc {
  _id: string;
  appointment_id: string;
  ends_at: string;
}

export interface ConsultationMessageDoc {
  _id: string;
  appointment_id: string;
  /** Position in the log: the order of the chat, and its paging key. */
  position: number;
  message_id: string;
  sender_id: string;
  sender_name: string;
  text: string;
  sent_at: string;
}

const CONSULTATION_EVENTS = [
  'ConsultationStarted',
  'ConsultationJoined',
  'ConsultationLeft',
  'ConsultationEnded',
  'ConsultationAutoEnded',
  'ConsultationMessagePosted',
] as const satisfies EventType[];

async function nameOf(store: CollectionSource, userId: string): Promise<string> {
  return (await store.collection<PersonDoc>(PEOPLE).get(userId))?.name ?? 'Participant';
}

/**
 * The consultation of each appointment (state, limit, who is present), the open ones by their limit (normally a
 * handful, whatever the history: each leaves as it ends), and the chat by appointment in log order.
 */
export const consultationsProjection = defineProjection({
  name: 'consultations',
  // 2: an erasure also blanks the person's name in the participants and the chat's senders (a read model erased under
  // version 1 still holds it there, so it is rebuilt).
  // 3: the chat is kept sealed (contracts' sealedInReadModels): a read model built before holds it in clear.
  version: 3,
  collections: [CONSULTATIONS, OPEN_CONSULTATIONS, CONSULTATION_MESSAGES, PEOPLE],
  indexes: [
    { collection: CONSULTATIONS, field: 'patient_id' },
    { collection: CONSULTATIONS, field: 'doctor_id' },
    { collection: OPEN_CONSULTATIONS, field: 'ends_at' },
    { collection: CONSULTATION_MESSAGES, fields: ['appointment_id', 'position'] },
  ],
  handles: ['UserRegistered', 'UserProfileUpdated', 'PersonalDataErased', ...CONSULTATION_EVENTS],
  ignores: [
    'sessions', 'UserLanguageChosen', 'institutions', 'schedule', 'appointments', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified',
    'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed', 'ClinicalRecordsDestroyed',
    'VideoProviderEventReceived',
  ],
  apply: async (event, store) => {
    const consultations = store.collection<ConsultationDoc>(CONSULTATIONS);
    const open = store.collection<OpenConsultationDoc>(OPEN_CONSULTATIONS);
    const at = event.metadata.occurred_at;
    switch (event.type) {
      case 'UserRegistered':
        return store.collection<PersonDoc>(PEOPLE).put({ _id: event.data.user_id, name: event.data.name, phone_number: null, specialty: null, consultation_fee: null });
      case 'UserProfileUpdated':
        if (event.data.name === undefined) return;
        return store.collection<PersonDoc>(PEOPLE).patch(event.data.user_id, { name: event.data.name });
      case 'PersonalDataErased': {
        // Their name goes, also where it was copied (each participant as they joined, each message's sender as it was
        // sent); a patient's consultations' chat (their health data, under their destroyed key) reads as erased. A
        // rebuild copied the name as erased already: both end in the same documents.
        const userId = event.data.user_id;
        await store.collection<PersonDoc>(PEOPLE).patch(userId, { name: ERASED_PARTICIPANT });
        const messages = store.collection<ConsultationMessageDoc>(CONSULTATION_MESSAGES);
        const theirs = new Map<string, ConsultationDoc>();
        const add = async (c: ConsultationDoc) => void theirs.set(c._id, c);
        await forEachMatching(consultations, { patient_id: userId }, add);
        await forEachMatching(consultations, { doctor_id: userId }, add);
        const asPatient = new Map([...theirs.values()].map((c) => [c.appointment_id, c.patient_id === userId]));
        // Their chats are read before any message is written (a batch's read after its own writes costs those too).
        const chats = await allWithAny(messages, 'appointment_id', [...asPatient.keys()]);
        await inTurns([...theirs.values()], (consultation) =>
          consultations.patch(consultation._id, { participants: consultation.participants.map((p) => (p.user_id === userId ? { ...p, name: ERASED_PARTICIPANT } : p)) }),
        );
        await inTurns(chats, async (message) => {
          const patient = asPatient.get(message.appointment_id) === true;
          const sent = message.sender_id === userId;
          if (patient || sent) await messages.patch(message._id, { ...(patient ? { text: ERASED_VALUE } : {}), ...(sent ? { sender_name: ERASED_PARTICIPANT } : {}) });
        });
        return;
      }
      case 'ConsultationStarted': {
        // ends_at as instants are stored (instants.ts): the sweep compares it with the clock as text.
        const data = { ...event.data, ends_at: storedInstant(event.data.ends_at) };
        await open.put({ _id: data.appointment_id, appointment_id: data.appointment_id, ends_at: data.ends_at });
        return consultations.put({
          _id: data.appointment_id,
          appointment_id: data.appointment_id,
          patient_id: data.patient_id,
          doctor_id: data.doctor_id,
          provider: data.provider,
          room: data.room,
          status: 'active',
          started_at: data.started_at,
          ends_at: data.ends_at,
          ended_at: null,
          ended_by: null,
          auto_ended: false,
          participants: [],
          message_count: 0,
        });
      }
      case 'ConsultationJoined': {
        const { data } = event;
        const doc = await consultations.get(data.appointment_id);
        if (!doc) return;
        const others = doc.participants.filter((p) => p.user_id !== data.user_id);
        const participant: ConsultationParticipantDoc = {
          user_id: data.user_id,
          name: await nameOf(store, data.user_id),
          role: data.role,
          present: true,
          connection_id: data.connection_id,
          joined_at: doc.participants.find((p) => p.user_id === data.user_id)?.joined_at ?? at,
          left_at: null,
        };
        return consultations.patch(data.appointment_id, { participants: [...others, participant] });
      }
      case 'ConsultationLeft': {
        const { data } = event;
        const doc = await consultations.get(data.appointment_id);
        if (!doc) return;
        const participants = doc.participants.map((p) =>
          p.user_id === data.user_id && p.connection_id === data.connection_id ? { ...p, present: false, left_at: at } : p,
        );
        return consultations.patch(data.appointment_id, { participants });
      }
      case 'ConsultationEnded':
      case 'ConsultationAutoEnded': {
        const { data } = event;
        await open.delete(data.appointment_id);
        const doc = await consultations.get(data.appointment_id);
        if (!doc) return;
        const auto = event.type === 'ConsultationAutoEnded';
        return consultations.patch(data.appointment_id, {
          status: 'ended',
          // Auto-ended at the limit: the call's end is the limit, even if the system noticed a moment later.
          ended_at: auto ? doc.ends_at : at,
          ended_by: event.type === 'ConsultationEnded' ? event.data.ended_by : null,
          auto_ended: auto,
          participants: doc.participants.map((p) => (p.present ? { ...p, present: false, left_at: auto ? doc.ends_at : at } : p)),
        });
      }
      case 'ConsultationMessagePosted': {
        const { data } = event;
        await store.collection<ConsultationMessageDoc>(CONSULTATION_MESSAGES).put({
          _id: data.message_id,
          appointment_id: data.appointment_id,
          position: event.position,
          message_id: data.message_id,
          sender_id: data.sender_id,
          sender_name: await nameOf(store, data.sender_id),
          text: data.text,
          sent_at: at,
        });
        const doc = await consultations.get(data.appointment_id);
        if (doc) await consultations.patch(data.appointment_id, { message_count: doc.message_count + 1 });
        return;
      }
    }
  },
});
