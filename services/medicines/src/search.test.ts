import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { medicineMatchRank } from '@telemed/contracts/medicine-search';
import { INDIAN_BRANDS, brandGeneric } from '@telemed/contracts/indian-brands';
import { MedicineIndex, brandEntry, classifyComposition, loadNlem, normalize, shippedMedicines, type MedicineEntry } from './catalogue';
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

/**
 * The rank the rules give an entry for a query: contracts' medicineMatchRank (name prefix, generic prefix, ingredient
 * prefix, word start, substring), then one typo (5); null no match.
 */
function rankOf(entry: MedicineEntry, q: string, variants: Set<string>): number | null {
  const rank = medicineMatchRank(q, entry);
  if (rank !== null) return rank;
  const words = normalize(entry.name).split(' ').map((_, i, all) => all.slice(i).join(' '));
  if (q.length >= 4 && words.some((w) => [...variants].some((v) => w.startsWith(v)))) return 5;
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
      if (next() < 0.2) q = q.replace(/ /g, ''); // typed without its spaces
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
      for (const r of [0, 1, 2, 3, 4, 5]) {
        const better = all.filter((x) => x <= r).length;
        assert.ok(ranks.filter((x) => x! <= r).length >= Math.min(better, limit), `"${q}": rank ${r} matches kept first`);
      }
    }
  });
});

describe('Indian brands: found by brand or generic, exact prefixes first', () => {
  const shipped = shippedMedicines(nlem);
  const index = new MedicineIndex(shipped);
  const found = (q: string, limit = 10) => index.search(q, limit);
  const names = (q: string, limit = 10) => found(q, limit).map((e) => e.name);

  it('"dolo" is Dolo 650 (paracetamol) first: no HIV medicine, nor Olopatadine, above it', () => {
    const dolo = found('dolo');
    assert.equal(dolo[0]?.name, 'Dolo 650');
    assert.equal(dolo[0]?.generic_name, 'Paracetamol');
    assert.deepEqual(dolo[0]?.strengths, ['650 mg']);
    const unrelated = dolo.findIndex((e) => !normalize(e.name).startsWith('dolo'));
    assert.ok(unrelated > 0, 'the names starting with "dolo" come first');
    assert.ok(dolo.slice(0, unrelated).every((e) => normalize(e.name).startsWith('dolo')));
    // Without the brand, the same query suggested Olopatadine and Dolutegravir (one typo away) alone.
    assert.ok(new MedicineIndex(nlem).search('dolo', 10).some((e) => e.name === 'Dolutegravir'), 'the typo match the issue saw still exists');
  });

  it('"crocin" finds Crocin; brands are found with spaces and hyphens ignored, in any case', () => {
    assert.deepEqual(names('crocin'), ['Crocin 650', 'Crocin Advance']);
    for (const q of ['pan 40', 'pan40', 'PAN-40', 'Pan 40']) assert.equal(names(q)[0], 'Pan 40', q);
    assert.equal(names('augmentin625')[0], 'Augmentin 625 Duo');
    assert.equal(names('montair lc')[0], 'Montair LC');
    assert.equal(names('montairlc')[0], 'Montair LC');
  });

  it('"paracetamol" finds the generic first, then its brands, then the brands that hold it', () => {
    const all = found('paracetamol', 50);
    const generic = all.findIndex((e) => e.source === 'brand');
    assert.ok(generic > 0 && all.slice(0, generic).every((e) => e.name === 'Paracetamol'), 'the NLEM entries first');
    const brandNames = all.map((e) => e.name);
    for (const brand of ['Dolo 650', 'Crocin 650', 'Crocin Advance', 'Calpol 500', 'Calpol 650', 'Combiflam', 'Zerodol-P']) assert.ok(brandNames.includes(brand), brand);
    assert.ok(brandNames.indexOf('Dolo 650') < brandNames.indexOf('Combiflam'), 'a brand of paracetamol before a combination that holds it');
    assert.ok(all.every((e) => normalize(e.generic_name).includes('paracetamol')), 'nothing without paracetamol');
    assert.equal(names('clavulanic')[0], 'Amoxicillin + Clavulanic acid');
    assert.ok(names('clavulanic').includes('Augmentin 625 Duo'), 'a brand found by its second ingredient');
  });

  it('"pan" ranks Pan 40 above every name that does not start with "pan"', () => {
    const pan = names('pan', 20);
    const panForty = pan.indexOf('Pan 40');
    assert.ok(panForty >= 0 && panForty < 3, pan.join());
    assert.ok(pan.slice(0, panForty).every((n) => normalize(n).startsWith('pan')), pan.join());
    const firstOther = pan.findIndex((n) => !normalize(n).startsWith('pan'));
    assert.ok(firstOther > panForty, pan.join());
    assert.ok(pan.slice(0, firstOther).includes('Pantoprazole'), 'the generic among the prefixes');
  });

  it('every brand is whole: maker, form, each ingredient with a strength, its sources; names unique; classified by NLEM', () => {
    const seen = new Set<string>();
    const nlemNames = new Set(nlem.map((e) => normalize(e.name)));
    for (const brand of INDIAN_BRANDS) {
      assert.ok(!seen.has(normalize(brand.brand)), `${brand.brand} twice`);
      seen.add(normalize(brand.brand));
      assert.ok(brand.manufacturer.trim() && brand.form.trim() && brand.ingredients.length > 0, brand.brand);
      for (const [generic, strength] of brand.ingredients) assert.ok(generic.trim() && /\d/.test(strength), `${brand.brand}: ${generic} ${strength}`);
      assert.ok(brand.sources.includes('label'), `${brand.brand}: its label`);
      // "nlem" claims NLEM 2022 names the generic: each ingredient, or the combination as a whole.
      const listed = nlemNames.has(normalize(brandGeneric(brand))) || brand.ingredients.every(([generic]) => nlemNames.has(normalize(generic)));
      assert.equal(brand.sources.includes('nlem'), listed, `${brand.brand}: sources ${brand.sources.join()} (in NLEM: ${listed})`);
    }
    assert.ok(INDIAN_BRANDS.length >= 150, `${INDIAN_BRANDS.length} brands`);
    assert.equal(new Set(shipped.map((e) => e.id)).size, shipped.length, 'ids unique');
    const list = (name: string) => shipped.find((e) => e.name === name)?.tpg_list;
    assert.equal(list('Dolo 650'), 'O');
    assert.equal(list('Ultracet'), 'prohibited', 'tramadol (NDPS) in any form');
    assert.equal(list('Pan-D'), 'A', 'an oral capsule is not held to the list of pantoprazole injection');
    assert.equal(list('Zerodol-P'), 'A', 'aceclofenac (not in NLEM) keeps paracetamol\'s combination at A at least');
    assert.equal(list('Monocef 1 g'), 'B');
    assert.equal(classifyComposition('Pantoprazole', nlem, 'Injection'), 'B');
  });
});
