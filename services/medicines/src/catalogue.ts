import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { streams, type MedicineSuggestion, type TpgList } from '@telemed/contracts';
import { INDIAN_BRANDS, brandGeneric, brandStrength, type IndianBrand } from '@telemed/contracts/indian-brands';
import { typescriptWorker, type BlobStore, type EventStore } from '@telemed/platform';
import { indexParts, normalize, trigram, type IndexParts, type Postings } from './index-parts';

export { normalize, indexParts, type IndexParts };

/** One medicine the builder can pick: an NLEM 2022 entry, or a row of a clinic's imported brand catalogue. */
export interface MedicineEntry {
  id: string;
  name: string;
  /** Only for imported brands, as the clinic's catalogue gives it; NLEM names none. */
  manufacturer: string | null;
  /** The generic name(s): the NLEM name, or a brand's composition. */
  generic_name: string;
  /** Every strength the catalogue lists, for display ("500 mg, 650 mg"). */
  strength: string | null;
  /** The same, one by one: what a prescription line may choose from. */
  strengths: string[];
  dosage_form: string | null;
  category: string | null;
  tpg_list: TpgList | null;
  basis: string | null;
  source: 'nlem-2022' | 'brand';
}

export const NLEM_FILE = fileURLToPath(new URL('../catalogue/nlem-2022.csv', import.meta.url));

const slug = (text: string) => normalize(text).replace(/ /g, '-');

/** A CSV line's fields (double quotes around a field that holds commas; "" inside for a quote). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out.map((f) => f.trim());
}

/** The NLEM 2022 list shipped in services/query/catalogue (comment lines start with #). */
export function loadNlem(file = NLEM_FILE): MedicineEntry[] {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const [header, ...rows] = lines;
  if (header !== 'name,category,dosage_form,strengths,tpg_list,basis') throw new Error('Unexpected NLEM file header');
  const seen = new Set<string>();
  return rows.map((line) => {
    const [name, category, form, strengths, list, basis] = csvFields(line) as [string, string, string, string, string, string];
    let id = `nlem-${slug(`${name} ${form}`)}`;
    for (let n = 2; seen.has(id); n += 1) id = `nlem-${slug(`${name} ${form}`)}-${n}`;
    seen.add(id);
    const listed = strengths.split(';').map((s) => s.trim()).filter(Boolean);
    return {
      id,
      name,
      manufacturer: null,
      generic_name: name,
      strength: listed.join(', '),
      strengths: listed,
      dosage_form: form,
      category,
      tpg_list: list as TpgList,
      basis,
      source: 'nlem-2022' as const,
    };
  });
}

/** A clinic's brand row as imported (`medicines:import`). */
export interface BrandRow {
  name: string;
  manufacturer: string;
  composition: string;
  strength: string;
  form: string;
}

/**
 * A brand's list under the Guidelines, from its composition and form: the whole composition when NLEM lists that
 * combination (`Amoxicillin + Clavulanic acid`), else each ingredient; for each, the NLEM entries of the brand's form
 * when there are any (a paracetamol tablet is List O even though paracetamol injection is List B), else that name's
 * entries given the same way, by injection or not (all of them when no form is given; an injection NLEM lists only by
 * mouth is List B, as NLEM's injections are); a substance prohibited in one form is prohibited in all; the strictest
 * list found wins (prohibited > B > A > O). An ingredient the list does not hold (or holds only as an injection, for a
 * brand taken otherwise) keeps the whole at List A at least, as the decider holds an unclassified medicine
 * (aceclofenac + paracetamol is not O).
 * Null when no ingredient is in the list (the decider then applies its rule for unclassified medicines).
 */
