/**
 * How fresh a wallet's transactions are (the sidebar's summary, sync/store/status.ts): the newest
 * update of any of its ranges, and how many are not proved complete (or owe a seam's re-read).
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql } from '../../store/sql.ts';
import { owedSeamCounts } from './seams.ts';

export interface TransactionsFreshness {
  synced: string | null;
  open: number;
}

/** Each wallet's, in one read of the ranges and one of the seams (a fund's sidebar asks for 1,000). */
export function transactionsFreshnessOf(db: ReadableDB, wallets: readonly string[]): Map<string, TransactionsFreshness> {
  const ranges = new Map(
    all<{ wallet: string; synced: string | null; open: number | null }>(
      db,
      sql`SELECT wallet, max(updated_at) AS synced, sum(state != 'complete') AS open FROM txn_sync_ranges
           WHERE wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets)})) GROUP BY wallet`,
    ).map((r) => [r.wallet, r]),
  );
  const seams = owedSeamCounts(db, wallets);
  // A seam owed a re-read (seams.ts) leaves its range unproved, though the range is read.
  return new Map(wallets.map((w) => [w, { synced: ranges.get(w)?.synced ?? null, open: (ranges.get(w)?.open ?? 0) + (seams.get(w) ?? 0) }]));
}
