import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * An auditor's attack on "one truth for a whole treasury" (issue 25 item 2): the same scope and
 * date, read through every file and the CLI against the real simulator (a process), must agree
 * on the total, the count and what is missing; and every file the CLI calls incomplete must say
 * so itself. Each test below failed when written (the findings of the attack). The CLI runs in
 * this process (runCliHere, the entry the process runs), since what is compared is what it
 * wrote; the last test runs it as a process, whose exit code a cron job reads.
 */
const KEY = 'one-truth-attack-key-7c1d';
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '40']);
const run = (args: string[]) => runCliHere(args, { env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
const asProcess = (args: string[]) => runCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });
const A = WALLET;
const B = WALLET_2;
const DATE = '2025-12-31';
const EARLIER = '2025-12-01';

async function setUp(steps: string[][]): Promise<string[]> {
  const g = ['--data-dir', tempDir(), '--base-url', sim.url];
  for (const args of steps) {
    const r = await run([...g, ...args]);
    expect([0, 3], `${args.join(' ')}: ${r.stderr}`).toContain(r.status);
  }
  return g;
}

const csv = (file: string) => parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;

/** Position-level sums of a positions CSV (its rows are per underlying token). */
function positionSums(rows: Array<Record<string, string>>): { count: number; principal: number } {
  const seen = new Map<string, Record<string, string>>();
  for (const r of rows.filter((x) => x['coverage'] !== 'not cached'))
    seen.set([r['wallet'], r['chain'], r['protocol_id'], r['position_cid'], r['position_name']].join('|'), r);
  const principal = [...seen.values()].reduce((s, r) => s + Number(r['position_principal_nav_usd'] || 0), 0);
  return { count: seen.size, principal: Math.round(principal * 100) / 100 };
}

