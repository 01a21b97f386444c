import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { reconcile, rangesCover } from '../../src/main/core/analytics/store/reconcile.ts';
import { refreshTransferDaysFor } from '../../src/main/core/transactions/store/transfer-days-refresh.ts';
import { ValidationError } from '../../src/main/core/store/validation.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { markSynced, putHoldings, putTransactions, type TestTransfer } from '../support/analytics.ts';
import { createDB } from '../support/store.ts';

const W = '0x' + '1'.repeat(40);
const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const ms = (iso: string) => Date.parse(iso);
const sec = (iso: string) => Date.parse(iso) / 1000;

function setup() {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth'] });
  return db;
}

describe('reconciliation: boundary and completeness', () => {
  it('counts transfers dated after the opening day through the closing day (snapshots are end of day)', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-01-31', { [A]: [100, 0] });
    putHoldings(db, W, 'eth', '2025-02-28', { [A]: [107, 0] });
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-03-31T00:00:00Z'));
    const t = (hash: string, iso: string, qty: number, type = 'in', status: number | null = 1): TestTransfer => ({
      hash,
      time: ms(iso),
      status,
      details: [{ token_cid: A, type, qty }],
    });
    putTransactions(db, W, 'eth', [
      t('0x01', '2025-01-31T23:59:59Z', 1000), // the opening day: already in the opening snapshot
      t('0x02', '2025-02-01T00:00:00Z', 5), // first instant of the period
      t('0x03', '2025-02-28T23:59:59.999Z', 3), // last instant of the closing day
      t('0x04', '2025-03-01T00:00:00Z', 1000), // after the closing day
      t('0x05', '2025-02-10T00:00:00Z', 1, 'out'),
      t('0x06', '2025-02-11T00:00:00Z', 999, 'out', 0), // failed: moves nothing
    ]);
    const r = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    expect(r.problems).toEqual([]);
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({
      opening_qty: 100,
      inflow_qty: 8,
      outflow_qty: 1,
      closing_qty: 107,
      unexplained_qty: 0,
      txn_count: 3,
      status: 'reconciled',
    });
    expect([r.flowsFrom, r.flowsTo]).toEqual([ms('2025-02-01T00:00:00Z'), ms('2025-03-01T00:00:00Z')]);
  });

  it('a closing day not over (today) needs its transactions only up to when its positions were fetched', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-12-30', { [A]: [100, 0] });
    // Today's positions, fetched at 15:00 UTC; the day runs on after that.
    putHoldings(db, W, 'eth', '2025-12-31', { [A]: [105, 0] }, '2025-12-31T15:00:00.000Z');
    putTransactions(db, W, 'eth', [{ hash: '0x01', time: ms('2025-12-31T09:00:00Z'), status: 1, details: [{ token_cid: A, type: 'in', qty: 5 }] }]);
    // Synced only to 14:00: the hour before the positions is not proved.
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-12-31T14:00:00Z'));
    const before = reconcile(db, { wallets: [W], from: '2025-12-30', to: '2025-12-31' });
    expect(before.complete).toBe(false);
    expect(before.problems.map((p) => p.message).join()).toMatch(/not synced \(complete until 2025-12-31\)/);
    // A sync after the positions were fetched: complete, though the day is not over.
    markSynced(db, W, 'eth', sec('2025-12-31T14:00:00Z'), sec('2025-12-31T15:05:00Z'));
    const after = reconcile(db, { wallets: [W], from: '2025-12-30', to: '2025-12-31' });
    expect(after.problems).toEqual([]);
    expect(after.rows[0]).toMatchObject({ opening_qty: 100, inflow_qty: 5, closing_qty: 105, status: 'reconciled' });
  });

  it('separates the plain balance from protocol positions: accrual is the unexplained part', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-01-31', { [A]: [100, 50] });
    putHoldings(db, W, 'eth', '2025-02-28', { [A]: [110, 52.5] });
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-03-31T00:00:00Z'));
    putTransactions(db, W, 'eth', [{ hash: '0x01', time: ms('2025-02-05T00:00:00Z'), status: 1, details: [{ token_cid: A, type: 'in', qty: 10 }] }]);
    const [row] = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' }).rows;
    expect(row).toMatchObject({
      opening_qty: 150,
      closing_qty: 162.5,
      inflow_qty: 10,
      unexplained_qty: 2.5,
      wallet_unexplained_qty: 0,
      position_change_qty: 2.5,
      status: 'unexplained',
    });
    expect(row!.unexplained_share).toBeCloseTo(0.25, 12);
  });

  it('says what is missing: transactions not synced, not fully indexed, unknown status, unreadable transfers', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-01-31', { [A]: [100, 0] });
    putHoldings(db, W, 'eth', '2025-02-28', { [A]: [100, 0] });
    const messages = () => reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' }).problems.map((p) => p.message);
    expect(messages()).toEqual(['transactions of the period are not synced']);
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-02-20T00:00:00Z'));
    expect(messages()).toEqual(['transactions of the period are not synced (complete until 2025-02-20)']);
    markSynced(db, W, 'eth', sec('2025-02-20T00:00:01Z'), sec('2025-03-31T00:00:00Z'), 'incomplete');
    expect(messages()).toEqual(['transactions of the period are not fully indexed by the service yet (completion_ratio below 1)']);
    markSynced(db, W, 'eth', sec('2025-02-20T00:00:01Z'), sec('2025-03-31T00:00:00Z'));
    expect(messages()).toEqual([]);
    putTransactions(db, W, 'eth', [{ hash: '0x07', time: ms('2025-02-03T00:00:00Z'), status: null, details: [{ token_cid: A, type: 'in', qty: 1 }] }]);
    expect(messages()).toEqual(['1 transfer(s) of the period belong to transactions with no status: whether they moved tokens is unknown']);
    putTransactions(db, W, 'eth', [{ hash: '0x07', time: ms('2025-02-03T00:00:00Z'), status: 1, details: [{ token_cid: B, type: 'receive', qty: 1 }] }]);
    expect(messages()).toEqual(['T: 1 transfer(s) with no direction (in/out) or no quantity']);
    const r = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    expect(r.complete).toBe(false);
    expect(r.rows.find((x) => x.token_cid === B)!.status).toBe('incomplete');
  });

  it('flags transactions with no date: their period is unknown', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-01-31', { [A]: [100, 0] });
    putHoldings(db, W, 'eth', '2025-02-28', { [A]: [100, 0] });
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-03-31T00:00:00Z'));
    putTransactions(db, W, 'eth', [{ hash: '0x09', time: 0, status: 1, details: [{ token_cid: A, type: 'in', qty: 1 }] }]);
    db.prepare("UPDATE transactions SET time = 0 WHERE txn_hash = '0x09'").run();
    expect(reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' }).problems.map((p) => p.message)).toEqual([
      '1 transaction(s) have no date: whether they fall in the period is unknown',
    ]);
  });

  it('keeps its daily sums current: new transactions, corrected ones and deleted ones', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-01-31', { [A]: [100, 0] });
    putHoldings(db, W, 'eth', '2025-02-28', { [A]: [100, 0] });
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-03-31T00:00:00Z'));
    // As the core reconciles: the writer brings the sums forward, then the reconciliation reads them.
    const flows = () => {
      refreshTransferDaysFor(db, [W]);
      const [row] = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' }).rows;
      return [row!.inflow_qty, row!.outflow_qty, row!.txn_count];
    };
    putTransactions(db, W, 'eth', [{ hash: '0x01', time: ms('2025-02-02T00:00:00Z'), status: 1, details: [{ token_cid: A, type: 'in', qty: 4 }] }]);
    expect(flows()).toEqual([4, 0, 1]);
    // Added later (a sync after the first reconciliation), on a day already summed.
    putTransactions(db, W, 'eth', [{ hash: '0x02', time: ms('2025-02-02T12:00:00Z'), status: 1, details: [{ token_cid: A, type: 'out', qty: 1.5 }] }]);
    expect(flows()).toEqual([4, 1.5, 2]);
    // The service corrects a row (same hash): the upsert updates it in place.
    putTransactions(db, W, 'eth', [{ hash: '0x01', time: ms('2025-02-02T00:00:00Z'), status: 1, details: [{ token_cid: A, type: 'in', qty: 6 }] }]);
    expect(flows()).toEqual([6, 1.5, 2]);
    putTransactions(db, W, 'eth', [{ hash: '0x02', time: ms('2025-02-02T12:00:00Z'), status: 0, details: [] }]);
    expect(flows()).toEqual([6, 0, 1]);
    db.prepare("DELETE FROM transactions WHERE txn_hash = '0x01'").run();
    refreshTransferDaysFor(db, [W]);
    expect(reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' }).rows[0]).toMatchObject({ inflow_qty: 0, outflow_qty: 0, txn_count: 0 });
  });

  it('gives the same figures from a read-only cache, writing nothing', () => {
    const db = setup();
    putHoldings(db, W, 'eth', '2025-01-31', { [A]: [100, 0], [B]: [5, 1] });
    putHoldings(db, W, 'eth', '2025-02-28', { [A]: [103, 0], [B]: [4, 1.25] });
    markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-03-31T00:00:00Z'));
    putTransactions(db, W, 'eth', [
      {
        hash: '0x01',
        time: ms('2025-02-02T00:00:00Z'),
        status: 1,
        details: [
          { token_cid: A, type: 'in', qty: 3 },
          { token_cid: B, type: 'out', qty: 1 },
        ],
      },
      { hash: '0x02', time: ms('2025-01-31T10:00:00Z'), status: 1, details: [{ token_cid: A, type: 'in', qty: 50 }] },
    ]);
    db.pragma('query_only = ON');
    const readOnly = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    expect((db.prepare('SELECT count(*) AS n FROM transfer_days').get() as { n: number }).n).toBe(0);
    db.pragma('query_only = OFF');
    // Writable, the core's writer keeps the sums first and the reconciliation reads them: the same figures.
    expect(refreshTransferDaysFor(db, [W])).toBe(2);
    expect((db.prepare('SELECT count(*) AS n FROM transfer_days').get() as { n: number }).n).toBeGreaterThan(0);
    expect(readOnly).toEqual(reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' }));
    expect(readOnly.rows.map((r) => [r.inflow_qty, r.outflow_qty, r.unexplained_qty])).toEqual([
      [3, 0, 0],
      [0, 1, 0.25],
    ]);
  });

  it('refuses bad input with a clear error', () => {
    const db = setup();
    expect(() => reconcile(db, { wallets: [W], from: '2025-02-30', to: '2025-03-01' })).toThrow(ValidationError);
    expect(() => reconcile(db, { wallets: [W], from: '2025-03-01', to: '2025-02-01' })).toThrow(/before the opening date/);
    expect(() => reconcile(db, { wallets: ['0x' + '9'.repeat(40)], from: '2025-01-01', to: '2025-02-01' })).toThrow(/not a watched wallet/);
  });
});