export function classifyComposition(composition: string, nlem: MedicineEntry[], form?: string | null): TpgList | null {
  const lists = nlemLists(nlem);
  const parts = composition.split(/\+|,|\band\b/i).map((p) => normalize(p.replace(/\d.*$/, ''))).filter(Boolean);
  const whole = parts.join(' ');
  const names = parts.length > 1 && lists.has(whole) ? [whole] : parts;
  const wanted = form ? normalize(form) : '';
  let worst: TpgList | null = null;
  let unclassified = false;
  for (const name of names) {
    const byForm = lists.get(name);
    if (!byForm) {
      unclassified = true;
      continue;
    }
    const all = [...byForm.values()];
    const sameForm = wanted ? byForm.get(wanted) : undefined;
    // A form NLEM does not list for it is compared with the forms given the same way (by injection or not): an oral
    // capsule of pantoprazole is not held to the list of its injection. A prohibited substance is so in every form.
    const sameRoute = wanted ? [...byForm].filter(([f]) => isParenteral(f) === isParenteral(wanted)).map(([, list]) => list) : all;
    let candidates: TpgList[];
    if (all.includes('prohibited')) candidates = ['prohibited'];
    else if (sameForm) candidates = [sameForm];
    else if (sameRoute.length) candidates = sameRoute;
    else if (isParenteral(wanted)) candidates = ['B'];
    else {
      unclassified = true;
      continue;
    }
    for (const list of candidates) if (!worst || LIST_ORDER.indexOf(list) > LIST_ORDER.indexOf(worst)) worst = list;
  }
  return worst && unclassified && LIST_ORDER.indexOf(worst) < LIST_ORDER.indexOf('A') ? 'A' : worst;
}

const LIST_ORDER: TpgList[] = ['O', 'A', 'B', 'prohibited'];
/** A dosage form (normalized) given by injection or infusion. */
const isParenteral = (form: string) => /injection|infusion/.test(form);
const listsOf = new WeakMap<MedicineEntry[], Map<string, Map<string, TpgList>>>();

/** Each NLEM name (normalized) with, per dosage form (normalized), the strictest list of its entries; built once per list. */
function nlemLists(nlem: MedicineEntry[]): Map<string, Map<string, TpgList>> {
  let lists = listsOf.get(nlem);
  if (!lists) {
    lists = new Map();
    for (const entry of nlem) {
      if (!entry.tpg_list) continue;
      const key = normalize(entry.name);
      const form = normalize(entry.dosage_form ?? '');
      let byForm = lists.get(key);
      if (!byForm) lists.set(key, (byForm = new Map()));
      const known = byForm.get(form);
      if (!known || LIST_ORDER.indexOf(entry.tpg_list) > LIST_ORDER.indexOf(known)) byForm.set(form, entry.tpg_list);
    }
    listsOf.set(nlem, lists);
  }
  return lists;
}

/** The id of a brand of the shipped Indian catalogue: from its name, stable across releases while the name stays. */
export const indianBrandId = (brand: string) => `brand-in-${slug(brand)}`;

/** A brand of the shipped catalogue (contracts' INDIAN_BRANDS) as the search and prescriptions use it. */
export function indianBrandEntry(brand: IndianBrand, nlem: MedicineEntry[]): MedicineEntry {
  const generic = brandGeneric(brand);
  const strength = brandStrength(brand);
  return {
    id: indianBrandId(brand.brand),
    name: brand.brand,
    manufacturer: brand.manufacturer,
    generic_name: generic,
    strength,
    strengths: [strength],
    dosage_form: brand.form,
    category: null,
    tpg_list: classifyComposition(generic, nlem, brand.form),
    basis: 'composition',
    source: 'brand',
  };
}

export function brandEntry(row: BrandRow, nlem: MedicineEntry[]): MedicineEntry {
  const id = `brand-${createHash('sha256').update([row.name, row.manufacturer, row.composition, row.strength, row.form].join('\0')).digest('hex').slice(0, 16)}`;
  return {
    id,
    name: row.name,
    manufacturer: row.manufacturer || null,
    generic_name: row.composition || row.name,
    strength: row.strength || null,
    strengths: row.strength ? [row.strength] : [],
    dosage_form: row.form || null,
    category: null,
    tpg_list: classifyComposition(row.composition, nlem, row.form),
    basis: row.composition ? 'composition' : null,
    source: 'brand',
  };
}

/**
 * The search index, answering in the order of contracts' medicineMatchRank: every name's normalized text in one
 * string (names in alphabetical order, one per line), the names again sorted without spaces (prefixes with spaces
 * and hyphens ignored), the distinct generic compositions and ingredients sorted with their entries (brands by their
 * generic), the offsets where words start sorted by the text that follows them (prefix and word-start matches are
 * binary searches), and substring matches found through a trigram index (each trigram's entries). One typo (a letter
 * missing, extra, wrong or two swapped) is tolerated for queries of 4 letters or more, by looking up each variant
 * among the word starts that share its unedited beginning.
 */
