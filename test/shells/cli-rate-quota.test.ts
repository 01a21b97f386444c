import { describe, expect, it } from 'vitest';
import { readCacheIn, runCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope sync` of several wallets, as cron runs it, against `folioscope sim --quota`: a
 * service that serves 4 requests in any rolling second and refuses the rest with 429 and no
 * Retry-After. Every job ends ok, every row is cached, and the pace learned is kept in the
 * cache for the next run.
 */
const KEY = 'cli-rate-quota-key-51f0';
const WALLETS = [1, 2, 3].map((i) => `0x${(0xfeed0 + i).toString(16).padStart(40, '0')}`);
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '400', '--quota', '4/s,no-retry-after']);
const run = (args: string[]) => runCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });

function readCache(dir: string): { rows: number; pace: number | null } {
  return readCacheIn(dir, (db) => {
    const rows = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
    const pace = db.prepare("SELECT value FROM service_conventions WHERE key = '_pace'").get() as { value: string } | undefined;
    return { rows, pace: pace ? (JSON.parse(pace.value) as { rate: number }).rate : null };
  });
}

describe('folioscope sync through a rate quota, as a process', () => {
  it('every job ends ok with every row, and the pace learned is kept for the next run', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    for (const w of WALLETS) expect((await run([...g, 'wallet', 'add', w, '--chains', 'eth,arb'])).status).toBe(0);
    const sync = await run([...g, 'sync', '--date', '2026-01-15']);
    expect(sync.status, sync.stdout + sync.stderr).toBe(0);
    expect(sync.stdout).not.toMatch(/FAILED|INCOMPLETE/);
    expect(sync.stdout.match(/^ok /gm)).toHaveLength(2 * WALLETS.length);
    const cache = readCache(dir);
    expect(cache.rows).toBe(WALLETS.length * 2 * 400);
    expect(cache.pace).not.toBeNull();
    expect(cache.pace!).toBeLessThan(4 * 2);
  });
});
