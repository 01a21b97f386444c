import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf, pdfText } from '../../src/main/core/reports/pdf.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';
import { fillCache } from './fixture.ts';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Checked with poppler, as a reader's tools see it. */
const ctx = useSimulator({ txnsPerWallet: 1500 });
let db: WritableDB;
let dir: string;
beforeAll(async () => {
  // Kept for the whole file (tempDir() is emptied after each test).
  dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function pdf(name: string, req: Parameters<typeof exportPdf>[1]) {
  const path = join(dir, name);
  const { pages } = await writeAtomically(path, (out) => exportPdf(db, req, out));
  return { path, pages };
}
const info = (path: string) => execFileSync('pdfinfo', [path], { encoding: 'utf8' });
const text = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
const money = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

describe('the portfolio report (PDF)', () => {
  it('for all wallets at a date with a period: pages, totals, addresses, provenance, transactions', async () => {
    const { path, pages } = await pdf('all.pdf', { date: '2025-12-31', from: '2025-10-01', to: '2025-12-31' });
    expect(info(path)).toMatch(new RegExp(`Pages:\\s+${pages}\\b`));
    expect(info(path)).toMatch(/Title:\s+Folioscope portfolio report 2025-12-31/);
    expect(pages).toBeGreaterThan(3);
    const t = text(path);
    const model = buildReportModel(db, { date: '2025-12-31', from: '2025-10-01', to: '2025-12-31' });
    expect(t).toContain(money(model.totals.total!));
    expect(t).toContain(money(model.totals.principal!));
    expect(t).toContain(WALLET);
    expect(t).toContain(WALLET_2);
    for (const heading of [
      'Summary',
      'NAV over dates',
      'Allocation',
      'Positions',
      'Liquidity and risk',
      'Transactions, 2025-10-01 to 2025-12-31',
      'Provenance of the data',
    ])
      expect(t).toContain(heading);
    // Provenance: the request IDs and SHA-256 of the responses behind the figures.
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', '2025-12-31')!;
    expect(t).toContain(snap.requestId!);
    expect(t).toContain(snap.sha256);
    expect(t).toMatch(new RegExp(`${model.transactionsTotal} transactions in the period`));
    expect(t).toMatch(new RegExp(`Page ${pages} of ${pages}`));
    // The positions table runs over pages with its header repeated.
    expect(t.match(/Position\s+Protocol\s+Type\s+Chain\s+Wallet\s+Principal\s+Rewards/g)!.length).toBeGreaterThanOrEqual(1);
    expect(t.match(/Date \(UTC\)\s+Wallet\s+Chain\s+Action/g)!.length).toBeGreaterThan(1);
  });

  it('for one wallet, without a period: positions only, and its totals', async () => {
    const { path } = await pdf('one.pdf', { date: '2025-11-05', wallet: WALLET });
    const t = text(path);
    const eth = latestSnapshot(db, 'allPositions', WALLET, 'eth', '2025-11-05')!;
    const arb = latestSnapshot(db, 'allPositions', WALLET, 'arb', '2025-11-05')!;
    expect(t).toContain(money(eth.totalNav! + arb.totalNav!));
    expect(t).not.toContain(WALLET_2);
    expect(t).not.toContain('Transactions, ');
  });

  it('is deterministic: the same cache and request give the same bytes', async () => {
    const a = await pdf('a.pdf', { date: '2025-12-31', from: '2025-11-01', to: '2025-12-31' });
    const b = await pdf('b.pdf', { date: '2025-12-31', from: '2025-11-01', to: '2025-12-31' });
    expect(readFileSync(a.path).equals(readFileSync(b.path))).toBe(true);
  });

  it('refuses a date with nothing cached, and leaves no file behind', async () => {
    await expect(pdf('none.pdf', { date: '2024-01-01' })).rejects.toThrow('No positions are cached for 2024-01-01');
    expect(existsSync(join(dir, 'none.pdf'))).toBe(false);
    expect(existsSync(join(dir, 'none.pdf.partial'))).toBe(false);
  });

  it('renders to images with poppler', () => {
    const out = join(dir, 'page');
    execFileSync('pdftoppm', ['-r', '40', '-png', '-singlefile', '-f', '1', '-l', '1', join(dir, 'all.pdf'), out]);
    expect(readFileSync(`${out}.png`).subarray(1, 4).toString()).toBe('PNG');
  });

  it('keeps to what the fonts can show: Helvetica, else an embedded Noto font', () => {
    expect(pdfText('−1 WETH → +2 USDC — ok… é')).toBe('-1 WETH -> +2 USDC — ok… é');
    // Greek is in Noto Sans, Thai and emoji in Noto Sans Thai and Noto Emoji (issue 39 item 3);
    // Georgian and Ethiopic are in no font the PDF embeds.
    expect(pdfText('Δ ก🦄')).toBe('Δ ก🦄');
    expect(pdfText('აሀ')).toBe('??');
  });
});
