import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Svelte components are compiled for the browser in their tests (jsdom), as in the app.
  plugins: [svelte({ configFile: resolve('svelte.config.js') }), svelteTesting()],
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for what a page or a process will show: its default (1 s) is a timing
    // assertion, failed on a loaded machine (the first page of a shell took longer in CI). A poll
    // still fails when the value never comes, only later.
    expect: { poll: { timeout: 15_000 } },
    // Two cores here: keep integration tests (real servers, real SQLite) from starving each other.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
