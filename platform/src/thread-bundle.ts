import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion } from 'esbuild';

/** Packages with native parts: a bundle requires them from where they are installed instead of copying their code. */
const INSTALLED = ['better-sqlite3'];

/** Where bundles are kept between runs: the install's own cache folder (rebuilt whenever a source changes). */
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/telemed-threads/', import.meta.url));

interface Cached {
  /** Each input's path with its size and modification time when the bundle was built. */
  inputs: Array<[path: string, size: number, mtimeMs: number]>;
  code: string;
}

const inProcess = new Map<string, string>();

function stamp(path: string): [string, number, number] {
  const stat = statSync(path);
  return [path, stat.size, stat.mtimeMs];
}

function fresh(cached: Cached): boolean {
  try {
    return cached.inputs.every(([path, size, mtimeMs]) => {
      const [, nowSize, nowMtime] = stamp(path);
      return nowSize === size && nowMtime === mtimeMs;
    });
  } catch {
    return false;
  }
}

function build(entry: string): Cached {
  const built = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: INSTALLED,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const root = process.cwd();
  const inputs = Object.keys(built.metafile.inputs).map((input) => stamp(resolve(root, input)));
  return { inputs, code: built.outputFiles[0]!.text };
}

/**
 * The script of a worker thread: the TypeScript module and what it imports as one CommonJS bundle, which the thread
 * runs without any loader (about 25 ms to its first message instead of 300 ms registering tsx's hooks and compiling
 * each module through them; a rebuild over an encrypted log read its first pages without the thread meanwhile).
 * Built by esbuild, which tsx runs on anyway, once per source version: kept on disk, checked by its inputs' sizes and
 * times. Throws when it cannot be built.
 */
export function threadScript(module: URL): string {
  const known = inProcess.get(module.href);
  if (known !== undefined) return known;
  const entry = fileURLToPath(module);
  const file = join(CACHE, `${createHash('sha256').update(`${esbuildVersion}\n${entry}`).digest('hex').slice(0, 16)}.json`);
  let cached: Cached | null;
  try {
    cached = JSON.parse(readFileSync(file, 'utf8')) as Cached;
  } catch {
    cached = null;
  }
  if (!cached || !fresh(cached)) {
    cached = build(entry);
    try {
      mkdirSync(dirname(file), { recursive: true });
      // Written aside and renamed, so another process starting at the same moment reads a whole bundle or none.
      const aside = `${file}.${process.pid}.tmp`;
      writeFileSync(aside, JSON.stringify(cached));
      renameSync(aside, file);
    } catch {
      // A read-only install builds once per process instead.
    }
  }
  // Required packages resolve from the module's own place, not from the eval'd script's working directory.
  const script = `(function (require) {\n${cached.code}\n})(require('node:module').createRequire(${JSON.stringify(module.href)}));`;
  inProcess.set(module.href, script);
  return script;
}
