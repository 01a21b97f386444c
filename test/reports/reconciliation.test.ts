import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { reconcile } from '../../src/main/core/analytics/store/reconcile.ts';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/** The reconciliation as a CSV report and a PDF section, read back with csv-parse and poppler. */
const ctx = useSimulator({ txnsPerWallet: 1500 });
let db: WritableDB;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-recrep-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function csv(name: string, req: Parameters<typeof exportCsv>[1]): Promise<Array<Record<string, string>>> {
  const path = join(dir, name);
  await writeAtomically(path, (out) => exportCsv(db, req, out));
  return parse(readFileSync(path, 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
}
const pdfText = async (name: string, req: Parameters<typeof exportPdf>[1]) => {
  const path = join(dir, name);
  await writeAtomically(path, (out) => exportPdf(db, req, out));
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
};

describe('reconciliation report', () => {
  it('CSV: one row per wallet, chain and token, with the exact figures of the query', async () => {
    const rows = await csv('rec.csv', { report: 'reconciliation', from: '2025-10-01', to: '2025-12-31' });
    const r = reconcile(db, { wallets: [WALLET, WALLET_2], from: '2025-10-01', to: '2025-12-31' });
    expect(r.complete).toBe(true);
    expect(rows).toHaveLength(r.rows.length);
    rows.forEach((row, i) => {
      const x = r.rows[i]!;
      expect(row).toMatchObject({ wallet: x.wallet, chain: x.chain, token_cid: x.token_cid, status: x.status, problems: '' });
      // Numbers round-trip exactly (shortest representation, no exponent).
      for (const k of ['opening_qty', 'inflow_qty', 'outflow_qty', 'closing_qty', 'unexplained_qty'] as const) expect(Number(row[k])).toBe(x[k]);
      const [o, inflow, out, c, u] = ['opening_qty', 'inflow_qty', 'outflow_qty', 'closing_qty', 'unexplained_qty'].map((k) => Number(row[k]));
      expect(Math.abs(o! + inflow! - out! + u! - c!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(o!), Math.abs(c!), inflow!, out!));
    });
    expect(rows.filter((x) => x.status === 'reconciled' && Number(x.txn_count) > 0).length).toBeGreaterThan(0);
    expect(new Set(rows.map((x) => x.wallet))).toEqual(new Set([WALLET, WALLET_2]));
  });

  it('CSV: says on each row what is missing when a date is not cached', async () => {
    const rows = await csv('rec-missing.csv', { report: 'reconciliation', wallet: WALLET, from: '2025-10-02', to: '2025-12-31' });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x) => x.status === 'incomplete' && x.problems!.includes('positions at 2025-10-02 are not cached'))).toBe(true);
  });

  it('PDF: a section with the boundary, the verdict and every token', async () => {
    const t = await pdfText('rec.pdf', { date: '2025-12-31', wallet: WALLET, from: '2025-10-01', to: '2025-12-31' });
    expect(t).toContain('Roll-forward reconciliation, 2025-10-01 to 2025-12-31');
    expect(t).toMatch(/transfers of successful transactions dated 2025-10-02 to\s+2025-12-31/);
    const r = reconcile(db, { wallets: [WALLET], from: '2025-10-01', to: '2025-12-31' });
    // The screen's counts and words (src/shared/reconcile-summary.ts): a remainder held in protocol positions is not "unexplained".
    const exact = r.rows.filter((x) => x.status === 'reconciled' && x.txn_count > 0).length;
    const unexplained = r.rows.filter((x) => x.status === 'unexplained' && x.wallet_unexplained_qty !== 0).length;
    expect(t.replace(/\s+/g, ' ')).toContain(
      `Complete: ${r.rows.length} tokens: ${exact} that moved ${exact === 1 ? 'reconciles' : 'reconcile'} exactly, ${unexplained} ${unexplained === 1 ? 'shows' : 'show'} an unexplained remainder.`,
    );
    const section = t.slice(t.indexOf('Roll-forward reconciliation'));
    for (const x of r.rows) expect(section).toMatch(new RegExp(`Treasury\\s+${x.chain}\\s+${x.token_symbol}\\s`));
  });

  it('PDF: says plainly when it is incomplete', async () => {
    const t = await pdfText('rec-missing.pdf', { date: '2025-12-31', wallet: WALLET, from: '2025-10-02', to: '2025-12-31' });
    expect(t).toContain('Incomplete: the rows marked "incomplete" rest on missing data.');
    expect(t).toContain('Treasury eth: positions at 2025-10-02 are not cached (sync that date)');
  });
});
