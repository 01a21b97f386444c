import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { LiveService } from '../../src/sim/live.ts';
import { DEFAULT_HISTORY_END, DEFAULT_HISTORY_START } from '../../src/sim/server.ts';
import { readCacheIn, runCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope sync`, as cron runs it, against `folioscope sim --live arrivals,late,reorg,burst`:
 * three runs, by when every arrival is in; the cache then holds exactly the service's history (the
 * same live indexer computed here, settled: it is deterministic by seed), and the change log says
 * what was restated.
 */
const KEY = 'cli-live-key-7c1d';
const WALLET = '0x' + 'ab'.repeat(20);
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '400', '--live', 'arrivals,late,reorg,burst']);
const run = (args: string[]) => runCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });

describe('folioscope sim --live, and sync as a process', () => {
  it('three syncs leave the cache exactly as the live service holds it, the restatements logged', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    expect((await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    for (let k = 0; k < 3; k++) {
      const sync = await run([...g, 'sync', '--no-positions']);
      expect(sync.status, sync.stdout + sync.stderr).toBe(0);
      expect(sync.stdout).toMatch(/^ok /m);
    }
    const live = new LiveService(
      { seed: 1, txnsPerWallet: 400, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END },
      { modes: ['arrivals', 'late', 'reorg', 'burst'] },
    );
    live.settle(WALLET, chainById('eth')!);
    const truth = live.truth(WALLET, chainById('eth')!);
    readCacheIn(dir, (db) => {
      const rows = db.prepare('SELECT txn_hash, block, status FROM transactions').all() as Array<{ txn_hash: string; block: number; status: number }>;
      expect(rows.map((r) => `${r.txn_hash} ${r.block} ${r.status}`).sort()).toEqual(truth.map((t) => `${t.txn_hash} ${t.block} ${t.status}`).sort());
      const kinds = db.prepare('SELECT kind, count(*) AS n FROM transaction_changes GROUP BY kind ORDER BY kind').all();
      // Two removed (one replaced), four changed; late: the replacement, the gap's 30, and arrivals after a read.
      expect(kinds).toEqual([
        { kind: 'changed', n: 4 },
        { kind: 'late', n: expect.any(Number) },
        { kind: 'removed', n: 2 },
      ]);
    });
  });

  it('an unknown live mode is refused, naming the modes', async () => {
    const r = await runCli(['sim', '--access-key', KEY, '--live', 'arrivals,shuffle']);
    // A usage error, as every bad `sim` option (`--quota bad` too): exit 2, like the program's other usage errors.
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown live mode 'shuffle'; modes: arrivals, late, reorg, burst/);
  });
});
