import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { brotliCompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@telemed/platform';
import { createApp, type App } from '@telemed/all-in-one';
import { swapDist } from '../../../frontend/scripts/swap-dist.mjs';
import { tmpDataDir } from '../support/test-app';

/** What vite writes for build `id`: pages naming that build's hashed entry, the entry with its .br twin, a lazy chunk. */
function writeBuild(dir: string, id: number): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const page = `<!doctype html><html><head><script type="module" src="/assets/main-${id}.js"></script></head><div id="root"></div></html>`;
  for (const name of ['index', 'login', 'welcome', 'doctor']) writeFileSync(join(dir, `${name}.html`), page);
  const bundle = `console.log(${JSON.stringify(`build ${id} `.repeat(500))})`;
  writeFileSync(join(dir, 'assets', `main-${id}.js`), bundle);
  writeFileSync(join(dir, 'assets', `main-${id}.js.br`), brotliCompressSync(bundle));
  writeFileSync(join(dir, 'assets', `lazy-${id}.js`), `export const build = ${id};`);
}

// frontend/scripts/build.mjs builds into a sibling directory and swaps it in: a server running on the old build keeps
// answering throughout, and a tab still open on the previous build can still load its hashed chunks.
describe('a new frontend build swapped in under a running server', () => {
  let app: App;
  let base: string;
  let root: string;
  const dirs = () => ({ dist: join(root, 'dist'), next: join(root, '.dist-next'), old: join(root, '.dist-old') });
  before(async () => {
    root = tmpDataDir();
    writeBuild(dirs().dist, 1); // a build from before this script: no list of its own assets
    app = await createApp({ config: loadConfig({ DATA_DIR: join(root, 'data'), DEMO_DATA: 'off', LOG_LEVEL: 'silent' }), frontendDir: dirs().dist });
    await app.start();
    base = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  });
  after(() => app.stop());

  it('answers every page and its asset during five swaps, and keeps exactly the previous build’s assets', async () => {
    const failures: string[] = [];
    let requests = 0;
    let swapping = true;
    let building = 1; // the build being swapped in, or the last one
    // A browser's page loads: a page, then the entry its HTML names (brotli or not), over and over.
    const browse = async (worker: number) => {
      // The last: a doctor's page for an id that is no doctor's, answered 404 with the app (which says 'Doctor not found').
      const paths = ['/', '/login', '/welcome', '/doctor-home', '/34cb5dd3-d7f4-4dd7-8824-a28eedd3ef7e'];
      const expected = (path: string) => (path.startsWith('/34cb5dd3') ? 404 : 200);
      for (let i = worker; swapping; i++) {
        const path = paths[i % paths.length]!;
        const page = await fetch(base + path);
        const html = await page.text();
        requests++;
        const entry = /src="(\/assets\/main-\d+\.js)"/.exec(html)?.[1];
        if (page.status !== expected(path) || !entry) {
          failures.push(`${path}: ${page.status} ${html.slice(0, 80)}`);
          continue;
        }
        const asset = await fetch(base + entry, { headers: { 'Accept-Encoding': i % 2 ? 'br' : 'identity' } });
        const body = await asset.arrayBuffer();
        requests++;
        // A page fetched two builds ago (its asset request slow, rare) may find its entry gone: only one build is kept.
        if (asset.status !== 200 && Number(/\d+/.exec(entry)![0]) >= building - 1) failures.push(`${entry} (named by ${path}) while building ${building}: ${asset.status} ${Buffer.from(body).toString().slice(0, 80)}`);
      }
    };
    const browsing = [0, 1, 2, 3, 4, 5].map(browse);
    try {
      for (let id = 2; id <= 6; id++) {
        await delay(40);
        writeBuild(dirs().next, id);
        building = id;
        await swapDist(dirs());
        assert.equal(existsSync(dirs().next), false, 'the new build was moved into place');
        assert.equal(existsSync(dirs().old), false, 'the replaced build was removed');
        const previous = await fetch(`${base}/assets/lazy-${id - 1}.js`);
        assert.equal(previous.status, 200, `build ${id - 1}'s chunk after build ${id} was swapped in: ${await previous.text()}`);
      }
      await delay(40);
    } finally {
      swapping = false;
      await Promise.all(browsing);
    }
    assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed during the swaps`);
    assert.ok(requests > 50, `requests were answered while swapping (${requests})`);

    // After build 6: its own files and build 5's (with their .br twins), nothing older.
    assert.deepEqual(
      readdirSync(join(dirs().dist, 'assets')).sort(),
      ['lazy-5.js', 'lazy-6.js', 'main-5.js', 'main-5.js.br', 'main-6.js', 'main-6.js.br'],
      'assets after the last swap',
    );
    const old = await fetch(`${base}/assets/main-5.js`, { headers: { 'Accept-Encoding': 'br' } });
    assert.equal(old.status, 200, 'the previous build’s entry is still served');
    assert.equal(old.headers.get('content-encoding'), 'br', 'with its precompressed twin');
    assert.match(await old.text(), /build 5/, 'the previous build’s entry');
    assert.equal((await fetch(`${base}/assets/main-4.js`)).status, 404, 'two builds ago is gone');
    assert.match(await (await fetch(`${base}/`)).text(), /main-6\.js/, 'the page names the new build');
  });
});
