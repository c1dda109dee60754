import { ACCESS_PURPOSE_LABELS, ACCESS_RESOURCE_LABELS, type AccessLogEntry, type PersonalDataExport } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import type { InstitutionDoc, UserDoc } from '../projections';
import type { AccessLogDoc } from './access-log';
import { memo } from './memo';

/** The access log as its people read it: the reads of their data by others, and their own reads of others' data. */
export function accessViews(readStore: ReadStore) {
  const users = readStore.collection<UserDoc>('users');
  const institutions = readStore.collection<InstitutionDoc>('institutions');

  /** The log's entries as the person reads them: who by name and role, what, when and why. */
  const entryViews = async (docs: AccessLogDoc[]): Promise<AccessLogEntry[]> => {
    const nameOf = memo(async (id: string) => (await users.get(id))?.name ?? null);
    const institutionOf = memo(async (id: string) => (await institutions.get(id))?.name ?? null);
    return Promise.all(
      docs.map(async (doc) => ({
        id: doc._id,
        who: { user_id: doc.accessor_id, name: await nameOf(doc.accessor_id), role: doc.accessor_role, institution_role: doc.institution_role },
        institution: doc.institution_id ? { id: doc.institution_id, name: await institutionOf(doc.institution_id) } : null,
        what: { resource: doc.resource, description: ACCESS_RESOURCE_LABELS[doc.resource], route: doc.route, items: doc.items },
        when: doc.occurred_at,
        why: doc.purpose,
        why_label: ACCESS_PURPOSE_LABELS[doc.purpose],
      })),
    );
  };

  /**
   * The person's own reads of others' data (the audit's accessor side), as the export gives them: whose, what kind and
   * which items, through which institution, when and why. Whose is a label of this export's (`person-1` for the first
   * person you read, and so on, numbered by your first read of each, so a later export keeps them), not their account
   * id: an export holds nothing of another person (a doctor's holds their appointments without the patients' ids),
   * and which reads were of the same person is what the person did. The items are the ids the audit recorded (an
   * appointment of yours, a record, `contact_details`).
   */
  const readsByYou = async (docs: AccessLogDoc[]): Promise<PersonalDataExport['reads_by_you']> => {
    const institutionOf = memo(async (id: string) => (await institutions.get(id))?.name ?? null);
    const labels = new Map<string, string>();
    for (const doc of [...docs].sort((a, b) => a.position - b.position)) {
      if (!labels.has(doc.subject_id)) labels.set(doc.subject_id, `person-${labels.size + 1}`);
    }
    return Promise.all(
      docs.map(async (doc) => ({
        id: `${doc.access_id}:${labels.get(doc.subject_id)!}`,
        whose: labels.get(doc.subject_id)!,
        as: { role: doc.accessor_role, institution_role: doc.institution_role },
        institution: doc.institution_id ? { id: doc.institution_id, name: await institutionOf(doc.institution_id) } : null,
        what: { resource: doc.resource, description: ACCESS_RESOURCE_LABELS[doc.resource], route: doc.route, items: doc.items },
        when: doc.occurred_at,
        why: doc.purpose,
        why_label: ACCESS_PURPOSE_LABELS[doc.purpose],
      })),
    );
  };

  return { entryViews, readsByYou };
}
