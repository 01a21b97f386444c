/**
 * How fresh each wallet's cache is, for the sidebar: its positions' and its transactions' (each read
 * by its owner, for every wallet at once), put together.
 */
import type { ReadableDB } from '../../store/db.ts';
import { positionsFreshnessOf } from '../../positions/index.ts';
import { transactionsFreshnessOf } from '../../transactions/index.ts';

export interface WalletCacheSummary {
  /** Newest fetch of any of its position snapshots, and the newest as-of date among them. */
  positionsFetchedAt: string | null;
  latestDate: string | null;
  /** Newest update of any of its transaction ranges, and how many are not complete (or owe a seam's re-read). */
  transactionsSyncedAt: string | null;
  openRanges: number;
}

/** Each wallet's, from a read of them all per owner (not four statements a wallet: a fund's sidebar is 1,000). */
export function walletCacheSummaries(db: ReadableDB, wallets: readonly string[]): Map<string, WalletCacheSummary> {
  const positions = positionsFreshnessOf(db, wallets);
  const transactions = transactionsFreshnessOf(db, wallets);
  return new Map(
    wallets.map((w) => {
      const snap = positions.get(w)!;
      const ranges = transactions.get(w)!;
      return [w, { positionsFetchedAt: snap.fetched, latestDate: snap.latest, transactionsSyncedAt: ranges.synced, openRanges: ranges.open }];
    }),
  );
}
