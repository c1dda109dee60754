// Puts a finished build in place of the one a running server is serving, without a moment where the files are gone
// (a build emptying dist meant 503s and blank pages for ~20 s of a deploy). See scripts/build.mjs.
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The build's own hashed assets (not the previous build's carried over), read by the next swap. A dotfile: never served. */
export const OWN_ASSETS = '.build-assets.json';

async function listAssets(dir) {
  return readdir(join(dir, 'assets')).catch((error) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

/** The previous build's own assets: its manifest, or (a build from before the manifest) everything in its assets. */
async function ownAssets(dir) {
  try {
    const list = JSON.parse(await readFile(join(dir, OWN_ASSETS), 'utf8'));
    if (Array.isArray(list) && list.every((name) => typeof name === 'string' && !name.includes('/') && !name.includes('\\'))) return list;
  } catch (error) {
    if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  return listAssets(dir);
}

/**
 * Replaces `dist` by the complete build in `next`: the previous build's own assets it lacks are copied into it first
 * (a tab still open on the old build lazily loads its chunks by their hashed names), so exactly one previous build's
 * assets are kept and older ones go. Then dist is renamed aside to `old`, `next` renamed into place, `old` removed. The
 * two renames leave `dist` missing for an instant; the server waits that out (platform/src/http/static-frontend.ts).
 */
export async function swapDist({ next, dist, old }) {
  const own = await listAssets(next);
  await writeFile(join(next, OWN_ASSETS), JSON.stringify(own));
  const fresh = new Set(own);
  const carried = (await ownAssets(dist)).filter((name) => !fresh.has(name));
  if (carried.length > 0) await mkdir(join(next, 'assets'), { recursive: true });
  for (const name of carried) {
    await copyFile(join(dist, 'assets', name), join(next, 'assets', name)).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await rm(old, { recursive: true, force: true });
  const hadDist = await rename(dist, old).then(
    () => true,
    (error) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  await rename(next, dist);
  if (hadDist) await rm(old, { recursive: true, force: true });
  return { carried: carried.length };
}
