import type { ConsentLanguage } from '@telemed/contracts';
import { defineProjection } from '../projections/projection';

/**
 * One agreement of a patient to a version of the privacy notice, and its withdrawal: every agreement is a document of
 * its own (a patient who withdrew and agreed again has both, each the record of what they agreed to and when).
 */
export interface ConsentDoc {
  _id: string;
  user_id: string;
  notice_version: string;
  /** The language of the text agreed to (any of the notice's ten). */
  language: ConsentLanguage;
  text_hash: string;
  given_at: string;
  withdrawn_at: string | null;
}

export const consentsProjection = defineProjection({
  name: 'consents',
  // 2: one document per agreement (they were one per version, so agreeing again overwrote the earlier agreement).
  version: 2,
  collections: ['consents'],
  indexes: [{ collection: 'consents', fields: ['user_id', 'given_at'] }],
  handles: ['ConsentGiven', 'ConsentWithdrawn'],
  ignores: [
    'accounts', 'sessions', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'PersonalDataAccessed', 'PersonalDataErased', 'ClinicalRecordsDestroyed',
  ],
  apply: async (event, store) => {
    const consents = store.collection<ConsentDoc>('consents');
    if (event.type === 'ConsentGiven') {
      const { user_id, notice_version, language, text_hash } = event.data;
      await consents.put({ _id: event.event_id, user_id, notice_version, language, text_hash, given_at: event.metadata.occurred_at, withdrawn_at: null });
    } else if (event.type === 'ConsentWithdrawn') {
      // The agreement it ends: that version's one still in force (a person's agreements are few).
      const { user_id, notice_version } = event.data;
      for (const held of await consents.find({ user_id, notice_version, withdrawn_at: null })) await consents.patch(held._id, { withdrawn_at: event.metadata.occurred_at });
    }
  },
});
