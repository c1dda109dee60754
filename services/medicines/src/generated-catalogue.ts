import { brandEntry, type BrandRow, type MedicineEntry } from './catalogue';

/**
 * A generated brand catalogue, the one fixture of the medicine search's benchmark (bench/src/medicine-search.ts) and
 * tests (the index's property test, the import that must not stall the server): made-up brand names of two to four
 * syllables with a strength and sometimes a suffix, each composed of one or two NLEM medicines in one of their forms,
 * by made-up manufacturers. Seeded, so every run builds the same catalogue. No real brand is named.
 */

/** mulberry32: a small deterministic generator. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BRAND_SYLLABLES = ['ca', 'lo', 'pa', 'ri', 'zo', 'mex', 'dol', 'vi', 'ta', 'fen', 'cor', 'zin', 'amo', 'nol', 'pri', 'sta', 'lix', 'ver', 'qui', 'tor', 'bel', 'mox', 'ra', 'sel', 'du', 'nex', 'gen', 'tri', 'ox', 'an'] as const;
const SUFFIXES = ['', '', ' Forte', ' Plus', ' DS', ' XR', ' Kid', ' SR', ' MR'];
const MAKERS = ['Aarav Labs', 'Bharat Remedies', 'Chandra Pharma', 'Deccan Healthcare', 'Eastern Life Sciences', 'Ganga Formulations', 'Himalaya Drugs Co', 'Indus Biotech', 'Jaipur Generics', 'Kaveri Medicare'];

/** `count` brand rows as a clinic's CSV lists them (name, manufacturer, composition, strength, form). */
export function generatedBrandRows(count: number, nlem: MedicineEntry[], seed = 14): BrandRow[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const out: BrandRow[] = [];
  for (let i = 0; i < count; i += 1) {
    const syllables = 2 + Math.floor(next() * 3);
    let name = '';
    for (let s = 0; s < syllables; s += 1) name += pick(BRAND_SYLLABLES);
    name = name[0]!.toUpperCase() + name.slice(1) + ` ${[100, 250, 500, 650, 10, 20, 40][Math.floor(next() * 7)]}` + pick(SUFFIXES);
    const first = pick(nlem);
    const second = next() < 0.2 ? pick(nlem) : null;
    const composition = second && second.name !== first.name ? `${first.name} + ${second.name}` : first.name;
    out.push({ name, manufacturer: pick(MAKERS), composition, strength: first.strengths[0] ?? '', form: first.dosage_form ?? 'Tablet' });
  }
  return out;
}

/** The same rows as catalogue entries, classified under the Guidelines by their composition. */
export function generatedBrands(count: number, nlem: MedicineEntry[], seed = 14): MedicineEntry[] {
  return generatedBrandRows(count, nlem, seed).map((row) => brandEntry(row, nlem));
}

/** A CSV line's field, quoted when it holds a comma or a quote. */
const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The rows as the CSV `medicines:import` reads (header first). */
export function brandCatalogueCsv(rows: BrandRow[]): string {
  return ['name,manufacturer,composition,strength,form', ...rows.map((r) => [r.name, r.manufacturer, r.composition, r.strength, r.form].map(csvField).join(','))].join('\n') + '\n';
}
