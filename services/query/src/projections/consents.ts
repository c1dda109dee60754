import { defineProjection } from './projection';

/** A patient's consent to one version of the privacy notice; the log keeps every agreement and withdrawal. */
export interface ConsentDoc {
  _id: string;
  user_id: string;
  notice_version: string;
  language: 'en' | 'hi';
  text_hash: string;
  given_at: string;
  withdrawn_at: string | null;
}

export const consentsProjection = defineProjection({
  name: 'consents',
  version: 1,
  collections: ['consents'],
  indexes: [{ collection: 'consents', fields: ['user_id', 'given_at'] }],
  handles: ['ConsentGiven', 'ConsentWithdrawn'],
  apply: async (event, store) => {
    const consents = store.collection<ConsentDoc>('consents');
    if (event.type === 'ConsentGiven') {
      const { user_id, notice_version, language, text_hash } = event.data;
      await consents.put({ _id: `${user_id}:${notice_version}`, user_id, notice_version, language, text_hash, given_at: event.metadata.occurred_at, withdrawn_at: null });
    } else if (event.type === 'ConsentWithdrawn') {
      await consents.patch(`${event.data.user_id}:${event.data.notice_version}`, { withdrawn_at: event.metadata.occurred_at });
    }
  },
});
