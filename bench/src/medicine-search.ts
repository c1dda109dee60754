import { performance } from 'node:perf_hooks';
import { MedicineIndex, generatedBrands, loadNlem, normalizeMedicineName, type MedicineEntry } from '@telemed/medicines';
import { percentile, round } from './stats';

/**
 * Medicine search (issue 14): the product's MedicineIndex (prefix, then word starts, then substrings, then one typo)
 * over the shipped NLEM 2022 list and over NLEM plus a generated brand catalogue, beside a plain scan of the same
 * normalized names (`Array.filter(name.includes(q))`, the first `limit` kept) in the same run. The scan does less
 * (no ranking, no typo tolerance): it is the floor of a search without an index, not an equal. The brands are the
 * generated catalogue the search's tests use too (services/medicines/src/generated-catalogue.ts, seed 14).
 */

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
