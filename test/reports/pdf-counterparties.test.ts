import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { nameTrace } from '../../src/main/core/ledger/trace.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { reconcileTrace } from '../../src/main/core/analytics/store/reconcile.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { fillCache } from './fixture.ts';

/**
 * The PDF's transactions name their counterparties from the address book (read back with
 * poppler), and the reconcile trace names each row's other end.
 */
const ctx = useSimulator({ txnsPerWallet: 300 });
let db: WritableDB;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folioscope-pdf-book-'));
  db = openDatabase(join(dir, 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('counterparties in the PDF and the reconcile trace', () => {
  it('lists the name of the other end of each transaction', async () => {
    const req = { date: '2025-12-31', wallet: WALLET, from: '2025-10-01', to: '2025-12-31' };
    const before = buildReportModel(db, req);
    const sent = before.transactions.find((t) => t.from === WALLET && t.to && t.to !== WALLET)!;
    saveCounterparty(db, { address: sent.to!, name: 'Grantee Zeta' });
    const path = join(dir, 'book.pdf');
    await writeAtomically(path, (out) => exportPdf(db, req, out));
    const raw = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' });
    expect(raw).toContain('Counterparty');
    const listed = buildReportModel(db, req).transactions.filter((t) => t.to === sent.to || t.from === sent.to).length;
    expect(listed).toBeGreaterThan(0);
    expect(raw.split('Grantee Zeta').length - 1).toBe(listed);

    // A name in CJK prints in the embedded font, alone (issue 39 item 3).
    const ends = `(${sent.to!.slice(0, 6)}...${sent.to!.slice(-4)})`;
    saveCounterparty(db, { address: sent.to!, name: '東京商事' });
    await writeAtomically(path, (out) => exportPdf(db, req, out));
    const cjk = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    expect(cjk.split('東京商事').length - 1).toBe(listed);
    expect(cjk).not.toContain(ends);
    // Thai prints too now (Noto Sans Thai), alone.
    saveCounterparty(db, { address: sent.to!, name: 'กองทุน' });
    await writeAtomically(path, (out) => exportPdf(db, req, out));
    const thai = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    expect(thai.split('กองทุน').length - 1).toBe(listed);
    expect(thai).not.toContain(ends);
    // A name no embedded font prints (Ethiopic) keeps the address's ends beside it.
    saveCounterparty(db, { address: sent.to!, name: 'ገንዘብ' });
    await writeAtomically(path, (out) => exportPdf(db, req, out));
    const ethiopic = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    expect(ethiopic.split(`????${ends}`).length - 1).toBe(listed);
  });

  it('names the trace rows', () => {
    // A token the wallet moved on eth in the period: its trace.
    const moved = buildReportModel(db, { date: '2025-12-31', wallet: WALLET, from: '2025-10-01', to: '2025-12-31' }).transactions.find(
      (t) => t.chain === 'eth' && t.status === 1 && t.details.some((d) => d.token_cid),
    )!;
    const any = reconcileTrace(db, {
      wallet: WALLET,
      chain: 'eth',
      tokenCid: moved.details.find((d) => d.token_cid)!.token_cid!,
      from: '2025-10-01',
      to: '2025-12-31',
    });
    expect(any.length).toBeGreaterThan(0);
    const named = nameTrace(db, WALLET, 'eth', any);
    for (const r of named) expect(r.counterparty).toBeDefined();
    const ends = db.prepare('SELECT from_addr, to_addr FROM transactions WHERE txn_hash = ? AND wallet = ?').get(named[0]!.txn_hash, WALLET) as {
      from_addr: string;
      to_addr: string;
    };
    const other = ends.from_addr === WALLET ? ends.to_addr : ends.from_addr;
    saveCounterparty(db, { address: other, name: 'Trace Name' });
    expect(nameTrace(db, WALLET, 'eth', any)[0]!.counterparty).toEqual({ address: other, name: 'Trace Name', kind: 'book' });
  });
});
