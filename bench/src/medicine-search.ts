import { performance } from 'node:perf_hooks';
import { MedicineIndex, brandEntry, loadNlem, normalizeMedicineName, type MedicineEntry } from '@telemed/query';
import { percentile, round } from './stats';

/**
 * Medicine search (issue 14): the product's MedicineIndex (prefix, then word starts, then substrings, then one typo)
 * over the shipped NLEM 2022 list and over NLEM plus a generated brand catalogue, beside a plain scan of the same
 * normalized names (`Array.filter(name.includes(q))`, the first `limit` kept) in the same run. The scan does less
 * (no ranking, no typo tolerance): it is the floor of a search without an index, not an equal.
 */

/** mulberry32: a small deterministic generator, so every run searches the same catalogue. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ca', 'lo', 'pa', 'ri', 'zo', 'mex', 'dol', 'vi', 'ta', 'fen', 'cor', 'zin', 'amo', 'nol', 'pri', 'sta', 'lix', 'ver', 'qui', 'tor', 'bel', 'mox', 'ra', 'sel', 'du', 'nex', 'gen', 'tri', 'ox', 'an'];
const SUFFIXES = ['', '', ' Forte', ' Plus', ' DS', ' XR', ' Kid', ' SR', ' MR'];
const MAKERS = ['Aarav Labs', 'Bharat Remedies', 'Chandra Pharma', 'Deccan Healthcare', 'Eastern Life Sciences', 'Ganga Formulations', 'Himalaya Drugs Co', 'Indus Biotech', 'Jaipur Generics', 'Kaveri Medicare'];

/** `count` brand rows with generated names (seeded), each composed of one or two NLEM medicines in one of their forms. */
export function generatedBrands(count: number, nlem: MedicineEntry[], seed = 14): MedicineEntry[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const out: MedicineEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const syllables = 2 + Math.floor(next() * 3);
    let name = '';
    for (let s = 0; s < syllables; s += 1) name += pick(SYLLABLES);
    name = name[0]!.toUpperCase() + name.slice(1) + ` ${[100, 250, 500, 650, 10, 20, 40][Math.floor(next() * 7)]}` + pick(SUFFIXES);
    const first = pick(nlem);
    const second = next() < 0.2 ? pick(nlem) : null;
    const composition = second && second.name !== first.name ? `${first.name} + ${second.name}` : first.name;
    out.push(brandEntry({ name, manufacturer: pick(MAKERS), composition, strength: first.strength?.split(',')[0] ?? '', form: first.dosage_form ?? 'Tablet' }, nlem));
  }
  return out;
}

/** What builders type: short and longer prefixes, word starts, substrings, one-typo names, and misses. */
const NLEM_QUERIES = ['pa', 'par', 'paracet', 'amox', 'metfor', 'acid', 'sodium', 'cillin', 'azole', 'paracetmol', 'amoxcillin', 'metfromin', 'qqqq', 'zz'];
const BRAND_QUERIES = ['ca', 'calo', 'zomex', 'forte', 'dolvi', 'lixver', 'amox', 'paracet', 'cillin', 'calopri', 'zomexdol', 'qquuxx', 'zz'];

export interface QueryTiming {
  query: string;
  results: number;
  p50_ms: number;
  p99_ms: number;
  baseline_results: number;
  baseline_p50_ms: number;
  baseline_p99_ms: number;
}

export interface CatalogueTiming {
  entries: number;
  build_ms: number;
  heap_mib: number;
  p50_ms: number;
  p99_ms: number;
  baseline_p50_ms: number;
  baseline_p99_ms: number;
  worst_query: string;
  worst_p99_ms: number;
  queries: QueryTiming[];
}

function time(fn: () => unknown, iterations: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now();
    fn();
    out.push(performance.now() - start);
  }
  return out.sort((a, b) => a - b);
}

function measureCatalogue(entries: MedicineEntry[], queries: string[], iterations: number, limit: number): CatalogueTiming {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const index = new MedicineIndex(entries);
  const build_ms = performance.now() - started;
  global.gc?.();
  const heap_mib = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  // The baseline keeps the same normalized names, computed once, as the index does.
  const names = entries.map((e) => normalizeMedicineName(e.name));
  const scan = (q: string) => names.filter((name) => name.includes(q)).slice(0, limit);
  const all: number[] = [];
  const allBaseline: number[] = [];
  // The product's searches first, then the scans: the scans' garbage is not collected inside the product's timings.
  const product = queries.map((query) => {
    index.search(query, limit); // warm
    const times = time(() => index.search(query, limit), iterations);
    all.push(...times);
    return times;
  });
  global.gc?.();
  const rows: QueryTiming[] = queries.map((query, i) => {
    const q = normalizeMedicineName(query);
    scan(q);
    const baseline = time(() => scan(q), Math.max(5, Math.round(iterations / 10)));
    allBaseline.push(...baseline);
    return {
      query,
      results: index.search(query, limit).length,
      p50_ms: round(percentile(product[i]!, 50), 3),
      p99_ms: round(percentile(product[i]!, 99), 3),
      baseline_results: scan(q).length,
      baseline_p50_ms: round(percentile(baseline, 50), 3),
      baseline_p99_ms: round(percentile(baseline, 99), 3),
    };
  });
  all.sort((a, b) => a - b);
  allBaseline.sort((a, b) => a - b);
  const worst = rows.reduce((w, r) => (r.p99_ms > w.p99_ms ? r : w));
  return {
    entries: entries.length,
    build_ms: round(build_ms, 0),
    heap_mib: round(heap_mib, 1),
    p50_ms: round(percentile(all, 50), 3),
    p99_ms: round(percentile(all, 99), 3),
    baseline_p50_ms: round(percentile(allBaseline, 50), 3),
    baseline_p99_ms: round(percentile(allBaseline, 99), 3),
    worst_query: worst.query,
    worst_p99_ms: worst.p99_ms,
    queries: rows,
  };
}

/** Both catalogues: NLEM alone, and NLEM with `brands` generated brand rows; `iterations` searches per query. */
export function medicineSearch(options: { brands: number; iterations: number; limit?: number }) {
  const limit = options.limit ?? 10;
  const nlem = loadNlem();
  const shipped = measureCatalogue(nlem, NLEM_QUERIES, options.iterations, limit);
  const brands = generatedBrands(options.brands, nlem);
  const withBrands = measureCatalogue([...nlem, ...brands], [...BRAND_QUERIES, ...NLEM_QUERIES.filter((q) => !BRAND_QUERIES.includes(q))], options.iterations, limit);
  return { limit, iterations: options.iterations, seed: 14, shipped, with_brands: { ...withBrands, brands: options.brands } };
}
