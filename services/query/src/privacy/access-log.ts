import type { AccessPurpose, AccessResource } from '@telemed/contracts';
import { defineProjection } from '../projections/projection';

/**
 * Who saw a person's data: one document per (access, subject) of each PersonalDataAccessed audit event, so the
 * person's list, newest first, is an indexed walk of their own entries (a page costs what it returns).
 */
export interface AccessLogDoc {
  _id: string;
  subject_id: string;
  /** Log position of the audit event: the list's order and its cursor. */
  position: number;
  access_id: string;
  accessor_id: string;
  accessor_role: 'patient' | 'doctor' | 'admin';
  institution_id: string | null;
  institution_role: string | null;
  purpose: AccessPurpose;
  resource: AccessResource;
  route: string;
  /** The subject's items that the access showed (appointment ids, or contact_details). */
  items: string[];
  occurred_at: string;
}

export const ACCESS_LOG = 'access_log';

export const accessLogProjection = defineProjection({
  name: 'access_log',
  version: 1,
  collections: [ACCESS_LOG],
  indexes: [
    { collection: ACCESS_LOG, field: 'subject_id' },
    { collection: ACCESS_LOG, fields: ['subject_id', 'position'] },
    // The reader's side, for their own export (what they read of others).
    { collection: ACCESS_LOG, fields: ['accessor_id', 'position'] },
  ],
  handles: ['PersonalDataAccessed'],
  ignores: [
    'accounts', 'sessions', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataErased', 'ClinicalRecordsDestroyed',
  ],
  apply: async (event, store) => {
    if (event.type !== 'PersonalDataAccessed') return;
    const log = store.collection<AccessLogDoc>(ACCESS_LOG);
    const { data } = event;
    for (const subject of data.subjects) {
      await log.put({
        _id: `${data.access_id}:${subject.user_id}`,
        subject_id: subject.user_id,
        position: event.position,
        access_id: data.access_id,
        accessor_id: data.accessor_id,
        accessor_role: data.accessor_role,
        institution_id: data.institution_id,
        institution_role: data.institution_role,
        purpose: data.purpose,
        resource: data.resource,
        route: data.route,
        items: subject.items,
        occurred_at: event.metadata.occurred_at,
      });
    }
  },
});
