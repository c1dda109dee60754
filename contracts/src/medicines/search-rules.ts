/**
 * How the medicine search matches and orders, and how a prescribed medicine is written: pure functions shared by the
 * read side (the search index implements the order fast), the write side and the frontend. No I/O, no imports, so the
 * search index's worker thread can load it alone.
 */

/** Lower case, accents gone, anything but letters and digits a single space. */
export function normalizeMedicineText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The same with no spaces at all: how a name is compared when spaces and hyphens are ignored ("Pan-40" is "pan40"). */
export const compactMedicineText = (text: string): string => normalizeMedicineText(text).replace(/ /g, '');

/** The ingredients of a generic composition ("Amoxicillin + Clavulanic acid"), each compacted; empty ones dropped. */
export function compositionIngredients(generic: string): string[] {
  return generic
    .split('+')
    .map(compactMedicineText)
    .filter((part) => part !== '');
}

/**
 * The kinds of match, best first. A name is a brand's or a generic's own name; the generic is the composition a brand
 * is made of (for a generic, its own name).
 */
export const MEDICINE_MATCH_KINDS = [
  /** The name starts with the query, spaces and hyphens ignored: "dolo" → Dolo 650, "pan40" → Pan 40. */
  'name_prefix',
  /** The composition starts with it: "paracetamol" → the brands of paracetamol. */
  'generic_prefix',
  /** One of the composition's ingredients starts with it: "clavul" → Augmentin 625 Duo. */
  'ingredient_prefix',
  /** A later word of the name starts with it: "advance" → Crocin Advance. */
  'word_start',
  /** The name holds it anywhere: "cillin" → Amoxicillin. */
  'substring',
] as const;
export type MedicineMatchKind = (typeof MEDICINE_MATCH_KINDS)[number];

/**
 * The rank (an index into MEDICINE_MATCH_KINDS) of `medicine` for `query`, or null when it does not match. The search
 * answers better ranks first, so no medicine that merely holds the query, or is one typo from it, comes before a
 * brand or generic whose name or composition starts with it. After these, the search index adds names one typo
 * from the query (4 characters or more), which this rule leaves to it.
 */
export function medicineMatchRank(query: string, medicine: { name: string; generic_name: string }): number | null {
  const q = normalizeMedicineText(query);
  const compact = q.replace(/ /g, '');
  if (compact === '') return null;
  if (compactMedicineText(medicine.name).startsWith(compact)) return 0;
  if (compactMedicineText(medicine.generic_name).startsWith(compact)) return 1;
  if (compositionIngredients(medicine.generic_name).some((part) => part.startsWith(compact))) return 2;
  const name = normalizeMedicineText(medicine.name);
  const words = name.split(' ');
  if (words.some((_, i) => words.slice(i).join(' ').startsWith(q))) return 3;
  if (name.includes(q)) return 4;
  return null;
}

/** A prescription line's medicine as written on it: what was prescribed (maybe a brand), its generic, strength and form. */
export interface PrescribedMedicine {
  medicine: string;
  /** Missing or empty when unknown: the medicine's own name is the generic then. */
  generic_name?: string | null;
  strength: string | null;
  dosage_form: string | null;
}

/** "Tablet" → "tablet", "Eye drops" → "eye drops"; an abbreviation kept ("MDI inhaler"). */
const lowerForm = (form: string) => (/^\p{Lu}\p{Ll}/u.test(form) ? form[0]!.toLowerCase() + form.slice(1) : form);

/**
 * The medicine as the Telemedicine Practice Guidelines 2020 (and the MCI's rule that a prescription names the generic,
 * legibly, preferably in capitals) want it written: the generic name in capitals, the strength and the form, and the
 * brand after it in brackets when one was prescribed: "PARACETAMOL 650 mg tablet (Dolo 650)".
 */
export function prescribedMedicineLabel(line: PrescribedMedicine): string {
  const generic = line.generic_name?.trim() || line.medicine.trim();
  const written = [generic.toUpperCase(), line.strength?.trim(), line.dosage_form?.trim() ? lowerForm(line.dosage_form.trim()) : null].filter(Boolean).join(' ');
  const brand = line.medicine.trim();
  return compactMedicineText(brand) === compactMedicineText(generic) ? written : `${written} (${brand})`;
}