export class MedicineIndex {
  private readonly entries: MedicineEntry[];
  private readonly text: string;
  /** Start offset of each entry's line in `text` (ascending), for mapping a hit back to its entry. */
  private readonly lineStarts: Int32Array;
  /** Offsets of word starts, sorted by the text from there. */
  private readonly wordStarts: Int32Array;
  private readonly byId: Map<string, MedicineEntry> = new Map();
  /**
   * The word starts' ranges by their first one and two characters, and which characters follow each first one:
   * the typo search's widest lookups (an edit in the first two letters) without binary searches over every word.
   */
  private readonly heads = new Map<string, [number, number]>();
  /** Each entry's normalized name, in entry order. */
  private readonly keys: string[];
  /** Substring search: for each three-character sequence, the entries (ascending) whose name holds it. */
  private readonly trigrams = new Map<number, Int32Array>();
  private readonly following = new Map<string, string[]>();
  /** The entries sorted by their name without spaces. */
  private readonly compactOrder: Int32Array;
  private readonly generics: Postings;
  private readonly ingredients: Postings;

  /**
   * The index of `entries`, from its parts (indexParts of their names): computed here when not given, or handed over
   * by buildMedicineIndex from a worker thread, where a large catalogue's sorting does not hold up the server.
   */
  constructor(
    entries: MedicineEntry[],
    parts: IndexParts = indexParts(
      entries.map((e) => e.name),
      entries.map((e) => e.generic_name),
    ),
    sorted?: { entries: MedicineEntry[]; byId: Map<string, MedicineEntry> },
  ) {
    if (sorted) {
      this.entries = sorted.entries;
      this.byId = sorted.byId;
    } else {
      this.entries = Array.from(parts.order, (i) => entries[i]!);
      for (const entry of this.entries) this.byId.set(entry.id, entry);
    }
    this.text = parts.text;
    this.lineStarts = parts.lineStarts;
    this.wordStarts = parts.wordStarts;
    this.keys = this.entries.length ? parts.text.slice(0, -1).split('\n') : [];
    for (let k = 0; k < parts.trigramKeys.length; k += 1) this.trigrams.set(parts.trigramKeys[k]!, parts.trigramPostings.subarray(parts.trigramStarts[k]!, parts.trigramStarts[k + 1]!));
    for (const [head, from, to] of parts.heads) this.heads.set(head, [from, to]);
    for (const [prefix, next] of parts.following) this.following.set(prefix, next);
    this.compactOrder = parts.compactOrder;
    this.generics = parts.generics;
    this.ingredients = parts.ingredients;
  }

