import { describe, expect, it } from 'vitest';
import { incompleteReasons } from '../../src/main/core/transactions/store/transactions.ts';
import { plansOf } from '../support/plan.ts';
import { createDB } from '../support/store.ts';

/**
 * Why a wallet's history is not known whole (`incompleteReasons`) is read through the ranges'
 * key, not by reading every wallet's ranges: the statement held `(@scope IS NULL OR wallet IN …)`,
 * which hides the column from SQLite's planner, and the sidebar's statuses ask it once per
 * watched wallet (a fund's 1,000 at every page load; bench/RESULTS.md). SQLite's own plan of the
 * statement the store compiled, in a cache without statistics, as a user's is.
 */
describe('incompleteReasons: the wallets asked for are in the statement', () => {
  it('reads one wallet’s or a group’s ranges through the ranges’ key', () => {
    for (const wallets of [
      '0x00000000000000000000000000000000000000aa',
      ['0x00000000000000000000000000000000000000aa', '0x00000000000000000000000000000000000000bb'],
    ]) {
      // A cache each: the store compiles a statement once per connection.
      const db = createDB();
      const [plan] = plansOf(db, () => incompleteReasons(db, wallets), /FROM txn_sync_ranges\b/);
      expect(plan, JSON.stringify(wallets)).toMatch(/SEARCH txn_sync_ranges USING INDEX sqlite_autoindex_txn_sync_ranges_1 \(wallet=\?\)/);
    }
  });

  it('reads every wallet’s when none is named', () => {
    const db = createDB();
    const [plan] = plansOf(db, () => incompleteReasons(db), /FROM txn_sync_ranges\b/);
    expect(plan).toMatch(/SCAN txn_sync_ranges/);
  });
});
