import { defineConfig } from 'vitest/config';

/**
 * The Electron end-to-end suite (`npm run test:electron`): the built app in a real Electron,
 * driven by playwright-core. Not part of `npm test` (Electron cannot launch everywhere);
 * scripts/test-electron.mjs fetches Electron, builds, checks it launches, then runs this.
 */
export default defineConfig({
  test: {
    include: ['test/electron-e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // One app at a time: the flows run in order in one window.
    fileParallelism: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