  /**
   * Entries holding `q` anywhere, in alphabetical order, until `full()`: for 3 characters or more, the entries of the
   * query's rarest trigram, each checked; for 2, one pass of indexOf over the text.
   */
  private substrings(q: string, add: (index: number) => void, full: () => boolean): void {
    if (q.length < 3) {
      for (let from = 0; !full(); ) {
        const at = this.text.indexOf(q, from);
        if (at < 0) break;
        const index = this.indexAt(at);
        add(index);
        from = this.lineStarts[index + 1] ?? this.text.length;
      }
      return;
    }
    let rarest: Int32Array | null = null;
    for (let j = 0; j + 3 <= q.length; j += 1) {
      const list = this.trigrams.get(trigram(q, j));
      if (!list) return;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    for (let k = 0; k < rarest!.length && !full(); k += 1) {
      const index = rarest![k]!;
      if (this.keys[index]!.includes(q)) add(index);
    }
  }

  get size(): number {
    return this.entries.length;
  }

  get(id: string): MedicineEntry | null {
    return this.byId.get(id) ?? null;
  }

  /** The entry whose generic or brand name is exactly this (normalized), preferring an oral form. */
  byName(name: string): MedicineEntry | null {
    const key = normalize(name);
    if (!key) return null;
    let i = this.lowerBound(key);
    let found: MedicineEntry | null = null;
    for (; i < this.wordStarts.length; i += 1) {
      const at = this.wordStarts[i]!;
      if (!this.text.startsWith(key, at)) break;
      const entry = this.entryAt(at);
      if (at === this.lineStarts[this.indexAt(at)] && normalize(entry.name) === key) {
        if (!found || (entry.dosage_form && /tablet|capsule/i.test(entry.dosage_form))) found = entry;
      }
    }
    return found;
  }

  private indexAt(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private entryAt(offset: number): MedicineEntry {
    return this.entries[this.indexAt(offset)]!;
  }

  /** Compares the text at `at` (its first key.length characters) with `key`, without copying it. */
  private compareAt(at: number, key: string): number {
    const text = this.text;
    for (let k = 0; k < key.length; k += 1) {
      const d = text.charCodeAt(at + k) - key.charCodeAt(k);
      if (d !== 0 || at + k >= text.length) return d || -1;
    }
    return 0;
  }

  /** The first word start whose text is not before `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.wordStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compareAt(this.wordStarts[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first entry (alphabetical, as `lineStarts` is) whose name is not before `key`. */
  private lowerEntry(key: string): number {
    let lo = 0;
    let hi = this.lineStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compareAt(this.lineStarts[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Name prefixes (a binary search over the names, which are sorted: "pan" finds Pan 40 and Pan-D before Pancuronium;
   * then one over the names without spaces: "pan40" finds Pan 40), then generic prefixes (the brands of a generic,
   * by their composition, then by an ingredient), then word starts (one over the sorted word starts, skipping what is
   * already found: at most `limit` steps more than it keeps), then substrings (the entries of the query's rarest
   * trigram, checked), then one-typo variants looked up among the word starts. Work follows `limit` and the rarest
   * trigram's entries, not the catalogue's size (a two-letter substring scans the text).
   */
  search(query: string, limit: number): MedicineEntry[] {
    const q = normalize(query);
    if (q.length < 2 || limit < 1) return [];
    const result: number[] = [];
    const seen = new Set<number>();
    const add = (index: number) => {
      if (seen.has(index)) return;
      seen.add(index);
      result.push(index);
    };
    const full = () => result.length >= limit;
    for (let i = this.lowerEntry(q); i < this.lineStarts.length && result.length < limit; i += 1) {
      if (!this.text.startsWith(q, this.lineStarts[i]!)) break;
      add(i);
    }
    const compact = q.replace(/ /g, '');
    if (!full()) this.compactPrefixes(compact, add, full);
    if (!full()) this.postingPrefixes(this.generics, compact, add, full);
    if (!full()) this.postingPrefixes(this.ingredients, compact, add, full);
    for (let i = this.lowerBound(q); i < this.wordStarts.length && result.length < limit; i += 1) {
      const at = this.wordStarts[i]!;
      if (!this.text.startsWith(q, at)) break;
      add(this.indexAt(at));
    }
    if (result.length < limit) this.substrings(q, add, () => result.length >= limit);
    if (result.length < limit && q.length >= 4) this.oneTypo(q, add, () => result.length >= limit);
    return result.map((i) => this.entries[i]!);
  }

  /** The entries whose name without spaces starts with `compact`, in that order. */
  private compactPrefixes(compact: string, add: (index: number) => void, full: () => boolean): void {
    const key = (k: number) => this.keys[this.compactOrder[k]!]!.replace(/ /g, '');
    let lo = 0;
    let hi = this.compactOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(mid) < compact) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < this.compactOrder.length && !full() && key(k).startsWith(compact); k += 1) add(this.compactOrder[k]!);
  }

  /** The entries of every key starting with `compact`, key by key (each key's entries alphabetical). */
  private postingPrefixes(postings: Postings, compact: string, add: (index: number) => void, full: () => boolean): void {
    const { keys, starts, entries } = postings;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid]! < compact) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < keys.length && !full() && keys[k]!.startsWith(compact); k += 1) {
      for (let p = starts[k]!; p < starts[k + 1]! && !full(); p += 1) add(entries[p]!);
    }
  }

