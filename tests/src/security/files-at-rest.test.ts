import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { loadConfig } from '@telemed/platform';
import { createApp, type App } from '@telemed/all-in-one';
import { tmpDataDir } from '../support/test-app';

/** Who besides the owner may read or write a path: the group and other permission bits. */
const othersBits = (path: string): number => statSync(path).mode & 0o077;

describe('files at rest: the data directory and the built frontend', () => {
  let app: App;
  let dataDir: string;
  before(async () => {
    const dir = tmpDataDir();
    dataDir = join(dir, 'data');
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'assets', 'main-abc123.js.map'), '{"version":3,"sourcesContent":["secret source"]}');
    app = await createApp({ config: loadConfig({ DATA_DIR: dataDir, DEMO_DATA: 'off', LOG_LEVEL: 'silent' }), frontendDir: dist });
    await app.start();
  });
  after(() => app.stop());

  it('keeps DATA_DIR and every file in it to the account the product runs as (0700, 0600)', async () => {
    // A write, so that the event log and the read models have their write-ahead logs too.
    await supertest(app.app).post('/api/v1/auth/login').send({ email: 'nobody@example.in', password: 'wrong password 1' });
    assert.equal(statSync(dataDir).mode & 0o777, 0o700, 'DATA_DIR is 0700');
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    for (const name of ['events.db', 'keys.db', 'read-models.db', 'token-secret', 'master-key']) {
      assert.ok(files.some((f) => f.name === name), `${name} exists`);
    }
    for (const file of files) assert.equal(othersBits(join(file.parentPath, file.name)), 0, `${file.name} is readable by others`);
  });

  it('tightens a DATA_DIR created open by an earlier version at the next start', async () => {
    const dir = join(tmpDataDir(), 'open');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, 'events.db'), '', { mode: 0o644 });
    const again = await createApp({ config: loadConfig({ DATA_DIR: dir, DEMO_DATA: 'off', LOG_LEVEL: 'silent' }) });
    try {
      await again.start();
      assert.equal(othersBits(dir), 0);
      assert.equal(othersBits(join(dir, 'events.db')), 0);
    } finally {
      await again.stop();
    }
  });

  it('never serves a source map, though the build left one beside its asset', async () => {
    await supertest(app.app).get('/assets/main-abc123.js').expect(200);
    const map = await supertest(app.app).get('/assets/main-abc123.js.map').expect(404);
    assert.doesNotMatch(map.text, /secret source/);
    await supertest(app.app).get('/assets/MAIN-abc123.js.MAP').expect(404);
  });
});