describe('reconciliation: properties (fast-check)', () => {
  it('rangesCover agrees with a second-by-second check', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 }), fc.boolean()), { maxLength: 6 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 0, max: 20 }),
        (spans, start, len) => {
          const ranges = spans.map(([s, l, ok]) => ({
            wallet: W,
            chain: 'eth',
            startTime: s,
            endTime: s + l,
            state: ok ? ('complete' as const) : ('incomplete' as const),
            nextPage: null,
            pageSize: 1,
            startBlock: null,
            endBlock: null,
            completionRatio: 1,
            rowsRead: 0,
            updatedAt: '',
            reason: null,
          }));
          let expected = true;
          for (let t = start; t <= start + len; t++) if (!ranges.some((r) => r.state === 'complete' && r.startTime <= t && t <= r.endTime)) expected = false;
          expect(rangesCover(ranges, start, start + len)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('flows are the in-period successful transfers, and opening + inflow − outflow + unexplained = closing', () => {
    const qty = fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true });
    const transfer = fc.record({
      token: fc.constantFrom(A, B),
      type: fc.constantFrom('in', 'out'),
      qty: fc.double({ min: 0, max: 1e5, noNaN: true, noDefaultInfinity: true }),
      // Days from 2025-01-25 to 2025-03-05: some before, some after the period.
      minute: fc.integer({ min: 0, max: 39 * 1440 }),
      status: fc.constantFrom(1, 1, 1, 0),
    });
    fc.assert(
      fc.property(
        fc.array(transfer, { maxLength: 40 }),
        qty,
        qty,
        qty,
        qty,
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        (transfers, a0, b0, aPos, bPos, accrual) => {
          const db = openDatabase(':memory:');
          try {
            addWallet(db, { address: W, chains: ['eth'] });
            markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-04-01T00:00:00Z'));
            const base = ms('2025-01-25T00:00:00Z');
            putTransactions(
              db,
              W,
              'eth',
              transfers.map((t, i) => ({
                hash: `0x${i.toString(16).padStart(4, '0')}`,
                time: base + t.minute * 60_000,
                status: t.status,
                details: [{ token_cid: t.token, type: t.type, qty: t.qty }],
              })),
            );
            const start = ms('2025-02-01T00:00:00Z');
            const end = ms('2025-03-01T00:00:00Z');
            const net = (token: string) => {
              let inflow = 0;
              let outflow = 0;
              for (const t of transfers)
                if (t.token === token && t.status === 1 && base + t.minute * 60_000 >= start && base + t.minute * 60_000 < end) {
                  if (t.type === 'in') inflow += t.qty;
                  else outflow += t.qty;
                }
              return { inflow, outflow };
            };
            const na = net(A);
            const nb = net(B);
            putHoldings(db, W, 'eth', '2025-01-31', { [A]: [a0, aPos], [B]: [b0, bPos] });
            // Closing: A's balance moves by its flows only; B's positions also accrue.
            putHoldings(db, W, 'eth', '2025-02-28', { [A]: [a0 + na.inflow - na.outflow, aPos], [B]: [b0 + nb.inflow - nb.outflow, bPos + accrual] });
            const r = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
            expect(r.problems).toEqual([]);
            for (const x of r.rows) {
              const scale = Math.max(1, Math.abs(x.opening_qty!), Math.abs(x.closing_qty!), x.inflow_qty, x.outflow_qty);
              expect(Math.abs(x.opening_qty! + x.inflow_qty - x.outflow_qty + x.unexplained_qty! - x.closing_qty!)).toBeLessThanOrEqual(1e-9 * scale);
              const n = x.token_cid === A ? na : nb;
              expect(x.inflow_qty).toBeCloseTo(n.inflow, 6);
              expect(x.outflow_qty).toBeCloseTo(n.outflow, 6);
              expect(Math.abs(x.wallet_unexplained_qty!)).toBeLessThanOrEqual(1e-8 * scale);
              const expected = x.token_cid === A ? 0 : accrual;
              expect(Math.abs(x.unexplained_qty! - expected)).toBeLessThanOrEqual(1e-8 * scale);
              expect(x.status).toBe(x.unexplained_qty === 0 ? 'reconciled' : 'unexplained');
            }
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
