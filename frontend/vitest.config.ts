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
  },
});
