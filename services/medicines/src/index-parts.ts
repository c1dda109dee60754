import { compactMedicineText, compositionIngredients, normalizeMedicineText } from '@telemed/contracts/medicine-search';

/**
 * The medicine index's parts, computed from the names and generics alone: no I/O and no import of the platform, so
 * that the index's worker thread (index-thread.ts) loads only this (and the matching rules it shares with contracts).
 */

export const normalize = normalizeMedicineText;

/**
 * A trigram's key: ten bits of each character, a small integer (fast as a Map key). Characters beyond 1023 can share
 * a key; that only adds candidates, which the substring search checks anyway.
 */
export function trigram(key: string, j: number): number {
  return ((key.charCodeAt(j) & 1023) << 20) | ((key.charCodeAt(j + 1) & 1023) << 10) | (key.charCodeAt(j + 2) & 1023);
}

/**
 * What MedicineIndex is made of besides its entries, computed from the names alone, in plain strings and typed
 * arrays (so that a worker thread can compute them and hand them over, the arrays without a copy): the entries'
 * order (by normalized name), the names' text, where each line and each word starts (word starts sorted by the text
 * that follows), each trigram's entries (as one postings array with offsets), and the typo search's head ranges.
 */
export interface IndexParts {
  order: Int32Array;
  text: string;
  lineStarts: Int32Array;
  wordStarts: Int32Array;
  trigramKeys: Int32Array;
  /** Where each trigram's entries start in `trigramPostings` (one more than the keys: the end). */
  trigramStarts: Int32Array;
  trigramPostings: Int32Array;
  heads: Array<[string, number, number]>;
  following: Array<[string, string[]]>;
  /** The entries (by their place in `order`) sorted by their compact name (no spaces): name prefixes, spaces ignored. */
  compactOrder: Int32Array;
  /** Each distinct compact generic composition, sorted, with its entries: generic prefixes. */
  generics: Postings;
  /** Each distinct compact ingredient, sorted, with the entries holding it: ingredient prefixes. */
  ingredients: Postings;
}

/** Sorted keys, and for each the entries (by their place in `order`, ascending: alphabetical by name) that have it. */
export interface Postings {
  keys: string[];
  /** Where each key's entries start in `entries` (one more than the keys: the end). */
  starts: Int32Array;
  entries: Int32Array;
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Postings of `keysOf(line)` for every line, in line order (so each key's entries are alphabetical). */
function postingsOf(lines: number, keysOf: (line: number) => readonly string[]): Postings {
  const lists = new Map<string, number[]>();
  for (let line = 0; line < lines; line += 1) {
    for (const key of new Set(keysOf(line))) {
      const list = lists.get(key);
      if (list) list.push(line);
      else lists.set(key, [line]);
    }
  }
  const keys = [...lists.keys()].sort();
  const starts = new Int32Array(keys.length + 1);
  let total = 0;
  keys.forEach((key, k) => {
    starts[k] = total;
    total += lists.get(key)!.length;
  });
  starts[keys.length] = total;
  const entries = new Int32Array(total);
  keys.forEach((key, k) => entries.set(lists.get(key)!, starts[k]!));
  return { keys, starts, entries };
}

/** The parts of the index of these names, each entry's generic composition at the same place in `generics`. */
export function indexParts(names: readonly string[], generics: readonly string[]): IndexParts {
  const keyed = names.map((name, i) => ({ i, key: normalize(name) })).sort(byKey);
  const order = Int32Array.from(keyed, (k) => k.i);
  const lineStarts = new Int32Array(keyed.length);
  const parts: string[] = [];
  let offset = 0;
  const starts: number[] = [];
  keyed.forEach(({ key }, i) => {
    lineStarts[i] = offset;
    starts.push(offset);
    for (let j = 1; j < key.length; j += 1) if (key[j - 1] === ' ') starts.push(offset + j);
    parts.push(key);
    offset += key.length + 1;
  });
  const text = parts.join('\n') + '\n';

  // One pass over the names: each trigram's entries in a list (an entry once per trigram), then one postings array.
  const lists = new Map<number, number[]>();
  const inKey: number[] = [];
  parts.forEach((key, i) => {
    inKey.length = 0;
    for (let j = 0; j + 3 <= key.length; j += 1) {
      const t = trigram(key, j);
      if (inKey.includes(t)) continue;
      inKey.push(t);
      const list = lists.get(t);
      if (list) list.push(i);
      else lists.set(t, [i]);
    }
  });
  const trigramKeys = new Int32Array(lists.size);
  const trigramStarts = new Int32Array(lists.size + 1);
  let postings = 0;
  for (const list of lists.values()) postings += list.length;
  const trigramPostings = new Int32Array(postings);
  let k = 0;
  let at = 0;
  for (const [t, list] of lists) {
    trigramKeys[k] = t;
    trigramStarts[k] = at;
    trigramPostings.set(list, at);
    at += list.length;
    k += 1;
  }
  trigramStarts[k] = at;

  // Sorted by the text from each word start to its line's end: the text, then \u0001 (before any character a name
  // has, so a shorter text sorts first, as with <) and the offset, sorted by the engine's own string order.
  const sortKeys = starts.map((s) => `${text.slice(s, text.indexOf('\n', s))}\u0001${s}`).sort();
  const wordStarts = Int32Array.from(sortKeys, (key) => Number(key.slice(key.lastIndexOf('\u0001') + 1)));
  const heads = new Map<string, [number, number]>();
  const following = new Map<string, string[]>();
  for (let i = 0; i < wordStarts.length; i += 1) {
    const start = wordStarts[i]!;
    for (const head of [text.slice(start, start + 1), text.slice(start, start + 2)]) {
      if (head.includes('\n')) continue;
      const range = heads.get(head);
      if (range) range[1] = i + 1;
      else {
        heads.set(head, [i, i + 1]);
        const parent = head.slice(0, -1);
        const list = following.get(parent) ?? [];
        list.push(head.slice(-1));
        following.set(parent, list);
      }
    }
  }
  const compactOrder = Int32Array.from(keyed.map(({ key }, line) => ({ line, key: key.replace(/ /g, '') })).sort(byKey), (k) => k.line);
  const genericOf = (line: number) => generics[keyed[line]!.i] ?? names[keyed[line]!.i]!;
  return {
    order,
    text,
    lineStarts,
    wordStarts,
    trigramKeys,
    trigramStarts,
    trigramPostings,
    heads: [...heads].map(([h, [from, to]]) => [h, from, to]),
    following: [...following],
    compactOrder,
    generics: postingsOf(keyed.length, (line) => [compactMedicineText(genericOf(line))]),
    ingredients: postingsOf(keyed.length, (line) => compositionIngredients(genericOf(line))),
  };
}

