import { describe, expect, it } from 'vitest';
import { latestSnapshots } from '../../src/main/core/positions/store/latest.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { plansOf } from '../support/plan.ts';
import { createDB } from '../support/store.ts';

/**
 * The newest snapshots of one wallet are found by its index, not by reading every wallet's
 * (issue 40): the statement held `(? IS NULL OR s.wallet = ?)`, which hides the column from
 * SQLite's planner, so each one-wallet ask read every wallet's snapshots of the endpoint. At
 * 1,000 wallets × 6 chains a two-wallet group's view took ~220 ms, a 16-wallet one 1.6 s
 * (bench/RESULTS.md). The plan is SQLite's own answer for the statement the store compiled, in
 * a cache without statistics, as a user's is (the app runs no ANALYZE).
 */
const planOf = (db: WritableDB, ask: () => unknown): string => plansOf(db, ask, /FROM snapshots s\b/)[0]!;

describe('latestSnapshots: the filters asked for are in the statement', () => {
  it("reads one wallet's snapshots through the wallet's index, with or without a date or dates", () => {
    const db = createDB();
    for (const scope of [
      { wallet: '0x00000000000000000000000000000000000000aa', date: '2026-10-31' },
      { wallet: '0x00000000000000000000000000000000000000aa' },
      { wallet: '0x00000000000000000000000000000000000000aa', from: '2026-01-01', to: '2026-10-31' },
    ]) {
      const plan = planOf(db, () => latestSnapshots(db, 'allPositions', scope));
      expect(plan, JSON.stringify(scope)).toMatch(/SEARCH s USING (COVERING )?INDEX snapshots_by_key \(wallet=\?/);
    }
  });

  it("reads a date's snapshots of every wallet through the date's index", () => {
    const db = createDB();
    const plan = planOf(db, () => latestSnapshots(db, 'allPositions', { date: '2026-10-31' }));
    expect(plan).toMatch(/SEARCH s USING (COVERING )?INDEX snapshots_by_date \(endpoint=\? AND as_of=\?\)/);
  });
});
