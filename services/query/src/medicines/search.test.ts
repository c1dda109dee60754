import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MedicineIndex, brandEntry, loadNlem, normalize, type MedicineEntry } from './catalogue';
import { generatedBrands, seededRandom } from './generated-catalogue';

const nlem = loadNlem();
const brand = (name: string, composition = 'Paracetamol', form = 'Tablet') => brandEntry({ name, manufacturer: 'Example Pharma Ltd', composition, strength: '500 mg', form }, nlem);

/** Every text one edit from q (the definition the index must agree with, written the slow way). */
function oneEdit(q: string): Set<string> {
  const out = new Set<string>();
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
  for (let i = 0; i < q.length; i += 1) out.add(q.slice(0, i) + q.slice(i + 1));
  for (let i = 0; i + 1 < q.length; i += 1) out.add(q.slice(0, i) + q[i + 1] + q[i] + q.slice(i + 2));
  for (let i = 0; i <= q.length; i += 1) for (const c of letters) out.add(q.slice(0, i) + c + q.slice(i));
  for (let i = 0; i < q.length; i += 1) for (const c of letters) out.add(q.slice(0, i) + c + q.slice(i + 1));
  out.delete(q);
  return new Set([...out].filter((v) => v.length >= 3));
}

/** The rank the rules give an entry for a query: 0 prefix, 1 word start, 2 substring, 3 one typo, null no match. */
function rankOf(entry: MedicineEntry, q: string, variants: Set<string>): number | null {
  const key = normalize(entry.name);
  if (key.startsWith(q)) return 0;
  const words = key.split(' ').map((_, i, all) => all.slice(i).join(' '));
  if (words.some((w) => w.startsWith(q))) return 1;
  if (key.includes(q)) return 2;
  if (q.length >= 4 && words.some((w) => [...variants].some((v) => w.startsWith(v)))) return 3;
  return null;
}

describe('medicine search index', () => {
  const index = new MedicineIndex([...nlem, brand('Calpolix 500'), brand('Dolo-650'), brand('Crocin Advance'), brand('Ácido Fólico Plus', 'Folic acid')]);
  const names = (q: string, limit = 10) => index.search(q, limit).map((e) => e.name);

  it('prefix matches first, then word starts, then substrings; case and accents ignored; at least 2 characters', () => {
    assert.deepEqual(names('p'), []);
    assert.equal(names('CALPO')[0], 'Calpolix 500');
    assert.equal(names('acido folico')[0], 'Ácido Fólico Plus');
    const advance = names('advance');
    assert.equal(advance[0], 'Crocin Advance', 'a word start');
    const cillin = index.search('cillin', 50);
    assert.ok(cillin.length > 0 && cillin.every((e) => normalize(e.name).includes('cillin')));
    const para = names('para', 3);
    assert.ok(para.every((n) => normalize(n).startsWith('para')), para.join());
  });

  it('one typo from 4 letters: a letter missing, extra, wrong, or two swapped', () => {
    for (const typo of ['paracetmol', 'paracetamoll', 'paracitamol', 'parcaetamol']) assert.ok(names(typo).includes('Paracetamol'), typo);
    assert.deepEqual(names('xqz'), []);
  });

  it('agrees with the rules written the slow way, on a generated catalogue and generated queries', () => {
    // The generated catalogue of the benchmark (another seed, fewer brands), and queries drawn from it.
    const next = seededRandom(7);
    const entries = [...nlem, ...generatedBrands(3000, nlem, 7)];
    const big = new MedicineIndex(entries);
    for (let n = 0; n < 150; n += 1) {
      const source = normalize(entries[Math.floor(next() * entries.length)]!.name);
      const start = Math.floor(next() * Math.max(1, source.length - 3));
      let q = source.slice(start, start + 2 + Math.floor(next() * 6));
      if (next() < 0.4 && q.length >= 4) {
        const at = Math.floor(next() * q.length);
        q = q.slice(0, at) + q.slice(at + 1) + (next() < 0.5 ? 'x' : '');
      }
      q = normalize(q); // as the index reads a query
      if (q.length < 2) continue;
      const limit = 1 + Math.floor(next() * 12);
      const variants = q.length >= 4 ? oneEdit(q) : new Set<string>();
      const found = big.search(q, limit);
      const ranks = found.map((e) => rankOf(e, q, variants));
      assert.ok(ranks.every((r) => r !== null), `"${q}": every result matches (${found.map((e) => e.name).join(', ')})`);
      assert.deepEqual([...ranks].sort(), ranks, `"${q}": better kinds of match first`);
      assert.equal(new Set(found.map((e) => e.id)).size, found.length, `"${q}": no entry twice`);
      const all = entries.map((e) => rankOf(e, q, variants)).filter((r): r is number => r !== null);
      assert.equal(found.length, Math.min(limit, all.length), `"${q}" (limit ${limit}): as many as match`);
      // Nothing better was left out: a match of rank r missing means the results are full of ranks up to r.
      for (const r of [0, 1, 2, 3]) {
        const better = all.filter((x) => x <= r).length;
        assert.ok(ranks.filter((x) => x! <= r).length >= Math.min(better, limit), `"${q}": rank ${r} matches kept first`);
      }
    }
  });
});
