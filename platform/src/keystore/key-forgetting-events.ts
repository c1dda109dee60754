import { clinicalRecordsSubject } from '@telemed/contracts';

/**
 * Events whose reading makes a reader forget a key another process destroyed: the event type → the key-store subject
 * whose key is gone, from the event's `user_id`.
 */
export const KEY_FORGETTING_EVENTS: Readonly<Record<string, (userId: string) => string>> = {
  PersonalDataErased: (userId) => userId,
  ClinicalRecordsDestroyed: (userId) => clinicalRecordsSubject(userId),
};
