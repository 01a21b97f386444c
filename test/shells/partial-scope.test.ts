import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, useSimProcess } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * One truth for a whole treasury (the portfolio view, core/portfolio/view.ts), as a treasurer's
 * cron job and auditor meet it: a group of two wallets where one has no snapshot at the date
 * asked. Every file and the CLI must say the total is partial and name the missing wallet;
 * a reconciliation figure of a date not cached is unknown (null), never 0. Run as processes,
 * the files read back from disk. Before the view, the PDF read "36 positions across 2 wallets",
 * the CSV "Wrote 59 rows", exit 0, and reconcile gave closing_qty 0.
 */
const KEY = 'partial-scope-key-3e9a51';
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '40']);
const run = (args: string[]) => runCli(args, { FOLIOSCOPE_ACCESS_KEY: KEY });

const DATE = '2025-12-31';
const EARLIER = '2025-12-01';
const A = WALLET;
const B = WALLET_2;
let dir: string;
let g: string[];

beforeAll(async () => {
  dir = tempDir();
  g = ['--data-dir', dir, '--base-url', sim.url];
  for (const args of [
    ['wallet', 'add', A, '--chains', 'eth,arb', '--label', 'Treasury'],
    ['wallet', 'add', B, '--chains', 'eth', '--label', 'Ops'],
    ['group', 'save', 'Fund', '--wallets', `${A},${B}`],
    // A at both dates, B at the earlier one only: B is not cached at DATE.
    ['sync', '--wallet', A, '--date', DATE, '--no-transactions'],
    ['sync', '--wallet', A, '--date', EARLIER, '--no-transactions'],
    ['sync', '--wallet', B, '--date', EARLIER, '--no-transactions'],
  ]) {
    const r = await run([...g, ...args]);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
}, 120_000);

describe('a group with a wallet not cached at the date', () => {
  it('the positions CSV: a coverage column, a row naming the missing wallet, a note, and exit 3', async () => {
    const out = join(dir, 'positions.csv');
    const r = await run([...g, 'export', 'csv', '--report', 'positions', '--group', 'Fund', '--date', DATE, '--out', out]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/Note: the export is incomplete/);
    expect(r.stdout).toContain(`Ops (eth): not cached at ${DATE}`);
    expect(r.stdout).toContain(`cached at ${EARLIER}; not used`);
    const records = parse(readFileSync(out), { columns: true, bom: true }) as Array<Record<string, string>>;
    const ofA = records.filter((x) => x['wallet'] === A);
    const ofB = records.filter((x) => x['wallet'] === B);
    expect(ofA.length).toBeGreaterThan(0);
    expect(ofA.every((x) => x['coverage'] === 'partial')).toBe(true);
    expect(ofB).toHaveLength(1);
    expect(ofB[0]).toMatchObject({ chain: 'eth', coverage: 'not cached', wallet_label: 'Ops', nav_usd: '' });
    expect(ofB[0]!['data_quality']).toContain(`not cached at ${DATE}`);
  });

  it('the PDF: its summary names the missing wallet, the totals say partial, the count says 1 of 2 wallets', async () => {
    const out = join(dir, 'report.pdf');
    const r = await run([...g, 'export', 'pdf', '--group', 'Fund', '--date', DATE, '--out', out]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/Note: the report is incomplete/);
    const text = execFileSync('pdftotext', [out, '-']).toString().replace(/\s+/g, ' ');
    expect(text).toContain('Total NAV (partial)');
    expect(text).toMatch(/Partial: 1 of the 3 wallet chains of this report is not cached at 2025-12-31/);
    expect(text).toContain(`Ops ${B} on eth (cached at ${EARLIER}; not used)`);
    expect(text).toMatch(/positions across 1 of 2 wallets and 2 chains/);
  });

  it('the CLI portfolio: the same total as the PDF, the missing wallet named, exit 3', async () => {
    const json = await run([...g, 'portfolio', '--group', 'Fund', '--date', DATE, '--json']);
    expect(json.status, json.stderr).toBe(3);
    // The summary (the default): the member not cached named among those not fully cached, counted.
    const view = JSON.parse(json.stdout) as {
      complete: boolean;
      walletsCounted: number;
      totals: { total: number };
      coverage: { notCached: number; notFullyCached: { members: Array<{ wallet: string; state: string }> } };
    };
    expect(view).toMatchObject({ complete: false, walletsCounted: 1, coverage: { notCached: 1 } });
    expect(view.coverage.notFullyCached.members.filter((m) => m.state === 'not-cached').map((m) => m.wallet)).toEqual([B]);
    const all = await run([...g, 'portfolio', '--group', 'Fund', '--date', DATE, '--json', '--all']);
    expect(all.status, all.stderr).toBe(3);
    expect(JSON.parse(all.stdout)).toMatchObject({ complete: false, walletsCounted: 1, totals: view.totals, missing: [{ wallet: B }] });
    const total = `$${view.totals.total.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    const pdf = execFileSync('pdftotext', [join(dir, 'report.pdf'), '-']).toString();
    expect(pdf).toContain(total);
    const table = await run([...g, 'portfolio', '--group', 'Fund', '--date', DATE]);
    expect(table.status).toBe(3);
    expect(table.stdout).toContain(`PARTIAL portfolio as of ${DATE}: total NAV ${total}`);
    expect(table.stdout).toMatch(new RegExp(`NOT CACHED\\t${B}\\teth\\tOps\\tnot in the totals; cached at ${EARLIER} \\(not used\\)`));
    const whole = await run([...g, 'portfolio', '--wallet', A, '--date', DATE]);
    expect(whole.status, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^Portfolio as of/);
  });

  it('the unlock calendar of a date a member lacks says so (an empty calendar would read as no unlocks)', async () => {
    const out = join(dir, 'unlocks.ics');
    const r = await run([...g, 'export', 'ics', '--group', 'Fund', '--date', DATE, '--out', out]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toContain(`Ops (eth): not cached at ${DATE}`);
    const none = await run([...g, 'export', 'ics', '--wallet', B, '--date', DATE, '--out', join(dir, 'b.ics')]);
    expect(none.status).toBe(3);
    expect(none.stdout).toMatch(/Wrote 0 unlocks[\s\S]*Note: the export is incomplete/);
  });

  it('a complete scope says nothing of the kind and exits 0', async () => {
    const out = join(dir, 'a.csv');
    const r = await run([...g, 'export', 'csv', '--report', 'positions', '--wallet', A, '--date', DATE, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/incomplete/);
    const records = parse(readFileSync(out), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((x) => x['coverage'] === 'complete')).toBe(true);
  });

  it('reconcile: a figure of a date not cached is null ("—"), never 0, and the CLI exits 3 saying why', async () => {
    const json = await run([...g, 'reconcile', '--group', 'Fund', '--from', EARLIER, '--to', DATE, '--json']);
    expect(json.status).toBe(3);
    expect(json.stderr).toContain(`positions at ${DATE} are not cached`);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    const ofB = rows.filter((x) => x['wallet'] === B);
    expect(ofB.length).toBeGreaterThan(0);
    for (const x of ofB) {
      expect(x['closing_qty']).toBeNull();
      expect(x['unexplained_qty']).toBeNull();
      expect(x['status']).toBe('incomplete');
    }
    // The opening date is cached for B: its figures are known.
    expect(ofB.some((x) => typeof x['opening_qty'] === 'number' && x['opening_qty'] !== 0)).toBe(true);
    const table = await run([...g, 'reconcile', '--wallet', B, '--from', EARLIER, '--to', DATE]);
    expect(table.status).toBe(3);
    const line = table.stdout.split('\n').find((l) => l.startsWith(B.slice(0, 10)));
    expect(line?.split('\t')[6]).toBe('—');
  });
});
