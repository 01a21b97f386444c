import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { WritableDB as Database } from '../../src/main/core/store/db.ts';
import { reconcile } from '../../src/main/core/analytics/store/reconcile.ts';
import { flowsByDay, flowsDirect, refreshTransferDays, refreshTransferDaysInSteps } from '../../src/main/core/transactions/store/transfer-days.ts';
import { refreshTransferDaysFor } from '../../src/main/core/transactions/store/transfer-days-refresh.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { markSynced, putHoldings, putTransactions, type TestTransfer } from '../support/analytics.ts';
import { createDB } from '../support/store.ts';

/**
 * The daily transfer sums (made in JavaScript, kept by syncs in steps) against the same sums
 * made by SQLite straight from the transactions (flowsDirect, the read-only path).
 */
const W1 = '0x' + '1'.repeat(40);
const W2 = '0x' + '2'.repeat(40);
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

const transfer = fc.record({
  token_cid: fc.constantFrom('0xAA', '0xaa', '0xbb', ''),
  type: fc.constantFrom('in', 'out', null, 'swap'),
  qty: fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant(null)),
});
const txn = fc.record({
  wallet: fc.constantFrom(W1, W2),
  chain: fc.constantFrom('eth', 'arb'),
  day: fc.integer({ min: 0, max: 20 }),
  second: fc.integer({ min: 0, max: 86_399 }),
  status: fc.constantFrom(1, 1, 0, null),
  details: fc.array(transfer, { maxLength: 4 }),
});

function setup(): Database {
  const db = createDB();
  addWallet(db, { address: W1, chains: ['eth', 'arb'] });
  addWallet(db, { address: W2, chains: ['eth', 'arb'] });
  return db;
}

function put(db: Database, txns: ReadonlyArray<Parameters<Parameters<typeof txn.map>[0]>[0]>, offset: number): void {
  txns.forEach((t, i) =>
    putTransactions(db, t.wallet, t.chain, [
      {
        hash: `0x${(offset + i).toString(16).padStart(64, '0')}`,
        time: T0 + t.day * DAY + t.second * 1000,
        status: t.status,
        details: t.details,
      } as TestTransfer,
    ]),
  );
}

const PAIRS = [W1, W2].flatMap((wallet) => ['eth', 'arb'].map((chain) => ({ wallet, chain })));
/** The sums and their states as stored. */
const stored = (db: Database) => [
  db.prepare('SELECT * FROM transfer_days ORDER BY 1, 2, 3, 4').all(),
  db.prepare('SELECT * FROM transfer_days_state ORDER BY 1, 2').all(),
];

const norm = (rows: ReturnType<typeof flowsDirect>) =>
  rows
    .map((r) => ({ ...r, inflow: Number(r.inflow.toPrecision(9)), outflow: Number(r.outflow.toPrecision(9)) }))
    .sort((a, b) => a.chain.localeCompare(b.chain) || a.cid.localeCompare(b.cid));

describe('daily transfer sums', () => {
  it('equal the sums SQLite makes from the transactions, however the rows arrive and the steps fall', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(txn, { maxLength: 40 }),
        fc.array(txn, { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.subarray(PAIRS),
        async (first, second, span, a, b, refreshed) => {
          const db = setup();
          put(db, first, 0);
          // A sync's refresh in small steps, then more rows, then the writer's refresh before a
          // reconciliation (of some pairs: the others are read straight from the transactions).
          await refreshTransferDaysInSteps(db, [{ wallet: W1, chain: 'eth' }], undefined, span);
          put(db, second, 1000);
          refreshTransferDays(db, refreshed);
          const before = stored(db);
          const [from, to] = [T0 / DAY + Math.min(a, b), T0 / DAY + Math.max(a, b)];
          for (const w of [W1, W2]) expect(norm(flowsByDay(db, w, ['eth', 'arb'], from, to))).toEqual(norm(flowsDirect(db, w, ['eth', 'arb'], from, to)));
          // Reading wrote nothing.
          expect(stored(db)).toEqual(before);
          db.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('count rows whose ids are given again after a purge', () => {
    const db = setup();
    const A = '0x' + 'a'.repeat(40);
    putHoldings(db, W1, 'eth', '2025-01-31', { [A]: [10, 0] });
    putHoldings(db, W1, 'eth', '2025-02-28', { [A]: [13, 0] });
    markSynced(db, W1, 'eth', Date.parse('2025-01-01') / 1000, Date.parse('2025-03-31') / 1000);
    putTransactions(db, W1, 'eth', [{ hash: '0x01', time: Date.parse('2025-02-02'), status: 1, details: [{ token_cid: A, type: 'in', qty: 1 }] }]);
    putTransactions(db, W2, 'eth', [{ hash: '0x02', time: Date.parse('2025-02-02'), status: 1, details: [{ token_cid: A, type: 'in', qty: 7 }] }]);
    // As the core reconciles: the writer brings the sums forward, then the reconciliation reads them.
    const inflow = () => {
      refreshTransferDaysFor(db, [W1]);
      return reconcile(db, { wallets: [W1], from: '2025-01-31', to: '2025-02-28' }).rows[0]!.inflow_qty;
    };
    expect(inflow()).toBe(1); // W1's sums are built up to W2's row (the largest id)
    removeWallet(db, W2, { purge: true });
    // The next row takes the purged row's id: it must still be counted.
    putTransactions(db, W1, 'eth', [{ hash: '0x03', time: Date.parse('2025-02-03'), status: 1, details: [{ token_cid: A, type: 'in', qty: 2 }] }]);
    expect(db.prepare("SELECT id FROM transactions WHERE txn_hash = '0x03'").pluck().get()).toBe(2);
    expect(inflow()).toBe(3);
    expect(reconcile(db, { wallets: [W1], from: '2025-01-31', to: '2025-02-28' }).rows[0]!.status).toBe('reconciled');
  });

  it('are current after refreshTransferDays, and a second call reads nothing', () => {
    const db = setup();
    putTransactions(db, W1, 'eth', [{ hash: '0x01', time: T0, status: 1, details: [{ token_cid: '0xAA', type: 'in', qty: 1 }] }]);
    expect(refreshTransferDays(db, [{ wallet: W1, chain: 'eth' }])).toBe(1);
    expect(refreshTransferDays(db, [{ wallet: W1, chain: 'eth' }])).toBe(0);
    expect(db.prepare('SELECT built_to_id FROM transfer_days_state').pluck().all()).toEqual([1]);
  });
});
