import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, fmt, percentile, report } from './lib.ts';

/**
 * How long a `folioscope` command takes from the process's start to its exit, run the two ways
 * bin/folioscope.mjs can: the bundle (out/main/folioscope.js) and the TypeScript source through
 * tsx (FOLIOSCOPE_FROM_SOURCE=1), interleaved, so both meet the same machine. A command a cron
 * job or a script runs pays this every time; so does every CLI process of the test suite.
 */
export async function cliStartBench(): Promise<void> {
  const root = join(import.meta.dirname, '..');
  const bin = join(root, 'bin/folioscope.mjs');
  if (!existsSync(join(root, 'out/main/folioscope.js'))) throw new Error('Build first: npx electron-vite build');
  const data = mkdtempSync(join(DATA_DIR, 'cli-start-'));
  const commands: string[][] = [['--version'], ['wallet', 'list', '--json'], ['portfolio', '--json']];
  const runs = 7;
  const env = { ...process.env, FOLIOSCOPE_DATA_DIR: data, FOLIOSCOPE_ACCESS_KEY: '' };
  try {
    // One demo wallet, synced from the built-in reference service, for `portfolio --json`.
    for (const setup of [['wallet', 'add', '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', '--chains', 'eth,arb'], ['sync']]) {
      const r = spawnSync(process.execPath, [bin, ...setup], { encoding: 'utf8', env });
      if (r.status !== 0) throw new Error(`folioscope ${setup.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
    }
    for (const args of commands) {
      const times = { bundle: [] as number[], source: [] as number[] };
      for (let i = 0; i < runs; i++) {
        for (const way of ['bundle', 'source'] as const) {
          const t = performance.now();
          const r = spawnSync(process.execPath, [bin, ...args], {
            encoding: 'utf8',
            env: { ...env, FOLIOSCOPE_FROM_SOURCE: way === 'source' ? '1' : '' },
          });
          times[way].push(performance.now() - t);
          if (r.status !== 0 && r.status !== 3) throw new Error(`folioscope ${args.join(' ')} (${way}) exited ${r.status}: ${r.stderr.slice(0, 300)}`);
        }
      }
      const median = (xs: number[]) =>
        percentile(
          [...xs].sort((a, b) => a - b),
          50,
        );
      const b = median(times.bundle);
      const s = median(times.source);
      report(`folioscope ${args.join(' ')} (demo mode, one wallet on two chains), median of ${runs}`, [
        ['bundle', `${fmt(b, 0)} ms`],
        ['source (tsx)', `${fmt(s, 0)} ms`],
        ['ratio', `${fmt(b / s)} ×`],
      ]);
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}
