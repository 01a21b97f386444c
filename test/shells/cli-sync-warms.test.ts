import { describe, expect, it } from 'vitest';
import { readCacheIn, runCli, useSimProcess, writeCacheIn } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * A cron job's refresh leaves the app's last screens ready (portfolio/warm.ts): `folioscope sync`
 * and `watch --once`, run as processes, ask the last requests the screens made again once their
 * jobs end, so the answers in the file are those of the new data, and the app opened next gives
 * them without building its view (seconds at a fund's scale). Without it, every answer a sync
 * made stale stays stale until a screen asks, and that screen waits.
 *
 * An answer given from the file is told from one built again by a sentinel written into the kept
 * answer after the command exits: the next `portfolio --json` prints it only if the answer was
 * kept under the current mark.
 */
const KEY = 'cli-sync-warms-key-0a7c5e';
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '300']);
const run = (args: string[]) => runCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });
const SENTINEL = 7_654_321.09;

interface Kept {
  mark: string;
  usedAt: number;
  request: string;
}
const kept = (dir: string): Kept[] =>
  readCacheIn(dir, (db) => db.prepare('SELECT mark, used_at AS usedAt, request FROM kept_answers ORDER BY used_at').all() as Kept[]);

describe('a sync as cron runs it leaves the last screens kept', () => {
  /** A watched wallet with positions, and the summary a screen (here `portfolio --json`) asked of them. */
  async function asked(): Promise<{ g: string[]; dir: string; before: Kept }> {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    expect((await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const first = await run([...g, 'sync', '--no-transactions', '--no-warm']);
    expect(first.status, first.stderr).toBe(0);
    const shown = await run([...g, 'portfolio', '--json']);
    expect(shown.status, shown.stderr).toBe(0);
    const rows = kept(dir);
    expect(rows.map((r) => JSON.parse(r.request).op)).toEqual(['portfolio.summary']);
    return { g, dir, before: rows[0]! };
  }
  /** What the next `portfolio --json` prints as the total, after the kept answer's total was set to the sentinel. */
  async function totalShownAfterPlanting(g: string[], dir: string): Promise<number> {
    writeCacheIn(dir, (db) => {
      const row = db.prepare('SELECT rowid AS id, answer FROM kept_answers').get() as { id: number; answer: string };
      const answer = JSON.parse(row.answer) as { totals: { total: number } };
      expect(answer.totals.total).not.toBe(SENTINEL);
      answer.totals.total = SENTINEL;
      const text = JSON.stringify(answer);
      db.prepare('UPDATE kept_answers SET answer = ?, size = ? WHERE rowid = ?').run(text, text.length, row.id);
    });
    const shown = await run([...g, 'portfolio', '--json']);
    expect(shown.status, shown.stderr).toBe(0);
    return (JSON.parse(shown.stdout) as { totals: { total: number } }).totals.total;
  }

  it('sync: the summary the screen asked is kept for the data the sync wrote', { timeout: 120_000 }, async () => {
    const { g, dir, before } = await asked();
    const sync = await run([...g, 'sync', '--no-positions']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/ok\s+Transactions of .*\(300\)/);
    const after = kept(dir);
    // Asked again under the new data's mark, in its place in the order (the warm is no use of it).
    expect(after).toHaveLength(1);
    expect(after[0]!.request).toBe(before.request);
    expect(after[0]!.mark).not.toBe(before.mark);
    expect(after[0]!.usedAt).toBe(before.usedAt);
    // Given from the file by the next command: the sentinel comes back.
    expect(await totalShownAfterPlanting(g, dir)).toBe(SENTINEL);
  });

  it('sync --no-warm leaves it stale: the next command builds it again (the sentinel does not come back)', { timeout: 120_000 }, async () => {
    const { g, dir, before } = await asked();
    const sync = await run([...g, 'sync', '--no-positions', '--no-warm']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(kept(dir)[0]!.mark).toBe(before.mark);
    expect(await totalShownAfterPlanting(g, dir)).not.toBe(SENTINEL);
  });

  it('watch --once: a due schedule run leaves it kept too', { timeout: 120_000 }, async () => {
    const { g, dir, before } = await asked();
    expect((await run([...g, 'schedule', 'add', '--all', '--every', 'day', '--at', '06:00', '--what', 'transactions'])).status).toBe(0);
    // As if made long ago: its last slot is due.
    writeCacheIn(dir, (db) => db.prepare("UPDATE schedules SET created_at = '2026-01-01T00:00:00.000Z'").run());
    const watch = await run([...g, 'watch', '--once']);
    expect(watch.status, watch.stderr).toBe(0);
    expect(watch.stdout).toMatch(/^ok\s+schedule 1/m);
    expect(kept(dir)[0]!.mark).not.toBe(before.mark);
    expect(await totalShownAfterPlanting(g, dir)).toBe(SENTINEL);
  });
});
