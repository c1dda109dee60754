import { instantRange } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import { OPEN_CONSULTATIONS, type OpenConsultationDoc } from './projection';

/** What the consultation's limit looks up: open consultations by their limit (an index over only the open ones). */
export function consultationLookups(readStore: ReadStore) {
  const open = readStore.collection<OpenConsultationDoc>(OPEN_CONSULTATIONS);
  return {
    openConsultationsEndingBefore: async (now: Date, page: { after: { appointment_id: string; ends_at: string } | null; limit: number }) => {
      const after = page.after;
      const cursor = after ? { $or: [{ ends_at: { $gt: after.ends_at } }, { ends_at: after.ends_at, _id: { $gt: after.appointment_id } }] } : {};
      // Limits are stored to the second (`…:00Z`): compare in the same form.
      const docs = await open.find({ ends_at: instantRange({ lte: now }), ...cursor }, { sort: { ends_at: 1, _id: 1 }, limit: page.limit });
      return docs.map((d) => ({ appointment_id: d.appointment_id, ends_at: d.ends_at }));
    },
    nextConsultationEnd: async () => (await open.find({}, { sort: { ends_at: 1, _id: 1 }, limit: 1 }))[0]?.ends_at ?? null,
  };
}
