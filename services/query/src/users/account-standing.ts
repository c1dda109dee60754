import { ERASED_VALUE } from '@telemed/contracts';
import { defineProjection } from '../projections/projection';

/**
 * Each time a platform admin closed the person's account, with the reason recorded and when it was reopened: the
 * person's own history, for their export (the privacy audit found a reactivated account's deactivation reason in no
 * read model, so the export could not give it). The reason is under the person's key: an erasure blanks it here as a
 * rebuild after it reads it (`[erased]`), and keeps the dates.
 */
export interface DeactivationDoc {
  /** `{user_id}:{position of the UserDeactivated}`. */
  _id: string;
  user_id: string;
  deactivated_at: string;
  reason: string;
  reactivated_at: string | null;
}

export const ACCOUNT_DEACTIVATIONS = 'account_deactivations';

export const accountStandingProjection = defineProjection({
  name: 'account_standing',
  version: 1,
  collections: [ACCOUNT_DEACTIVATIONS],
  indexes: [{ collection: ACCOUNT_DEACTIVATIONS, fields: ['user_id', 'deactivated_at'] }],
  handles: ['UserDeactivated', 'UserReactivated', 'PersonalDataErased'],
  ignores: [
    'sessions', 'UserLanguageChosen', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'UserRegistered', 'UserProfileUpdated', 'PatientSubscribedToDoctor', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified',
    'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed', 'ClinicalRecordsDestroyed',
  ],
  apply: async (event, store) => {
    const deactivations = store.collection<DeactivationDoc>(ACCOUNT_DEACTIVATIONS);
    switch (event.type) {
      case 'UserDeactivated':
        return deactivations.put({
          _id: `${event.data.user_id}:${event.position}`,
          user_id: event.data.user_id,
          deactivated_at: event.metadata.occurred_at,
          reason: event.data.reason,
          reactivated_at: null,
        });
      case 'UserReactivated':
        for (const d of await deactivations.find({ user_id: event.data.user_id })) {
          if (d.reactivated_at === null) await deactivations.patch(d._id, { reactivated_at: event.metadata.occurred_at });
        }
        return;
      case 'PersonalDataErased':
        for (const d of await deactivations.find({ user_id: event.data.user_id })) await deactivations.patch(d._id, { reason: ERASED_VALUE });
        return;
    }
  },
});
