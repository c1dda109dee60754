import { RECORD_TEXTS, type PrescriptionLineInput, type StoredPrescriptionLine } from '@telemed/contracts';
import { HttpError } from '@telemed/platform';
import { listedStrength, normalizeMedicineName, type MedicineEntry, type MedicineIndex } from '@telemed/medicines';

/**
 * A builder's line as it is stored: with `medicine_id`, the catalogue's medicine in the strength the doctor chose
 * (one the catalogue lists for it; taken as is when it lists only one) and its form; a free-text medicine keeps the
 * strength and form the doctor wrote, and the catalogue's list under the Guidelines when its name is in there.
 * An unknown id is refused like a bad field (422); a strength or form the catalogue does not list for the medicine
 * is 400 with a detail naming it and what is listed.
 */
export function storedLine(line: PrescriptionLineInput, index: Pick<MedicineIndex, 'get' | 'byName'>, unknown: (id: string) => Error): StoredPrescriptionLine {
  const picked = line.medicine_id ? index.get(line.medicine_id) : null;
  if (line.medicine_id && !picked) throw unknown(line.medicine_id);
  const named = picked ? null : index.byName(line.medicine);
  const common = {
    medicine: line.medicine,
    dosage: line.dosage,
    frequency: line.frequency,
    custom_schedule: line.frequency === 'custom' ? line.custom_schedule : null,
    duration_value: line.duration_value,
    duration_unit: line.duration_unit,
    instructions: line.instructions,
  };
  if (!picked) {
    return {
      medicine_id: null,
      generic_name: named?.generic_name ?? line.medicine,
      strength: line.strength?.trim() || null,
      dosage_form: line.dosage_form?.trim() || null,
      tpg_list: named?.tpg_list ?? null,
      ...common,
    };
  }
  return { medicine_id: picked.id, generic_name: picked.generic_name, strength: chosenStrength(picked, line.strength), dosage_form: chosenForm(picked, line.dosage_form), tpg_list: picked.tpg_list, ...common };
}

function chosenStrength(entry: MedicineEntry, asked: string | null): string | null {
  if (entry.strengths.length === 0) {
    // The catalogue gives no strength for it: the doctor's, if any.
    return asked?.trim() || null;
  }
  if (!asked?.trim()) {
    if (entry.strengths.length === 1) return entry.strengths[0]!;
    throw new HttpError(400, RECORD_TEXTS.strengthRequired(entry.name, entry.strengths));
  }
  const listed = listedStrength(entry, asked);
  if (!listed) throw new HttpError(400, RECORD_TEXTS.strengthNotListed(entry.name, asked.trim(), entry.strengths));
  return listed;
}

function chosenForm(entry: MedicineEntry, asked: string | null): string | null {
  if (!asked?.trim() || !entry.dosage_form) return entry.dosage_form ?? (asked?.trim() || null);
  if (normalizeMedicineName(asked) !== normalizeMedicineName(entry.dosage_form)) throw new HttpError(400, RECORD_TEXTS.dosageFormNotListed(entry.name, asked.trim(), entry.dosage_form));
  return entry.dosage_form;
}
