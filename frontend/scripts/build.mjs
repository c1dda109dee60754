// `npm run build`: vite builds into a sibling directory, which then replaces dist in one step (swap-dist.mjs), so a
// running server keeps serving the previous build, whole, until the new one is complete.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { swapDist } from './swap-dist.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const next = join(root, '.dist-next');
const old = join(root, '.dist-old');

await rm(next, { recursive: true, force: true });
const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
const build = spawnSync(process.execPath, [vite, 'build', '--outDir', next, '--emptyOutDir', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  await rm(next, { recursive: true, force: true });
  process.exit(build.status ?? 1);
}
// Source maps stay with the checkout for reading stack traces, never among the files the server sends.
const maps = join(root, 'sourcemaps');
await rm(maps, { recursive: true, force: true });
await mkdir(maps, { recursive: true });
for (const name of await readdir(join(next, 'assets'))) {
  if (name.endsWith('.map')) await rename(join(next, 'assets', name), join(maps, name));
}
const { carried } = await swapDist({ next, dist, old });
console.log(`dist replaced by the new build (${carried} asset file(s) of the previous build kept for pages still open on it)`);
