import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { openDatabase } from '../src/main/core/store/db.ts';
import { memoisedViews } from '../src/main/core/portfolio/memo.ts';
import { rowsPage, summaryOf } from '../src/main/core/portfolio/summary.ts';
import { portfolioViewUnlessAborted } from '../src/main/core/portfolio/view.ts';
import { listWallets } from '../src/main/core/store/wallets.ts';
import type { PortfolioView } from '../src/shared/portfolio/view.ts';
import { seedFund } from '../test/support/fund.ts';
import { DATA_DIR, fmt, report } from './lib.ts';

/**
 * `folioscope portfolio --json` over a fund's cache (issue 40 item 2): the summary and first page
 * it writes by default beside the whole view (`--all`), each as a process of its own (the CLI as
 * a script runs it): wall time, CPU time (user + system, steadier on a shared machine) and the
 * bytes written. Funds of 200 wallets × 2 chains and 1,000 wallets × 6 chains (the docs' fund
 * administrator), filed straight into SQLite as a sync files them (test/support/fund.ts), once.
 * The program's own start (`folioscope --help`: Node and the TypeScript loader) is measured
 * beside them. Targets: < 1 s and < 5 MB by default.
 */
const DATE = '2026-10-31';
const CLI = join(import.meta.dirname, '../bin/folioscope.mjs');
const FUNDS = [
  { wallets: 200, chains: 2 },
  { wallets: 1000, chains: 6 },
] as const;

export async function portfolioBench(): Promise<void> {
  const sizes = (process.env['FOLIOSCOPE_BENCH_FUNDS'] ?? '')
    .split(',')
    .filter(Boolean)
    .map((s) => s.split('x').map(Number) as [number, number]);
  const funds = sizes.length ? sizes.map(([wallets, chains]) => ({ wallets, chains })) : FUNDS;
  const rows: Array<[string, string]> = [
    [
      `load average`,
      os
        .loadavg()
        .map((l) => fmt(l, 2))
        .join(', '),
    ],
  ];
  const start = await runs(['--help'], 3);
  rows.push(['program start (--help)', summary(start)]);
  for (const fund of funds) {
    const dir = join(DATA_DIR, `portfolio-${fund.wallets}x${fund.chains}`);
    if (!existsSync(join(dir, 'demo.sqlite'))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const t = performance.now();
      const db = openDatabase(join(dir, 'demo.sqlite'));
      const seeded = seedFund(db, { wallets: fund.wallets, chains: fund.chains, date: DATE });
      db.exec('ANALYZE');
      db.close();
      console.log(
        `  seeded ${fund.wallets} × ${fund.chains}: ${seeded.positions.toLocaleString('en-US')} positions in ${fmt((performance.now() - t) / 1000, 1)} s`,
      );
    }
    const name = `${fund.wallets.toLocaleString('en-US')} × ${fund.chains}`;
    for (const [label, args] of [
      ['--json (summary + page 1)', ['portfolio', '--json']],
      ['--json --page 7 --sort symbol --chain eth', ['portfolio', '--json', '--page', '7', '--sort', 'symbol', '--chain', 'eth']],
      ['--json --all (whole view)', ['portfolio', '--json', '--all']],
    ] as const) {
      rows.push([`${name} ${label}`, summary(await runs(['--data-dir', dir, ...args], label.includes('--all') ? 2 : 3))]);
    }
  }
  rows.push(['targets', 'portfolio --json < 1 s and < 5 MB by default (1,000 wallets × 6 chains)']);
  report('portfolio --json: the summary and a page beside the whole view (each a process)', rows);
  for (const fund of funds)
    await longLived(join(DATA_DIR, `portfolio-${fund.wallets}x${fund.chains}`, 'demo.sqlite'), `${fund.wallets.toLocaleString('en-US')} × ${fund.chains}`);
}

/**
 * What a long-lived core (the app, the web shell) answers as a user moves between screens of one
 * scope and date: the summary, three pages of rows, the whole view (Positions), the summary again,
 * through the portfolio handlers' kept views (src/main/core/portfolio/memo.ts), beside the same
 * asks each building the view (as before). In-process, so the figures are the core's alone.
 */
