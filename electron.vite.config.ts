import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { sourceHash } from './src/main/core/store/build-id.ts';

export default defineConfig({
  main: {
    // Which code this is (src/main/core/store/build-id.ts): an answer kept in the file by other code is never given.
    define: { __FOLIOSCOPE_BUILD__: JSON.stringify(sourceHash(resolve('.'))) },
    build: {
      // Native modules (better-sqlite3-multiple-ciphers, keytar) stay external and load from node_modules.
      externalizeDeps: true,
      // The store's write worker is an entry of its own (out/main/store-writer.js), started
      // by src/main/core/transactions/store/page-writer.ts from beside the main bundle; so is the backup
      // worker (out/main/store-backup.js, started by src/main/core/store/backup-thread.ts), the
      // encryption's conversion (out/main/store-convert.js, src/main/core/store/conversion-thread.ts) and the
      // transactions export's spam judge (out/main/csv-spam.js, src/main/core/reports/spam-cells.ts), and
      // a team server's replica for a desktop (out/main/replica.js, src/main/core/replica.ts).
      // The `folioscope` program (CLI and web shell) is bundled too (out/main/folioscope.js), beside
      // those workers, so bin/folioscope.mjs starts it without compiling TypeScript at each run.
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          'store-writer': resolve('src/main/core/transactions/store/write-worker.ts'),
          'store-backup': resolve('src/main/core/store/backup-worker.ts'),
          'store-convert': resolve('src/main/core/store/conversion-worker.ts'),
          'csv-spam': resolve('src/main/core/reports/spam-cells-worker.ts'),
          replica: resolve('src/main/core/replica-worker.ts'),
          folioscope: resolve('src/main/folioscope.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [svelte({ configFile: resolve('svelte.config.js') })],
    build: {
      // Minified: the renderer's one script was 1.7 MB as written, and reading it was most of a
      // first screen's wait before any data was asked for (issue 40; bench/RESULTS.md).
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
