import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { runNpm } from '../support/processes';

const dir = mkdtempSync(join(tmpdir(), 'telemed-brands-'));
const csv = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** Blob files under DATA_DIR/blobs (none before anything is stored). */
const blobFiles = (dataDir: string) =>
  existsSync(join(dataDir, 'blobs')) ? (readdirSync(join(dataDir, 'blobs'), { recursive: true }) as string[]).filter((p) => /[0-9a-f]{32}$/.test(p)) : [];

describe('npm run cli -- medicines:import FILE.csv', () => {
  let t: TestApp;
  let doctor: TestUser;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
  });
  after(() => t.close());

  it('a bad file: every bad row reported with its line number, exit 1, nothing stored', async () => {
    const file = csv(
      'bad.csv',
      [
        'name,manufacturer,composition,strength,form',
        'Calpolix 500,Example Pharma Ltd,Paracetamol 500 mg,500 mg,Tablet',
        ',Nobody Ltd,Ibuprofen 400 mg,400 mg,Tablet',
        'Only,three,fields',
        '"Quoted, with comma",Example Pharma Ltd,Cetirizine 10 mg,,Tablet',
        'Calpolix 500,Example Pharma Ltd,Paracetamol 500 mg,500 mg,Tablet',
        '',
      ].join('\n'),
    );
    const run = await runNpm(['cli', '--', 'medicines:import', file], { DATA_DIR: t.dataDir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /not imported \(nothing stored\)/);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('line '));
    assert.deepEqual(lines, ['line 3: name is empty', 'line 4: 3 fields where the header names 5', 'line 5: strength is empty', 'line 6: the same brand as line 2']);
    assert.equal(run.stdout, '');
    assert.deepEqual(await t.app.eventStore.log.readStream(streams.medicineCatalogue()), []);
    assert.deepEqual(blobFiles(t.dataDir), []);

    const header = await runNpm(['cli', '--', 'medicines:import', csv('header.csv', 'brand,maker\nX,Y\n')], { DATA_DIR: t.dataDir });
    assert.equal(header.code, 1);
    assert.match(header.stderr, /line 1: the header must name the columns name, manufacturer, composition, strength, form/);
    const missing = await runNpm(['cli', '--', 'medicines:import', join(dir, 'absent.csv')], { DATA_DIR: t.dataDir });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No such file/);
    assert.deepEqual(blobFiles(t.dataDir), []);
  });

  it('a good file is stored as one encrypted blob named by MedicineCatalogueImported, and the running search finds the brands', async () => {
    const file = csv(
      'good.csv',
      '\ufeffName,Manufacturer,Composition,Strength,Form\r\nCalpolix 500,Example Pharma Ltd,Paracetamol 500 mg,500 mg,Tablet\r\n"Amoxiclavix 625","Example Pharma, Ltd","Amoxicillin 500 mg + Clavulanic acid 125 mg",625 mg,Tablet\r\n',
    );
    const run = await runNpm(['cli', '--', 'medicines:import', file], { DATA_DIR: t.dataDir });
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as { import_id: string; rows: number };
    assert.equal(printed.rows, 2);
    const events = await t.app.eventStore.log.readStream(streams.medicineCatalogue());
    assert.deepEqual(events.map((e) => [e.type, (e.data as { import_id: string }).import_id]), [['MedicineCatalogueImported', printed.import_id]]);
    assert.equal(blobFiles(t.dataDir).length, 1);

    // The running app looks at the catalogue's stream again within a few seconds.
    let found: Array<{ id: string; name: string; manufacturer: string | null; strength: string | null; dosage_form: string | null; tpg_list: string | null }> = [];
    for (let i = 0; i < 100 && !found.some((m) => m.name === 'Calpolix 500'); i += 1) {
      found = (await t.http.get('/api/v1/medicines/search?q=calpol').set(doctor.auth).expect(200)).body;
      if (!found.length) await new Promise((r) => setTimeout(r, 100));
    }
    const brand = found.find((m) => m.name === 'Calpolix 500');
    assert.ok(brand, 'the brand is found by prefix');
    assert.deepEqual({ ...brand, id: undefined }, { id: undefined, name: 'Calpolix 500', generic_name: 'Paracetamol 500 mg', manufacturer: 'Example Pharma Ltd', strength: '500 mg', strengths: ['500 mg'], dosage_form: 'Tablet', tpg_list: 'O' });
    const amox = (await t.http.get('/api/v1/medicines/search?q=amoxiclav').set(doctor.auth).expect(200)).body as typeof found;
    assert.equal(amox[0]?.manufacturer, 'Example Pharma, Ltd');
    assert.equal(amox[0]?.tpg_list, 'A', 'classified by its composition under the strictest list of its ingredients');
    const generic = (await t.http.get('/api/v1/medicines/search?q=paracetamol').set(doctor.auth).expect(200)).body as typeof found;
    assert.ok(generic.some((m) => m.name === 'Paracetamol' && m.manufacturer === null), 'the shipped NLEM list stays beside the brands');
  });
});