describe('a wallet whose chain list changed after its snapshots were taken', () => {
  it('the position CSVs hold only the chains it watches now, and their sum is the portfolio total', async () => {
    // Watched on eth and arb and synced; then watched on eth only (removed, kept, re-added).
    const g = await setUp([
      ['wallet', 'add', A, '--chains', 'eth,arb', '--label', 'Treasury'],
      ['sync', '--wallet', A, '--date', DATE, '--no-transactions'],
      ['wallet', 'remove', A],
      ['wallet', 'add', A, '--chains', 'eth', '--label', 'Treasury'],
    ]);
    const json = await run([...g, 'portfolio', '--date', DATE, '--json']);
    expect(json.status, json.stderr).toBe(0);
    const view = JSON.parse(json.stdout) as { totals: { principal: number; count: number }; chainsCounted: string[] };
    expect(view.chainsCounted).toEqual(['eth']);
    for (const report of ['positions', 'underlying', 'liquidity']) {
      const out = join(g[1]!, `${report}.csv`);
      const r = await run([...g, 'export', 'csv', '--report', report, '--date', DATE, '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      // Before: 29 rows of arb, a chain no longer watched, in a sheet marked "complete".
      expect(new Set(csv(out).map((x) => x['chain'])), report).toEqual(new Set(['eth']));
    }
    const sums = positionSums(csv(join(g[1]!, 'positions.csv')));
    expect(sums).toEqual({ count: view.totals.count, principal: view.totals.principal });
  }, 120_000);
});

describe('a group whose members are cached at an earlier date than another wallet', () => {
  it("export without --date takes the group's newest date, as `portfolio --group` does", async () => {
    // A (not in the group) at DATE; the group's only member B at EARLIER only.
    const g = await setUp([
      ['wallet', 'add', A, '--chains', 'eth', '--label', 'Treasury'],
      ['wallet', 'add', B, '--chains', 'eth', '--label', 'Ops'],
      ['group', 'save', 'Ops only', '--wallets', B],
      ['sync', '--wallet', A, '--date', DATE, '--no-transactions'],
      ['sync', '--wallet', B, '--date', EARLIER, '--no-transactions'],
    ]);
    const p = await run([...g, 'portfolio', '--group', 'Ops only']);
    expect(p.status, p.stderr).toBe(0);
    expect(p.stdout).toMatch(new RegExp(`^Portfolio as of ${EARLIER}`));
    const out = join(g[1]!, 'group.csv');
    const c = await run([...g, 'export', 'csv', '--report', 'positions', '--group', 'Ops only', '--out', out]);
    // Before: the newest date of all wallets (DATE), where the group has nothing: one
    // "not cached" row, exit 3; and the PDF failed ("No positions are cached for 2025-12-31").
    expect(c.status, c.stdout + c.stderr).toBe(0);
    expect(new Set(csv(out).map((x) => x['as_of']))).toEqual(new Set([EARLIER]));
    const pdf = await run([...g, 'export', 'pdf', '--group', 'Ops only', '--out', join(g[1]!, 'group.pdf')]);
    expect(pdf.stderr).not.toContain('No positions are cached');
    expect(pdf.stdout).toContain(`(as of ${EARLIER})`);
  }, 120_000);
});

describe('what the CLI calls incomplete, the file says itself', () => {
  it('a positions-only PDF of a fully cached scope: a Note about transactions only if the PDF says it too', async () => {
    const g = await setUp([
      ['wallet', 'add', A, '--chains', 'eth', '--label', 'Treasury'],
      ['sync', '--wallet', A, '--date', DATE, '--no-transactions'],
    ]);
    const out = join(g[1]!, 'r.pdf');
    const r = await run([...g, 'export', 'pdf', '--date', DATE, '--out', out]);
    const text = execFileSync('pdftotext', [out, '-']).toString().replace(/\s+/g, ' ');
    expect(text).toContain('none (positions only)');
    // Before: exit 3 and "Note: the report is incomplete (the file says so): … transactions never
    // synced", while the file (no period, no transactions section) says nothing of the kind.
    if (r.status === 3) expect(text).toMatch(/transactions[^.]*(never synced|not synced)/i);
    else expect(r.status, r.stderr).toBe(0);
  }, 120_000);

  it('the reconciliation CSV with rows "incomplete" exits 3 with a Note, as `reconcile` does', async () => {
    const g = await setUp([
      ['wallet', 'add', A, '--chains', 'eth', '--label', 'Treasury'],
      ['sync', '--wallet', A, '--date', DATE, '--no-transactions'],
      ['sync', '--wallet', A, '--date', EARLIER, '--no-transactions'],
    ]);
    const rec = await run([...g, 'reconcile', '--from', EARLIER, '--to', DATE]);
    expect(rec.status).toBe(3);
    const out = join(g[1]!, 'rec.csv');
    const r = await run([...g, 'export', 'csv', '--report', 'reconciliation', '--from', EARLIER, '--to', DATE, '--out', out]);
    const rows = csv(out);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x) => x['status'] === 'incomplete')).toBe(true);
    // Before: exit 0 and no Note: a cron job took an unproved roll-forward for a proved one.
    expect(r.status, r.stdout).toBe(3);
    expect(r.stdout).toMatch(/Note: the export is incomplete/);
  }, 120_000);

  it('the NAV history CSV names the member a partial date lacks, as the chart marks it partial', async () => {
    const g = await setUp([
      ['wallet', 'add', A, '--chains', 'eth', '--label', 'Treasury'],
      ['wallet', 'add', B, '--chains', 'eth', '--label', 'Ops'],
      ['sync', '--wallet', A, '--date', DATE, '--no-transactions'],
      ['sync', '--wallet', A, '--date', EARLIER, '--no-transactions'],
      ['sync', '--wallet', B, '--date', EARLIER, '--no-transactions'],
    ]);
    const view = await run([...g, 'portfolio', '--date', DATE]);
    expect(view.status).toBe(3);
    const out = join(g[1]!, 'history.csv');
    const r = await run([...g, 'export', 'csv', '--report', 'history', '--out', out]);
    const rows = csv(out);
    const partial = rows.find((x) => x['date'] === DATE)!;
    expect(partial).toMatchObject({ chains_cached: '1', chains_watched: '2' });
    // Before: the partial total written as a plain figure (exit 0, no Note), the member unnamed.
    expect(Object.values(partial).join(' ')).toMatch(/Ops \(eth\)|0x00000000219ab540356cbb839cbe05303d7705fa/);
    expect(r.status).toBe(3);
  }, 120_000);
});

describe('the all-wallets scope with no wallet', () => {
  it('`portfolio` does not call an empty scope a complete portfolio (the PDF refuses it)', async () => {
    const g = ['--data-dir', tempDir(), '--base-url', sim.url];
    const pdf = await asProcess([...g, 'export', 'pdf', '--date', DATE, '--out', join(g[1]!, 'r.pdf')]);
    expect(pdf.stderr).toContain('No wallets are watched');
    const p = await asProcess([...g, 'portfolio', '--date', DATE]);
    // Before: "Portfolio as of 2025-12-31: total NAV — …, 0 positions across 0 wallets", exit 0.
    expect(p.status).not.toBe(0);
    expect(p.stdout).not.toMatch(/^Portfolio as of/);
  }, 60_000);
});
