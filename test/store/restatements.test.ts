import { describe, expect, it } from 'vitest';
import { applyRestatements, changedFields, listTransactionChanges, storedInWindow } from '../../src/main/core/transactions/store/restatements.ts';
import { flowsByDay, flowsDirect, refreshTransferDays } from '../../src/main/core/transactions/store/transfer-days.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { keyCounts } from '../../src/main/core/transactions/store/hash-levels.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { createDB } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * The change log's writer (migration 15): a restatement is applied and logged in one
 * transaction; a removed row leaves the cache whole (its hash keys, the daily sums that counted
 * it) and can come back as a new row if the service returns it again.
 */
const W = '0x' + '1'.repeat(40);
const T0 = Date.UTC(2026, 0, 1) / 1000;
const hash = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const row = (n: number, fields: Record<string, unknown> = {}) =>
  transactionRow({
    wallet_id: W,
    txn_hash: hash(n),
    date: new Date((T0 + n) * 1000).toISOString(),
    details: [{ token_cid: '0xaa', type: 'in', qty: n, symbol: 'AAA' }],
    ...fields,
  });

describe('restatements in the store', () => {
  it('updates, adds and removes in one transaction, each logged with before, after and the request', () => {
    const db = createDB();
    addWallet(db, { address: W, chains: ['eth'] });
    upsertTransactions(db, W, 'eth', [row(1), row(2), row(3)]);
    refreshTransferDays(db, [{ wallet: W, chain: 'eth' }]);
    const day = Math.floor(T0 / 86_400);
    expect(flowsByDay(db, W, ['eth'], day, day)).toEqual(flowsDirect(db, W, ['eth'], day, day));
    const stored = storedInWindow(db, W, 'eth', T0, T0 + 10);
    expect([...stored.keys()].sort()).toEqual([hash(1), hash(2), hash(3)]);
    const moved = row(2, { block: 9, status: 0, details: [] });
    expect(changedFields(W, 'eth', stored.get(hash(2))!, moved)).toEqual(['block', 'status', 'details']);
    const keysBefore = keyCounts(db);
    applyRestatements(
      db,
      W,
      'eth',
      {
        late: [{ row: row(4), request: 'req-late' }],
        changed: [{ row: moved, before: stored.get(hash(2))!, fields: ['block', 'status', 'details'], request: 'req-changed' }],
        removed: [{ before: stored.get(hash(3))!, request: 'req-removed' }],
      },
      '2026-01-02T00:00:00.000Z',
    );
    const now = storedInWindow(db, W, 'eth', T0, T0 + 10);
    expect([...now.keys()].sort()).toEqual([hash(1), hash(2), hash(4)]);
    expect(now.get(hash(2))).toMatchObject({ id: stored.get(hash(2))!.id, block: 9, status: 0, details: '[]' });
    // The removed row's key went with it; the late row's came.
    expect(keyCounts(db).large + keyCounts(db).recent).toBe(keysBefore.large + keysBefore.recent);
    // The daily sums no longer count the removed or failed rows.
    expect(flowsByDay(db, W, ['eth'], day, day)).toEqual(flowsDirect(db, W, ['eth'], day, day));
    const log = listTransactionChanges(db, { wallet: W });
    expect(log.map((c) => [c.kind, c.txnHash, c.request])).toEqual([
      ['removed', hash(3), 'req-removed'],
      ['changed', hash(2), 'req-changed'],
      ['late', hash(4), 'req-late'],
    ]);
    expect(log[0]!.before).toMatchObject({ block: 1, status: 1, time: (T0 + 3) * 1000 });
    expect(log[0]!.after).toBeNull();
    expect(log[1]).toMatchObject({ fields: ['block', 'status', 'details'], before: { block: 1, status: 1 }, after: { block: 9, status: 0, details: '[]' } });
    expect(log[2]).toMatchObject({ before: null, after: { block: 1 }, seenAt: '2026-01-02T00:00:00.000Z' });
    // Returned again later: a new row, found by its hash (no stale key in the way).
    upsertTransactions(db, W, 'eth', [row(3)]);
    expect(storedInWindow(db, W, 'eth', T0, T0 + 10).has(hash(3))).toBe(true);
    expect(db.prepare('SELECT count(*) FROM transactions WHERE txn_hash = ?').pluck().get(hash(3))).toBe(1);
  });

  it('a failure inside leaves the cache and the log as they were', () => {
    const db = createDB();
    addWallet(db, { address: W, chains: ['eth'] });
    upsertTransactions(db, W, 'eth', [row(1)]);
    const stored = storedInWindow(db, W, 'eth', T0, T0 + 10);
    db.exec("CREATE TRIGGER refuse BEFORE DELETE ON transactions BEGIN SELECT raise(ABORT, 'refused'); END");
    expect(() =>
      applyRestatements(db, W, 'eth', { late: [{ row: row(5), request: 'r' }], changed: [], removed: [{ before: stored.get(hash(1))!, request: 'r' }] }),
    ).toThrow(/refused/);
    expect([...storedInWindow(db, W, 'eth', T0, T0 + 10).keys()]).toEqual([hash(1)]);
    expect(listTransactionChanges(db)).toEqual([]);
  });
});
