import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { liveSimOptions } from '../support/live.ts';
import { readCacheIn, runCli } from '../support/cli-process.ts';
import { KEY, SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * Issue 41, item 1: a sync that applied the recent window's restatements (rows added late,
 * changed, removed) and so changed a closed period printed only "ok Transactions of Ops (0)".
 * `folioscope sync` and `watch --json` now say, per job, how many cached rows were restated, and
 * which closes the checks after the jobs flagged (the CLI waits for them before it prints). A
 * live service (late and reorg, their events held back until the test lets them happen) and the
 * program as a process, its clock pinned to the simulator's (test/support/clock.mjs).
 */
const ctx = useSimulator(liveSimOptions({ modes: ['late', 'reorg'], late: { at: 1e9 }, reorg: { at: 1e9 } }, 300));
const CLOCK = join(import.meta.dirname, '../support/clock.mjs');
/** Each command a minute after the one before (a close is dated before the sync that changes it), from the sim's now. */
let clock = SIM_NOW;
/** The program at `at` (ms): the next minute unless said. */
const cli = (dir: string, args: string[], at = (clock += 60_000)) =>
  runCli(['--data-dir', dir, '--base-url', ctx.sim.url, ...args], {
    FOLIOSCOPE_ACCESS_KEY: KEY,
    FOLIOSCOPE_TEST_CLOCK: String(at),
    NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${CLOCK}`.trim(),
  });

/** The change log's rows by kind, as the cache holds them. */
function changeCounts(dir: string): Record<string, number> {
  return readCacheIn(dir, (db) => {
    const rows = db.prepare('SELECT kind, count(*) AS n FROM transaction_changes GROUP BY kind').all() as Array<{ kind: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
  });
}

/** A wallet synced at both ends of a period and the period closed, before the service restates anything. */
async function closedBeforeRestatements(dir: string): Promise<void> {
  expect((await cli(dir, ['wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Ops'])).status).toBe(0);
  for (const date of ['2026-10-01', '2026-11-19']) {
    const sync = await cli(dir, ['sync', '--date', date]);
    expect(sync.status, sync.stdout + sync.stderr).toBe(0);
    expect(sync.stdout).not.toMatch(/restated|FLAGGED/);
  }
  const closed = await cli(dir, ['close', 'add', '--from', '2026-10-01', '--to', '2026-11-19', '--wallet', WALLET]);
  expect(closed.status, closed.stdout + closed.stderr).toBe(0);
}

describe('sync and watch say what they restated and which closed periods that changed', () => {
  it('sync prints each job’s restatements and the closes flagged; watch --json carries the same', { timeout: 240_000 }, async () => {
    const syncDir = tempDir();
    const watchDir = tempDir();
    await closedBeforeRestatements(syncDir);
    await closedBeforeRestatements(watchDir);
    // An hourly schedule of the wallet's transactions, first due at 12:30 (the clock says about 12:10).
    expect((await cli(watchDir, ['schedule', 'add', '--all', '--what', 'transactions', '--every', 'hour', '--at', ':30'])).status).toBe(0);

    // The indexer backfills its gap and reorganises the newest blocks.
    ctx.sim.live!.settle(WALLET, chainById('eth')!);

    const sync = await cli(syncDir, ['sync', '--no-positions']);
    expect(sync.status, sync.stdout + sync.stderr).toBe(0);
    const logged = changeCounts(syncDir);
    expect(logged['late']! + logged['changed']! + logged['removed']!).toBeGreaterThan(0);
    const total = logged['late']! + logged['changed']! + logged['removed']!;
    expect(sync.stdout).toContain(`ok          Transactions of Ops (`);
    expect(sync.stdout).toContain(
      `            restated ${total} cached rows: ${logged['late']} added late, ${logged['changed']} changed, ${logged['removed']} removed`,
    );
    expect(sync.stdout).toMatch(
      /\nFLAGGED {5}close 1: Ops, 2026-10-01 to 2026-11-19 changed since its close \(\d+ changes?; folioscope close show 1\)\n {12}- transaction 0x/,
    );

    const watch = await cli(watchDir, ['watch', '--once', '--json'], SIM_NOW + 40 * 60_000);
    expect(watch.status, watch.stdout + watch.stderr).toBe(0);
    const lines = watch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    const wlogged = changeCounts(watchDir);
    const run = lines.find((l) => 'schedule' in l)!;
    expect(run.jobs).toEqual([
      expect.objectContaining({ label: 'Transactions of Ops', restated: { late: wlogged['late'], changed: wlogged['changed'], removed: wlogged['removed'] } }),
    ]);
    const flagged = lines.filter((l) => 'closeFlagged' in l);
    expect(flagged).toEqual([
      { closeFlagged: expect.objectContaining({ id: 1, scope: 'Ops', from: '2026-10-01', to: '2026-11-19', changes: expect.any(Array) }) },
    ]);
    expect(flagged[0]!.closeFlagged.changes.length).toBeGreaterThan(0);
    // Its alert follows, as every alert the runs fired.
    expect(lines.some((l) => l.alert?.kind === 'closed-period-changed')).toBe(true);
  });
});