  /** [from, to) of the word starts that begin with `key`, looked for within [lo, hi). */
  private rangeOf(key: string, lo: number, hi: number): [number, number] {
    if (key.length <= 2) {
      const head = this.heads.get(key);
      // Within [lo, hi), as asked (the head's range lies inside any range its own prefix gave).
      return head ? [Math.max(head[0], lo), Math.min(head[1], hi)] : [lo, lo];
    }
    let a = lo;
    let b = hi;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (this.compareAt(this.wordStarts[mid]!, key) < 0) a = mid + 1;
      else b = mid;
    }
    const from = a;
    b = hi;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (this.compareAt(this.wordStarts[mid]!, key) <= 0) a = mid + 1;
      else b = mid;
    }
    return [from, a];
  }

  /**
   * Word starts one edit from `q` (a letter missing, two swapped, one wrong, one extra; nearest kinds first). An edit
   * at position e keeps q's first e characters, so it is looked for only among the word starts that begin with them
   * (found once per e, each within the last), and a wrong or extra letter is tried only where some name has it: the
   * work follows the names near the query, not every letter at every position.
   */
  private oneTypo(q: string, add: (index: number) => void, full: () => boolean): void {
    const ranges: Array<[number, number]> = [[0, this.wordStarts.length]];
    for (let e = 1; e <= q.length; e += 1) {
      const [lo, hi] = ranges[e - 1]!;
      ranges.push(lo < hi ? this.rangeOf(q.slice(0, e), lo, hi) : [lo, lo]);
    }
    const tried = new Set<string>([q]);
    const take = (variant: string, [lo, hi]: [number, number]) => {
      if (variant.length < 3 || tried.has(variant) || lo >= hi) return;
      tried.add(variant);
      const [from, to] = this.rangeOf(variant, lo, hi);
      for (let i = from; i < to && !full(); i += 1) add(this.indexAt(this.wordStarts[i]!));
    };
    for (let e = 0; e < q.length && !full(); e += 1) take(q.slice(0, e) + q.slice(e + 1), ranges[e]!);
    for (let e = 0; e + 1 < q.length && !full(); e += 1) take(q.slice(0, e) + q[e + 1] + q[e] + q.slice(e + 2), ranges[e]!);
    // What follows q's first e characters in the names: each distinct next character, with its range.
    const nextCharacters = (e: number, visit: (c: string, range: [number, number]) => void) => {
      const [lo, hi] = ranges[e]!;
      const prefix = q.slice(0, e);
      if (e <= 1) {
        for (const c of this.following.get(prefix) ?? []) if (!full()) visit(c, this.heads.get(prefix + c)!);
        return;
      }
      for (let i = lo; i < hi && !full(); ) {
        const c = this.text[this.wordStarts[i]! + e]!;
        const group = this.rangeOf(prefix + c, i, hi);
        if (c !== '\n') visit(c, group);
        i = Math.max(group[1], i + 1);
      }
    };
    for (let e = 0; e < q.length && !full(); e += 1) nextCharacters(e, (c, range) => take(q.slice(0, e) + c + q.slice(e + 1), range));
    for (let e = 0; e <= q.length && !full(); e += 1) nextCharacters(e, (c, range) => take(q.slice(0, e) + c + q.slice(e), range));
  }
}

/** Below this many entries the index is built in place: a thread would cost more than the build (NLEM alone: 640). */
export const THREAD_BUILD_MIN_ENTRIES = 20_000;

/**
 * The index of a catalogue, built without holding up the process: the sorting and the trigram lists (2–5 s for
 * NLEM with 250 000 brands) run in a worker thread, which hands back the parts; only the entries' lookups are made
 * here. A small catalogue is built in place. Should the thread fail, the build happens here, late rather than never.
 */
