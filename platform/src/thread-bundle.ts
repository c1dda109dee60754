import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { version as esbuildVersion } from 'esbuild';

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

/** The esbuild executable of the installed package (the platform's binary, or its launcher). */
const ESBUILD = createRequire(import.meta.url).resolve('esbuild/bin/esbuild');

/** A hung build fails (the thread then starts without a bundle, or the reader works in line) instead of waiting on. */
const BUILD_TIMEOUT_MS = 60_000;

/**
 * The bundle, built by the esbuild executable in a child process that this thread waits for. Not esbuild's own
 * synchronous API: it blocks the calling thread on Atomics.wait until a worker thread of its own answers, with no time
 * limit, and in two full runs of the test suite on a loaded machine that worker never answered (the test's process
 * slept for good with its app open, an esbuild process beside it).
 */
function build(entry: string): Cached {
  const dir = mkdtempSync(join(tmpdir(), 'telemed-thread-bundle-'));
  try {
    const metafile = join(dir, 'meta.json');
    const outfile = join(dir, 'thread.js');
    const args = [entry, '--bundle', '--platform=node', '--format=cjs', '--target=node20', ...INSTALLED.map((name) => `--external:${name}`), `--outfile=${outfile}`, `--metafile=${metafile}`, '--log-level=error'];
    execFileSync(ESBUILD, args, { timeout: BUILD_TIMEOUT_MS, stdio: ['ignore', 'ignore', 'pipe'] });
    const code = readFileSync(outfile, 'utf8');
    const meta = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> };
    const root = process.cwd();
    const inputs = Object.keys(meta.inputs).map((input) => stamp(resolve(root, input)));
    return { inputs, code };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
