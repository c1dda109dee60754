import { defineProjection } from '../projections/projection';
import type { DoctorDoc, SubscriptionDoc, UserDoc } from '../projections/documents';

export const usersProjection = defineProjection({
  name: 'users',
  // 2: deactivated_at, the last deactivation (tokens and sessions from before it stay refused after a reactivation).
  version: 2,
  collections: ['users'],
  // The console's user list (issue 15): by account type, and newest first.
  indexes: [
    { collection: 'users', fields: ['account_type', 'registered_at'] },
    { collection: 'users', field: 'registered_at' },
    // The console's account list in each order it offers, whole or of one kind or standing (accounts change rarely).
    { collection: 'users', field: 'name' },
    { collection: 'users', fields: ['account_type', 'name'] },
    { collection: 'users', fields: ['account_type', '_id'] },
    { collection: 'users', fields: ['active', 'registered_at'] },
    { collection: 'users', fields: ['active', 'name'] },
    { collection: 'users', fields: ['active', 'account_type'] },
    { collection: 'users', fields: ['active', '_id'] },
  ],
  handles: ['UserRegistered', 'UserProfileUpdated', 'UserLanguageChosen', 'UserDeactivated', 'UserReactivated'],
  // PersonalDataErased is erasure.ts's: it blanks the person's values in this read model.
  ignores: [
    'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'PatientSubscribedToDoctor', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
  ],
  apply: async (event, store) => {
    const users = store.collection<UserDoc>('users');
    switch (event.type) {
      case 'UserRegistered': {
        const { data, metadata } = event;
        return users.put({
          _id: data.user_id,
          name: data.name,
          email: data.email,
          phone_number: data.phone_number,
          account_type: data.account_type,
          registered_at: metadata.occurred_at,
          active: true,
        });
      }
      case 'UserProfileUpdated':
        return users.patch(event.data.user_id, withoutUndefined({ name: event.data.name, phone_number: event.data.phone_number }));
      case 'UserLanguageChosen':
        return users.patch(event.data.user_id, { language: event.data.language });
      case 'UserDeactivated':
        return users.patch(event.data.user_id, { active: false, deactivated_at: event.metadata.occurred_at });
      case 'UserReactivated':
        return users.patch(event.data.user_id, { active: true });
    }
  },
});

export const doctorsProjection = defineProjection({
  name: 'doctors',
  // 2: an erasure also blanks the registration number (encrypted under the doctor's key since) and marks the doctor
  // erased, whom the doctors list leaves out (a read model erased under version 1 kept both).
  version: 2,
  collections: ['doctors'],
  // The doctors list, by name: a page reads the index in order, not every doctor.
  indexes: [{ collection: 'doctors', field: 'name' }],
  handles: ['UserRegistered', 'UserProfileUpdated', 'DoctorRegistered', 'DoctorProfileUpdated'],
  // PersonalDataErased is erasure.ts's: it blanks the person's values in this read model.
  ignores: [
    'sessions', 'UserLanguageChosen', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned',
    'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
  ],
  apply: async (event, store) => {
    const doctors = store.collection<DoctorDoc>('doctors');
    switch (event.type) {
      case 'UserRegistered': {
        const { data } = event;
        if (data.account_type !== 'doctor') return;
        return doctors.put({
          _id: data.user_id,
          doctor_number: 0,
          name: data.name,
          email: data.email,
          phone_number: data.phone_number,
          specialty: '',
          qualification: '',
          consultation_fee: 0,
          appointment_duration_minutes: 0,
          registration_number: null,
          medical_council: null,
          city: null,
        });
      }
      case 'UserProfileUpdated':
        return doctors.patch(event.data.user_id, withoutUndefined({ name: event.data.name, phone_number: event.data.phone_number }));
      case 'DoctorRegistered': {
        const { doctor_id, ...profile } = event.data;
        return doctors.patch(doctor_id, profile);
      }
      case 'DoctorProfileUpdated': {
        const { doctor_id, ...changes } = event.data;
        return doctors.patch(doctor_id, withoutUndefined(changes));
      }
    }
  },
});

export const subscriptionsProjection = defineProjection({
  name: 'patient_doctors',
  version: 1,
  collections: ['patient_doctors'],
  indexes: [{ collection: 'patient_doctors', fields: ['patient_id', 'subscribed_at'] }],
  handles: ['PatientSubscribedToDoctor'],
  ignores: [
    'sessions', 'UserLanguageChosen', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'UserRegistered', 'UserProfileUpdated', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified',
    'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
  ],
  apply: async (event, store) => {
    if (event.type !== 'PatientSubscribedToDoctor') return;
    await store.collection<SubscriptionDoc>('patient_doctors').put({
      _id: `${event.data.patient_id}:${event.data.doctor_id}`,
      patient_id: event.data.patient_id,
      doctor_id: event.data.doctor_id,
      subscribed_at: event.metadata.occurred_at,
    });
  },
});

export function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