export async function buildMedicineIndex(entries: MedicineEntry[]): Promise<MedicineIndex> {
  if (entries.length < THREAD_BUILD_MIN_ENTRIES) return new MedicineIndex(entries);
  const worker = typescriptWorker(new URL('./index-thread.ts', import.meta.url));
  let parts: IndexParts;
  try {
    parts = await new Promise<IndexParts>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`The medicine index thread stopped (exit code ${code})`)));
      // Two strings, not arrays of 250 000 (a copy of one string is far cheaper to send). A NUL inside a text would
      // split it: the index reads any character but letters and digits as a space, so it is one.
      const joined = (texts: string[]) => texts.map((t) => (t.includes('\0') ? t.replaceAll('\0', ' ') : t)).join('\0');
      worker.postMessage({ names: joined(entries.map((e) => e.name)), generics: joined(entries.map((e) => e.generic_name)) });
    });
  } catch {
    return new MedicineIndex(entries);
  } finally {
    void worker.terminate();
  }
  // The entries in the index's order and by id, a slice at a time between turns of the event loop.
  const sorted: MedicineEntry[] = new Array(entries.length);
  const byId = new Map<string, MedicineEntry>();
  for (let from = 0; from < entries.length; from += BUILD_SLICE) {
    for (let i = from; i < Math.min(entries.length, from + BUILD_SLICE); i += 1) {
      const entry = entries[parts.order[i]!]!;
      sorted[i] = entry;
      byId.set(entry.id, entry);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return new MedicineIndex(entries, parts, { entries: sorted, byId });
}

/** Entries placed per turn of the event loop when a built index is taken in. */
const BUILD_SLICE = 2000;

export function suggestion(entry: MedicineEntry): MedicineSuggestion {
  return { id: entry.id, name: entry.name, generic_name: entry.generic_name, manufacturer: entry.manufacturer, strength: entry.strength, strengths: entry.strengths, dosage_form: entry.dosage_form, tpg_list: entry.tpg_list };
}

/** A strength as compared: case, spaces and punctuation ignored ("500mg" is "500 mg"). */
const strengthKey = (text: string) => normalize(text).replace(/ /g, '');

/** The catalogue's own spelling of `strength` when the entry lists it, else null. */
export function listedStrength(entry: MedicineEntry, strength: string): string | null {
  const key = strengthKey(strength);
  return entry.strengths.find((s) => strengthKey(s) === key) ?? null;
}

/** An entry stored before `strengths` existed (an earlier import's blob): its one strength as the list. */
function withStrengths(entry: MedicineEntry): MedicineEntry {
  return Array.isArray(entry.strengths) ? entry : { ...entry, strengths: entry.strength ? [entry.strength] : [] };
}

/** What ships: NLEM 2022 and the brands most prescribed in India (contracts' INDIAN_BRANDS), classified by NLEM. */
export function shippedMedicines(nlem = loadNlem()): MedicineEntry[] {
  return [...nlem, ...INDIAN_BRANDS.map((brand) => indianBrandEntry(brand, nlem))];
}

/**
 * The catalogue the product searches and prescribes from: NLEM 2022 and the Indian brands (shipped), and the latest
 * imported brand catalogue (a blob named by the last MedicineCatalogueImported event on its stream, looked at again at
 * most every few seconds). Both services keep one; it is rebuilt only when a new import appears.
 */
export class MedicineCatalogue {
  private readonly nlem = loadNlem();
  private readonly shipped = shippedMedicines(this.nlem);
  private index = new MedicineIndex(this.shipped);
  private blobId: string | null = null;
  /** The last import event read: each look reads only the imports after it, not every import ever made. */
  private revision = -1;
  private checkedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly deps: { eventStore?: EventStore; blobs?: BlobStore; refreshMs?: number }) {}

  get nlemEntries(): MedicineEntry[] {
    return this.nlem;
  }

  /** The index, with the latest import loaded. */
  async current(): Promise<MedicineIndex> {
    const { eventStore, blobs } = this.deps;
    if (!eventStore || !blobs || Date.now() - this.checkedAt < (this.deps.refreshMs ?? 5000)) return this.index;
    this.loading ??= (async () => {
      try {
        const events = await eventStore.readStream(streams.medicineCatalogue(), { fromRevision: this.revision + 1 });
        const last = events.at(-1);
        const blobId = last ? (last.data as { blob_id: string }).blob_id : null;
        if (blobId && blobId !== this.blobId) {
          const brands: MedicineEntry[] = [];
          let rest = '';
          for await (const chunk of (await blobs.open(blobId)) as Readable) {
            const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
            rest = lines.pop()!;
            for (const line of lines) if (line) brands.push(withStrengths(JSON.parse(line) as MedicineEntry));
          }
          this.index = await buildMedicineIndex([...this.shipped, ...brands]);
          this.blobId = blobId;
        }
        if (last) this.revision = last.revision;
        this.checkedAt = Date.now();
      } finally {
        this.loading = null;
      }
    })();
    await this.loading;
    return this.index;
  }
}
