import { describe, expect, it } from 'vitest';
import { readCacheIn, startCli, useSimProcess, writeCacheIn } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * Scheduled syncs as cron and systemd run them: `folioscope schedule` and `folioscope watch`
 * as processes, their exit codes and lines read, and the cache file counted afterwards.
 */
const KEY = 'cli-watch-key-5e2a9b1c';
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '6000']);
const start = (args: string[]) => startCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });
const run = (args: string[]) => start(args).done;

const count = (dir: string, sql: string) => readCacheIn(dir, (db) => (db.prepare(sql).get() as { n: number }).n);
/** As if the schedules were made a month ago (a new one waits for its first slot). */
const madeLongAgo = (dir: string) => writeCacheIn(dir, (db) => db.prepare("UPDATE schedules SET created_at = '2026-01-01T00:00:00.000Z'").run());
const runsOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { schedule: number; slot: string; state: string; jobs: Array<{ state: string; rows: number | null }> });

describe('folioscope schedule and watch, as processes', () => {
  it('a due schedule runs once: JSON lines, rows in the cache, then nothing is due', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    expect((await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth,arb'])).status).toBe(0);
    expect((await run([...g, 'wallet', 'add', WALLET_2, '--chains', 'eth'])).status).toBe(0);
    const add = await run([...g, 'schedule', 'add', '--all', '--every', 'day', '--at', '06:00']);
    expect(add.status, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/Schedule 1: both of all wallets, every day at 06:00 UTC; next run \d{4}-\d\d-\d\d 06:00 UTC\./);
    // Made just now, after today's slot: not due yet.
    const early = await run([...g, 'watch', '--once']);
    expect(early.status, early.stderr).toBe(0);
    expect(early.stdout).toMatch(/Nothing is due\./);
    expect(count(dir, 'SELECT count(*) AS n FROM transactions')).toBe(0);

    madeLongAgo(dir);
    const watch = await run([...g, 'watch', '--once', '--json']);
    expect(watch.status, watch.stderr).toBe(0);
    const runs = runsOf(watch.stdout);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.state).toBe('ok');
    expect(runs[0]!.slot).toMatch(/T06:00:00\.000Z$/);
    expect(runs[0]!.jobs.map((j) => j.state)).toEqual(['done', 'done', 'done', 'done']);
    // Every row is in the cache: 6,000 a chain for the first wallet's two chains, and the second's.
    const perWallet = readCacheIn(dir, (db) => db.prepare('SELECT wallet, chain, count(*) AS n FROM transactions GROUP BY wallet, chain').all()) as Array<{
      n: number;
    }>;
    expect(perWallet.length).toBe(3);
    expect(perWallet.every((r) => r.n > 0)).toBe(true);
    expect(runs[0]!.jobs.filter((j) => j.rows !== null).reduce((n, j) => n + j.rows!, 0)).toBe(count(dir, 'SELECT count(*) AS n FROM transactions'));
    expect(count(dir, 'SELECT count(DISTINCT wallet || chain) AS n FROM snapshots')).toBe(3);

    const again = await run([...g, 'watch', '--once']);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/Nothing is due\./);
    const list = await run([...g, 'schedule', 'list']);
    expect(list.stdout).toMatch(/1\tboth\tall wallets\tevery day at 06:00 UTC\t\d{4}-\d\d-\d\d 06:00\tok /);
  });

  it('days missed are caught up in one run; two processes at once run it once; a held lease is waited out, not broken', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    expect((await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    expect((await run([...g, 'schedule', 'add', '--wallet', WALLET, '--what', 'transactions', '--every', 'hour', '--at', ':00'])).status).toBe(0);
    madeLongAgo(dir);
    writeCacheIn(dir, (db) => db.prepare("UPDATE schedules SET last_slot = '2026-01-02T00:00:00.000Z'").run());

    // Another process holds the lease: this one says so and runs nothing.
    writeCacheIn(dir, (db) => db.prepare('INSERT INTO schedule_lease (id, holder, until_ms) VALUES (1, ?, ?)').run('app (pid 1, test)', Date.now() + 60_000));
    const held = await run([...g, 'watch', '--once']);
    expect(held.status, held.stderr).toBe(0);
    expect(held.stderr).toMatch(/Skipped: another Folioscope \(app \(pid 1, test\)\) is running the schedules/);
    expect(count(dir, 'SELECT count(*) AS n FROM transactions')).toBe(0);
    writeCacheIn(dir, (db) => db.prepare('DELETE FROM schedule_lease').run());

    // Two at once, as two cron lines might: one run between them, for the newest hour only.
    const [a, b] = await Promise.all([run([...g, 'watch', '--once', '--json']), run([...g, 'watch', '--once', '--json'])]);
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    const runs = [...runsOf(a.stdout), ...runsOf(b.stdout)];
    expect(runs).toHaveLength(1);
    const hour = new Date(Date.now() - (Date.now() % 3_600_000)).toISOString();
    expect([hour, new Date(Date.parse(hour) - 3_600_000).toISOString()]).toContain(runs[0]!.slot);
    expect(count(dir, 'SELECT count(*) AS n FROM transactions')).toBe(6000);
    expect(count(dir, 'SELECT count(*) AS n FROM schedule_lease')).toBe(0);
  });

  it('watch stopped with SIGTERM mid-run: exits 0, keeps what was written, and the slot runs again next time', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', sim.url];
    expect((await run([...g, 'wallet', 'add', WALLET, '--chains', 'eth,arb,op,base'])).status).toBe(0);
    expect((await run([...g, 'schedule', 'add', '--all', '--what', 'transactions', '--every', 'day', '--at', '00:00'])).status).toBe(0);
    madeLongAgo(dir);
    const w = start([...g, 'watch']);
    // Stopped once the run has begun: its job shows in progress on the terminal.
    await expect.poll(() => w.out.stdout + w.out.stderr, { timeout: 60_000, interval: 50 }).toMatch(/Watching the schedules/);
    // Mid-run: pages of its job are in the cache (read beside it, as another process would), not all.
    await expect.poll(() => count(dir, 'SELECT count(*) AS n FROM transactions'), { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    w.child.kill('SIGTERM');
    const ended = await w.done;
    expect(ended.status, ended.stderr).toBe(0);
    const rows = count(dir, 'SELECT count(*) AS n FROM transactions');
    expect(rows).toBeLessThan(4 * 6000);
    // Not marked as run: the next watch runs it, and ends with every row.
    expect(writeCacheIn(dir, (db) => db.prepare('SELECT last_slot FROM schedules').get())).toEqual({ last_slot: null });
    const next = await run([...g, 'watch', '--once', '--json']);
    expect(next.status, next.stderr).toBe(0);
    expect(runsOf(next.stdout)).toHaveLength(1);
    expect(count(dir, 'SELECT count(*) AS n FROM transactions')).toBe(4 * 6000);
  });
});
