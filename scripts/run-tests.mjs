// Runs the frontend's component tests (Vitest), then every other *.test.ts with node's test runner (TypeScript
// through tsx), so node's summary closes the output. Extra arguments filter by path.
import { spawnSync } from 'node:child_process';
import { glob } from 'tinyglobby';

// `--suite unit` (the frontend's component tests, every test beside the code it tests: deciders, contracts, platform
// and service modules, and tests/src/projections: one spec per projection, no server), `--suite int` (the rest of tests/
// but the browser: services through HTTP, sockets and real servers), `--suite e2e` (tests/src/e2e: whole flows in
// Chromium). No suite: all three.
const args = process.argv.slice(2);
const suiteAt = args.indexOf('--suite');
const suite = suiteAt >= 0 ? args[suiteAt + 1] : null;
if (suite !== null && !['unit', 'int', 'e2e'].includes(suite)) {
  console.error('--suite is one of unit, int, e2e');
  process.exit(2);
}
const filters = suiteAt >= 0 ? args.filter((_, i) => i !== suiteAt && i !== suiteAt + 1) : args;
const UNIT_IN_TESTS = ['tests/src/projections/'];
const isUnit = (file) => !file.startsWith('tests/') || UNIT_IN_TESTS.some((dir) => file.startsWith(dir));
const inSuite = (file) =>
  suite === null || (suite === 'unit' ? isUnit(file) : suite === 'e2e' ? file.startsWith('tests/src/e2e/') : !isUnit(file) && !file.startsWith('tests/src/e2e/'));
if ((suite === null || suite === 'unit') && (filters.length === 0 || filters.some((f) => f.includes('frontend')))) {
  const vitest = spawnSync('npx', ['vitest', 'run'], { cwd: 'frontend', stdio: 'inherit' });
  if (vitest.status !== 0) process.exit(vitest.status ?? 1);
  if (filters.length > 0 && filters.every((f) => f.includes('frontend'))) process.exit(0);
}
const files = (await glob(['**/*.test.ts'], { ignore: ['**/node_modules/**', 'frontend/**'] }))
  .filter((f) => inSuite(f) && (filters.length === 0 || filters.some((x) => f.includes(x))))
  .sort();
if (files.length === 0) {
  console.error('No test files matched');
  process.exit(1);
}
// A test (or suite) that hangs fails after eight minutes with its name, and the others still run: the longest suites,
// the browser accessibility pass over every page and the two-browser video call, take four to five minutes on a loaded
// two-core machine (their files run whole under this limit).
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-timeout=480000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // TEST_DURATIONS=<file>: each file's wall time as JSON too, slowest first (scripts/file-durations-reporter.mjs).
    ...(process.env.TEST_DURATIONS ? ['--test-reporter=./scripts/file-durations-reporter.mjs', `--test-reporter-destination=${process.env.TEST_DURATIONS}`] : []),
    ...files,
  ],
  // ESBUILD_WORKER_THREADS=0: esbuild's synchronous calls (tsx's, for a module required from CommonJS) run its
  // executable as a child process instead of blocking on Atomics.wait, without a time limit, for a worker thread of its
  // own (see platform/src/thread-bundle.ts).
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ESBUILD_WORKER_THREADS: '0' } },
);
process.exit(result.status ?? 1);