export async function longLived(file: string, name: string): Promise<void> {
  const db = openDatabase(file);
  const wallets = listWallets(db);
  const signal = new AbortController().signal;
  const asks: Array<[string, (v: PortfolioView) => unknown]> = [
    ['summary', (v) => summaryOf(v)],
    ['rows page 2', (v) => rowsPage(v, { offset: 100 })],
    ['rows page 3, by symbol', (v) => rowsPage(v, { offset: 200, sort: 'symbol' })],
    ['rows page 4, eth only', (v) => rowsPage(v, { offset: 0, filter: { chain: 'eth' } })],
    ['the whole view', (v) => v],
    ['summary again', (v) => summaryOf(v)],
  ];
  const rows: Array<[string, string]> = [];
  for (const [label, read] of [
    ['each ask builds the view (before)', portfolioViewUnlessAborted],
    ['kept views (memo.ts)', memoisedViews()],
  ] as const) {
    const times: string[] = [];
    for (const [ask, cut] of asks) {
      const t = performance.now();
      cut(await read(db, wallets, DATE, signal));
      times.push(`${ask} ${fmt((performance.now() - t) / 1000, 2)} s`);
    }
    rows.push([label, times.join('; ')]);
  }
  db.close();
  report(`${name}: one scope and date asked six times in one core`, rows);
  await afterASync(file, name);
}

/**
 * The view of all wallets asked again after a sync filed positions of some wallets at another
 * date (issue 37 item 8): built whole again (before), and with the kept parts of the members the
 * sync left alone (memo.ts, parts.ts), in the same run. The positions are filed inside a
 * transaction that is rolled back, so the fund is left as it was.
 */
async function afterASync(file: string, name: string): Promise<void> {
  const db = openDatabase(file);
  const wallets = listWallets(db);
  const signal = new AbortController().signal;
  const views = memoisedViews();
  const rows: Array<[string, string]> = [];
  const timed = async (read: () => Promise<unknown>) => {
    const t = performance.now();
    await read();
    return fmt((performance.now() - t) / 1000, 2);
  };
  rows.push(['first build (nothing kept)', `${await timed(() => views(db, wallets, DATE, signal))} s`]);
  const columns =
    'endpoint, wallet, chain, service_date, quality, request_id, fetched_at, sha256, content_sha256, raw, data, total_nav, principal_nav, reward_nav, position_count';
  const file1 = db.prepare(
    `INSERT INTO snapshots (requested_date, as_of, ${columns}) SELECT @day, @day, ${columns} FROM snapshots WHERE wallet = @wallet AND as_of = @date`,
  );
  let day = 0;
  for (const synced of [1, 10, 100]) {
    db.exec('BEGIN');
    try {
      day++;
      for (const w of wallets.slice(0, synced)) file1.run({ day: `2026-09-${String(day).padStart(2, '0')}`, wallet: w.address, date: DATE });
      const kept = await timed(() => views(db, wallets, DATE, signal));
      const whole = await timed(() => portfolioViewUnlessAborted(db, wallets, DATE, signal));
      rows.push([`after a sync of ${synced} wallet${synced > 1 ? 's' : ''}`, `whole build ${whole} s; with kept parts ${kept} s`]);
    } finally {
      db.exec('ROLLBACK');
    }
  }
  db.close();
  report(`${name}: all wallets asked again after a sync filed other dates of some wallets`, rows);
}

interface Run {
  ms: number;
  cpuMs: number | null;
  bytes: number;
  code: number | null;
  failure: string;
}

function summary(r: Run[]): string {
  const failed = r.find((x) => x.code !== 0 && x.code !== 3);
  if (failed) return `failed (exit ${failed.code}): ${failed.failure}`;
  const each = r.map((x) => `${fmt(x.ms / 1000, 2)} s${x.cpuMs === null ? '' : ` (CPU ${fmt(x.cpuMs / 1000, 2)} s)`}`).join(', ');
  const b = r[0]!.bytes;
  return `${each}; ${b >= 1e6 ? `${fmt(b / 1e6, 1)} MB` : `${fmt(b / 1e3, 1)} kB`} written`;
}

async function runs(args: readonly string[], n: number): Promise<Run[]> {
  const out: Run[] = [];
  for (let i = 0; i < n; i++) out.push(await once(args));
  return out;
}

/** One run of the program: its stdout counted, not kept; its CPU time from /usr/bin/time when installed. */
async function once(args: readonly string[]): Promise<Run> {
  const timeFile = join(DATA_DIR, `portfolio-cpu-${process.pid}.txt`);
  const timed = existsSync('/usr/bin/time');
  const [command, argv] = timed ? ['/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, CLI, ...args]] : [process.execPath, [CLI, ...args]];
  const env = { ...process.env };
  delete env['FOLIOSCOPE_ACCESS_KEY'];
  const t = performance.now();
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let bytes = 0;
  let err = '';
  child.stdout.on('data', (d: Buffer) => (bytes += d.length));
  child.stderr.on('data', (d: Buffer) => (err += String(d)));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const ms = performance.now() - t;
  const cpu = timed ? readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(/\s+/).map(Number) : [];
  rmSync(timeFile, { force: true });
  return {
    ms,
    cpuMs: cpu.length === 2 && cpu.every(Number.isFinite) ? (cpu[0]! + cpu[1]!) * 1000 : null,
    bytes,
    code,
    failure: err.trim().split('\n').at(-1) ?? '',
  };
}
