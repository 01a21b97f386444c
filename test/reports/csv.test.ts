import { parse } from 'csv-parse/sync';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../src/main/core/reports/csv.ts';
import { CSV_COLUMNS, exportCsv, type CsvRequest } from '../../src/main/core/reports/csv-reports.ts';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { transaction as transactionSchema, type Transaction } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { fillCache } from './fixture.ts';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const ctx = useSimulator({ txnsPerWallet: 1500 });
let db: WritableDB;
beforeAll(async () => {
  db = openDatabase(join(tempDir(), 'cache.sqlite'));
  await fillCache(ctx.sim, db);
});
afterAll(() => db.close());

async function csv(req: CsvRequest): Promise<{ text: string; records: Array<Record<string, string>> }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportCsv(db, req, out);
  const text = Buffer.concat(chunks).toString('utf8');
  return { text, records: parse(text, { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>> };
}
const num = (s: string | undefined) => Number(s);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('CSV writing (RFC 4180)', () => {
  it('quotes what needs quoting, keeps numbers machine-readable, neutralises formulas', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', 1234567.891, -5.5, 1e-7, null, true])).toBe(
      'a,"b,c","say ""hi""","two\nlines",1234567.891,-5.5,0.0000001,,true\r\n',
    );
    for (const danger of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(danger).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell(-42)).toBe('-42'); // a negative number is a number, not a formula
  });
});

describe('CSV reports from the cache', () => {
  it('positions: one row per underlying, adding up to the cached totals', async () => {
    const { text, records } = await csv({ report: 'positions', date: '2025-12-31' });
    expect(text.startsWith('\ufeff' + CSV_COLUMNS.positions.join(',') + '\r\n')).toBe(true);
    for (const [wallet, chain] of [
      [WALLET, 'eth'],
      [WALLET, 'arb'],
      [WALLET_2, 'eth'],
    ] as const) {
      const snap = latestSnapshot(db, 'allPositions', wallet, chain, '2025-12-31')!;
      const rows = records.filter((r) => r['wallet'] === wallet && r['chain'] === chain);
      expect(sum(rows.map((r) => num(r['nav_usd'])))).toBeCloseTo(snap.totalNav!, 2);
      expect(rows.every((r) => r['request_id'] === snap.requestId && r['as_of'] === '2025-12-31')).toBe(true);
      const underlyingCount = snap.data[0]!.positions.reduce((n, p) => n + p.underlying.length, 0);
      expect(rows).toHaveLength(underlyingCount);
    }
    expect(records.some((r) => r['collateral_debt_ratio'] !== '')).toBe(true);
  });

  it('underlying and liquidity: one row per breakdown entry / underlying', async () => {
    const u = await csv({ report: 'underlying', date: '2025-12-31', wallet: WALLET });
    const totalsByToken = new Map(u.records.map((r) => [`${r['chain']}|${r['token_id']}`, num(r['token_total_nav_usd'])]));
    const summed = new Map<string, number>();
    for (const r of u.records) summed.set(`${r['chain']}|${r['token_id']}`, (summed.get(`${r['chain']}|${r['token_id']}`) ?? 0) + num(r['nav_usd']));
    for (const [k, v] of totalsByToken) expect(summed.get(k)).toBeCloseTo(v, 1);
    const l = await csv({ report: 'liquidity', date: '2025-12-31', wallet: WALLET });
    expect(l.records.length).toBeGreaterThan(5);
    expect(l.records.every((r) => r['wallet'] === WALLET)).toBe(true);
  });

  it('transactions: one row per transfer, fees counted once per transaction, for a period and filters', async () => {
    const { records } = await csv({ report: 'transactions', from: '2025-10-01', to: '2025-12-31' });
    const hashes = new Set(records.map((r) => r['txn_hash']));
    const cached = db
      .prepare('SELECT count(*) AS n, sum(gas_fee) AS fees FROM transactions WHERE time >= ? AND time < ?')
      .get(Date.parse('2025-10-01'), Date.parse('2026-01-01')) as { n: number; fees: number };
    expect(hashes.size).toBe(cached.n);
    expect(sum(records.map((r) => num(r['fee_usd'] || '0')))).toBeCloseTo(cached.fees, 4);
    expect(records.every((r) => r['date']! >= '2025-10-01' && r['date']! < '2026-01-01')).toBe(true);
    expect(records.map((r) => r['date'])).toEqual([...records.map((r) => r['date'])].sort()); // oldest first
    const swaps = await csv({ report: 'transactions', wallet: WALLET, filter: { actionTypes: ['swap'] } });
    expect(new Set(swaps.records.map((r) => r['action_type']))).toEqual(new Set(['swap']));
    expect(swaps.records.some((r) => r['direction'] === 'out' && num(r['qty']) > 0)).toBe(true);
  });

  it('history: NAV per cached date', async () => {
    const { records } = await csv({ report: 'history', wallet: WALLET });
    expect(records.map((r) => r['date'])).toEqual([
      '2025-10-01',
      '2025-10-08',
      '2025-10-15',
      '2025-10-22',
      '2025-10-29',
      '2025-11-05',
      '2025-11-12',
      '2025-11-19',
      '2025-11-26',
      '2025-12-03',
      '2025-12-10',
      '2025-12-17',
      '2025-12-24',
      '2025-12-31',
    ]);
    const eth = latestSnapshot(db, 'allPositions', WALLET, 'eth', '2025-10-01')!.totalNav!;
    const arb = latestSnapshot(db, 'allPositions', WALLET, 'arb', '2025-10-01')!.totalNav!;
    expect(num(records[0]!['total_nav_usd'])).toBeCloseTo(eth + arb, 4);
  });

  it('neutralises a formula in a label, and still parses to the same text', async () => {
    const { text, records } = await csv({ report: 'positions', date: '2025-12-31', wallet: WALLET_2 });
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(records[0]!['wallet_label']).toBe(`'=HYPERLINK("http://evil.example","x")`);
  });

  it('says what is missing instead of writing an empty file', async () => {
    await expect(csv({ report: 'positions' })).rejects.toThrow('Choose the date');
    await expect(csv({ report: 'positions', date: '2025-01-01', wallet: '0x' + '9'.repeat(40) })).rejects.toThrow('not a watched wallet');
  });
});

