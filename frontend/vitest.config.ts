import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // jsdom renders of whole pages take seconds on a busy 2-core machine; a slow pass is not a failure.
    testTimeout: 40_000,
    // Vitest runs one worker on a 2-core machine (cores - 1), and the run is CPU-bound (about 140 s of CPU, half of it
    // each file's own jsdom, setup and imports): a second worker uses the second core. Whole run on this 2-core machine
    // while two other helpers' tests ran too (load 4-6): forks x1 143 s, threads x1 154 s, forks x2 138 s, threads x2
    // 138 s with the least system time (a thread starts cheaper than a process). Not `isolate: false`: the files then
    // share one document, whose Emotion styles pile up (206 s), and state leaks from file to file (3 failures).
    pool: 'threads',
    maxWorkers: 2,
  },
});
