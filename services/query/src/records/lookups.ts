import { genericKey, instantRange } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import type { AppointmentDoc } from '../projections';
import { PRESCRIBED_MEDICINES, prescribedMedicineId, type PrescribedMedicineDoc } from './projection';
import { RECORD_STORAGE, type RecordStorageDoc } from './storage-projection';
import { CLINICAL_RETENTION, type ClinicalRetentionDoc } from './retention-projection';
import { afterCursor } from '../keyset';

/**
 * What the write side asks the read models before a prescription: each an indexed question that costs what it answers,
 * whatever the patient's history with the doctor.
 */
export function recordLookups(readStore: ReadStore) {
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const medicines = readStore.collection<PrescribedMedicineDoc>(PRESCRIBED_MEDICINES);
  const storage = readStore.collection<RecordStorageDoc>(RECORD_STORAGE);
  return {
    /** The latest appointment of this patient with this doctor that started before `before` and whose consultation was held (its id), or null. */
    earlierConsultation: async (patientId: string, doctorId: string, before: string) =>
      (await appointments.find({ patient_id: patientId, doctor_id: doctorId, consultation_held: true, start: instantRange({ lt: before }) }, { sort: { start: -1 }, limit: 1 }))[0]?._id ?? null,
    /** Which of these generic names this doctor prescribed this patient before (one get each). */
    prescribedBefore: async (patientId: string, doctorId: string, generics: readonly string[]) => {
      const found = await Promise.all(generics.map(async (generic) => ((await medicines.get(prescribedMedicineId(patientId, doctorId, generic))) ? genericKey(generic) : null)));
      return found.filter((key): key is string => key !== null);
    },
    /** The bytes of the patient's files counted so far, and the log position they are counted up to (0: none). */
    storedBytes: async (patientId: string) => {
      const doc = await storage.get(patientId);
      return { bytes: doc?.bytes ?? 0, position: doc?.position ?? 0 };
    },
  };
}

/** What the write side's sweep of erased people's records looks up: whose retention has ended (a collection of only the running ones). */
export function retentionLookups(readStore: ReadStore) {
  const retention = readStore.collection<ClinicalRetentionDoc>(CLINICAL_RETENTION);
  return {
    // Erased people whose clinical records' retention has ended (a collection of only the running ones).
    clinicalRecordsDueBy: async (now: Date, page: { after: { user_id: string; destroy_after: string } | null; limit: number }) =>
      (
        await retention.find(
          {
            destroy_after: { $lte: now.toISOString() },
            ...afterCursor('destroy_after', page.after && { value: page.after.destroy_after, id: page.after.user_id }),
          },
          { sort: { destroy_after: 1, _id: 1 }, limit: page.limit },
        )
      ).map((r) => ({ user_id: r.user_id, destroy_after: r.destroy_after })),
  };
}
