/**
 * `npm run bench [-- name...]`: runs the benchmarks and prints their figures. They are
 * measurements, not tests: nothing here fails on a slow machine.
 */
import { spawn } from 'node:child_process';
import { machine } from './lib.ts';

// Each benchmark's modules are loaded only when it runs: the whale's peak RSS is that of a
// process holding the sync, not also Playwright, the PDF writer and every other benchmark.
const benches: Record<string, () => Promise<void>> = {
  ingest: async () => (await import('./ingest.ts')).ingestBench(),
  rules: async () => (await import('./rules.ts')).rulesBench(),
  timeline: async () => (await import('./timeline.ts')).timelineBench(),
  'timeline-ui': async () => (await import('./timeline-ui.ts')).timelineUiBench(),
  csv: async () => (await import('./reports.ts')).csvBench(),
  pdf: async () => (await import('./reports.ts')).pdfBench(),
  web: async () => (await import('./web.ts')).webBench(),
  reconcile: async () => (await import('./reconcile.ts')).reconcileBench(),
  closes: async () => (await import('./closes.ts')).closesBench(),
  // portfolio --json: the summary and a page beside the whole view, 200 × 2 and 1,000 × 6 (issue 40 item 2).
  portfolio: async () => (await import('./portfolio.ts')).portfolioBench(),
  // 1,000 wallets × 6 chains beside 2 × 6, every command as a process (issue 40 item 5); FOLIOSCOPE_BENCH_PARTS picks parts.
  scale: async () => (await import('./scale.ts')).scaleBench(),
  whale: async () => (await import('./whale.ts')).whaleBench(),
  // People at once over HTTP while a sync writes, beside one alone (issue 37 item 8).
  team: async () => (await import('./team.ts')).teamBench(),
  quota: async () => (await import('./quota.ts')).quotaBench(),
  // A command's start to its exit, bundled and from source (bin/folioscope.mjs).
  'cli-start': async () => (await import('./cli-start.ts')).cliStartBench(),
  'body-sizes': async () => void (await import('./body-sizes.ts')).bodySizesBench(),
  backup: async () => (await import('./backup.ts')).backupBench(),
  // Ingest, timeline and CSV on a plain and an encrypted cache, side by side (issue 29 item 1).
  encryption: async () => (await import('./encryption.ts')).encryptionBench(),
  // 100 ms is a remote service's usual round trip; 25 ms shows where our own CPU starts to show.
  sync: async () => {
    const { syncBench } = await import('./sync.ts');
    await syncBench(100);
    await syncBench(25);
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !(w in benches));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
const names = wanted.length ? wanted : Object.keys(benches);
if (process.env['FOLIOSCOPE_BENCH_CHILD']) {
  await benches[names[0]!]!();
} else {
  console.log(`# Folioscope benchmarks\n  machine: ${machine()}`);
  // Each benchmark in a process of its own: a peak RSS is then that benchmark's alone (the
  // whale's after the ingest's 1M rows in one process read ~900 MiB: what glibc kept of the
  // ingest's heap, not the sync's), and none runs on another's heap or page cache state.
  for (const name of names) {
    const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, name], {
      stdio: 'inherit',
      env: { ...process.env, FOLIOSCOPE_BENCH_CHILD: '1' },
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) {
      console.error(`Benchmark ${name} failed (exit ${code}).`);
      process.exitCode = 1;
    }
  }
}
