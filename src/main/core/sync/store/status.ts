/**
 * How fresh a wallet's cache is, for the sidebar: its positions' and its transactions' (each read
 * by its owner), put together.
 */
import type { ReadableDB } from '../../store/db.ts';
import { positionsFreshness } from '../../positions/index.ts';
import { transactionsFreshness } from '../../transactions/index.ts';

export interface WalletCacheSummary {
  /** Newest fetch of any of its position snapshots, and the newest as-of date among them. */
  positionsFetchedAt: string | null;
  latestDate: string | null;
  /** Newest update of any of its transaction ranges, and how many are not complete (or owe a seam's re-read). */
  transactionsSyncedAt: string | null;
  openRanges: number;
}

export function walletCacheSummary(db: ReadableDB, wallet: string): WalletCacheSummary {
  const snap = positionsFreshness(db, wallet);
  const ranges = transactionsFreshness(db, wallet);
  return { positionsFetchedAt: snap.fetched, latestDate: snap.latest, transactionsSyncedAt: ranges.synced, openRanges: ranges.open };
}
