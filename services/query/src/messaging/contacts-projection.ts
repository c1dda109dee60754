import type { Doc } from '@telemed/platform';
import { DEFAULT_MESSAGE_CHANNELS, type MessageChannelChoice } from '@telemed/contracts';
import { defineProjection } from '../projections/projection';

export const CONTACTS = 'contacts';

/** How a person is reached outside the browser: their channels, zone for quiet hours, and verified mobile number. */
export interface ContactDoc extends Doc {
  channels: MessageChannelChoice;
  time_zone: string | null;
  verified_phone: string | null;
  updated_at: string;
}

export const emptyContact = (userId: string, at: string): ContactDoc => ({ _id: userId, channels: DEFAULT_MESSAGE_CHANNELS, time_zone: null, verified_phone: null, updated_at: at });

/** Each person's contact stream (issue 34), read by their Profile and their data export. */
export const contactsProjection = defineProjection({
  name: 'contacts',
  version: 1,
  collections: [CONTACTS],
  indexes: [],
  handles: ['MessagingPreferencesSet', 'PhoneNumberVerified'],
  ignores: [
    'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'UserRegistered', 'UserProfileUpdated', 'UserLanguageChosen', 'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
  ],
  apply: async (event, store) => {
    const contacts = store.collection<ContactDoc>(CONTACTS);
    const at = event.metadata.occurred_at;
    const doc = (await contacts.get(event.data.user_id)) ?? emptyContact(event.data.user_id, at);
    if (event.type === 'MessagingPreferencesSet') {
      await contacts.put({ ...doc, channels: event.data.channels, time_zone: event.data.time_zone, updated_at: at });
    } else {
      await contacts.put({ ...doc, verified_phone: event.data.phone_number, updated_at: at });
    }
  },
});
