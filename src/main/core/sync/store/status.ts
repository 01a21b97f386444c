/**
 * Small read models for the sidebar and the timeline's filters: how fresh a wallet's cache is,
 * and which values the timeline's filters can choose from.
 */
import type { ReadableDB } from '../../store/db.ts';
import { get, sql } from '../../store/sql.ts';
import { countOwedSeams } from '../../transactions/index.ts';

export interface WalletCacheSummary {
  /** Newest fetch of any of its position snapshots, and the newest as-of date among them. */
  positionsFetchedAt: string | null;
  latestDate: string | null;
  /** Newest update of any of its transaction ranges, and how many are not complete (or owe a seam's re-read). */
  transactionsSyncedAt: string | null;
  openRanges: number;
}

export function walletCacheSummary(db: ReadableDB, wallet: string): WalletCacheSummary {
  // Aggregates without GROUP BY: always one row.
  const snap = get<{ fetched: string | null; latest: string | null }>(
    db,
    sql`SELECT max(coalesce(c.checked_at, s.fetched_at)) AS fetched, max(s.as_of) AS latest
        FROM snapshots s LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id WHERE s.wallet = ${wallet}`,
  )!;
  const ranges = get<{ synced: string | null; open: number | null }>(
    db,
    sql`SELECT max(updated_at) AS synced, sum(state != 'complete') AS open FROM txn_sync_ranges WHERE wallet = ${wallet}`,
  )!;
  // A seam owed a re-read (transactions/store/seams.ts) leaves its range unproved, though the range is read.
  const owed = countOwedSeams(db, wallet);
  return { positionsFetchedAt: snap.fetched, latestDate: snap.latest, transactionsSyncedAt: ranges.synced, openRanges: (ranges.open ?? 0) + owed };
}
