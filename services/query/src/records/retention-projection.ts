import { defineProjection } from '../projections/projection';

export const CLINICAL_RETENTION = 'clinical_retention';

/** An erased person whose clinical records are kept under the legal hold, until `destroy_after`. */
export interface ClinicalRetentionDoc {
  _id: string;
  user_id: string;
  destroy_after: string;
}

/**
 * Only the retentions still running: the sweep that ends them reads what is due through the `destroy_after` index,
 * and a record whose key was destroyed leaves the collection, so the work follows what is pending, not history.
 */
export const clinicalRetentionProjection = defineProjection({
  name: 'clinical_retention',
  version: 1,
  collections: [CLINICAL_RETENTION],
  indexes: [{ collection: CLINICAL_RETENTION, field: 'destroy_after' }],
  handles: ['PersonalDataErased', 'ClinicalRecordsDestroyed'],
  ignores: [
    'accounts', 'sessions', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed',
  ],
  apply: async (event, store) => {
    const docs = store.collection<ClinicalRetentionDoc>(CLINICAL_RETENTION);
    switch (event.type) {
      case 'PersonalDataErased': {
        const until = event.data.clinical_records_retained_until;
        if (until) return docs.put({ _id: event.data.user_id, user_id: event.data.user_id, destroy_after: until });
        return;
      }
      case 'ClinicalRecordsDestroyed':
        return docs.delete(event.data.user_id);
    }
  },
});
