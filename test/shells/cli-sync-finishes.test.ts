import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, readCacheIn, runCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * `folioscope sync` run as cron runs it: a process of its own, its exit code and its lines read,
 * and the rows counted in the cache file it leaves. A read long enough to hand its writes to the
 * write worker (12,000 transactions a chain) once ended the process with only the worker left:
 * exit 0, nothing printed, nothing cached. In-process tests never saw it (their event loop
 * stays alive).
 */
const KEY = 'cli-sync-finishes-key-7c1d';
const PER_CHAIN = 12_000;
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', String(PER_CHAIN)]);
const run = (args: string[]) => runCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });

function cachedPerChain(dir: string): Record<string, number> {
  const rows = readCacheIn(
    dir,
    (db) => db.prepare('SELECT chain, count(*) AS n FROM transactions GROUP BY chain').all() as Array<{ chain: string; n: number }>,
  );
  return Object.fromEntries(rows.map((r) => [r.chain, r.n]));
}

describe('folioscope sync as a process', () => {
  it('finishes a long read on two chains: exit 0, a line for the job, every row in the cache', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    expect((await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth,arb'])).status).toBe(0);
    const sync = await run([...g, 'sync', '--no-positions']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(new RegExp(`ok\\s+Transactions of .*\\(${2 * PER_CHAIN}\\)`));
    expect(cachedPerChain(dir)).toEqual({ eth: PER_CHAIN, arb: PER_CHAIN });
    // Nothing new the second time, and the process still ends on its own.
    const again = await run([...g, 'sync', '--no-positions']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/ok\s+Transactions of .*\(0\)/);
  });
});

describe('the program runner', () => {
  it('fails a command whose process ran out of work before the command finished, saying so', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../support/unfinished-command-child.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(status).toBe(1);
    expect(stderr).toMatch(/stopped before the command finished/);
  });

  it(
    'finishes the work of a command whose reader stopped reading (`folioscope sync | head -1`): exit 0, no EPIPE, every row in the cache',
    { timeout: 120_000 },
    async () => {
      const [cut, whole] = [tempDir(), tempDir()];
      for (const dir of [cut, whole]) expect((await runCli(['--data-dir', dir, 'wallet', 'add', WALLET, '--chains', 'eth,arb'])).status).toBe(0);
      const sync = ['sync', '--from', '2025-12-01', '--to', '2025-12-31', '--every', 'week'];
      // The reading end closed before the program printed anything: its every write meets EPIPE.
      const child = spawn(process.execPath, [CLI, '--data-dir', cut, ...sync], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += String(d)));
      const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(status, stderr).toBe(0);
      expect(stderr).not.toMatch(/EPIPE|Unhandled/);
      // The same rows as a run whose output was read to its end.
      const read = await runCli(['--data-dir', whole, ...sync]);
      expect(read.status, read.stderr).toBe(0);
      expect(read.stdout).toMatch(/ok\s+Transactions of/);
      expect(cachedPerChain(cut)).toEqual(cachedPerChain(whole));
      expect(cachedPerChain(cut).eth).toBeGreaterThan(0);
    },
  );
});