describe('a large transactions export streams', () => {
  it('writes 200,000 transactions to a slow reader in bounded memory', async () => {
    const big = openDatabase(join(tempDir(), 'big.sqlite'));
    const wallet = '0x' + 'b'.repeat(40);
    addWallet(big, { address: wallet, chains: ['eth'] });
    const h = historyOf(
      { seed: 9, txnsPerWallet: 200_000, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
      wallet,
      CHAINS[0]!,
    );
    for (let i = 0; i < 200_000; i += 2000) {
      const page: Transaction[] = [];
      for (let j = i; j < i + 2000; j++) page.push(transactionSchema.parse(transactionAt(h, j)));
      big.transaction(() => upsertTransactions(big, wallet, 'eth', page)).immediate();
    }
    // What the export keeps alive, not the garbage a collection has yet to take (that depends
    // on the machine's load): the heap is measured after a full collection at each chunk
    // (the writer's chunks are large: ~90 for the whole file).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let bytes = 0;
    let lines = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) lines++;
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
        setImmediate(cb); // a consumer slower than the producer
      },
    });
    const progress: number[] = [];
    const { rows } = await exportCsv(big, { report: 'transactions' }, slow, (done) => progress.push(done));
    big.close();
    expect(rows).toBeGreaterThanOrEqual(200_000);
    expect(lines).toBe(rows + 1);
    expect(bytes).toBeGreaterThan(50 * 1024 * 1024);
    // The whole file is > 50 MB; the heap never held more than a small part of it.
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);
    expect(progress.at(-1)).toBe(200_000);
  }, 120_000);
});
