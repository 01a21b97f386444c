/**
 * Small read models for the sidebar and the timeline's filters: how fresh a wallet's cache is,
 * and which values the timeline's filters can choose from.
 */
import type { ReadableDB } from '../db.ts';
import { addressKey } from '../address-key.ts';
import { all, get, sql, type SqlQuery } from '../sql.ts';
import { countOwedSeams } from '../seams.ts';

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
  // A seam owed a re-read (store/seams.ts) leaves its range unproved, though the range is read.
  const owed = countOwedSeams(db, wallet);
  return { positionsFetchedAt: snap.fetched, latestDate: snap.latest, transactionsSyncedAt: ranges.synced, openRanges: (ranges.open ?? 0) + owed };
}

const FACET_COLUMNS = { action_type: sql`action_type`, protocol_id: sql`protocol_id` };

/** Distinct action types, protocols and token symbols of some wallets' transactions (one, a group's members), or every watched wallet's. */
export function timelineFacetValues(db: ReadableDB, wallets?: readonly string[]): { actionTypes: string[]; protocols: string[]; tokens: string[] } {
  // The wallets as one JSON parameter: one statement for any number of them (none too).
  const scope = wallets
    ? sql`wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets.map(addressKey))}))`
    : sql`wallet IN (SELECT address FROM wallets)`;
  const values = (q: SqlQuery) => all<{ v: string }>(db, q).map((r) => r.v);
  const distinct = (column: keyof typeof FACET_COLUMNS) => {
    const c = FACET_COLUMNS[column];
    return values(sql`SELECT DISTINCT ${c} AS v FROM transactions WHERE ${scope} AND ${c} IS NOT NULL ORDER BY 1`);
  };
  // The symbols kept per wallet and chain with each page written (migration 9), in the same scope.
  const tokens = values(sql`SELECT DISTINCT symbol AS v FROM transaction_symbols WHERE ${scope} ORDER BY 1`);
  return { actionTypes: distinct('action_type'), protocols: distinct('protocol_id'), tokens };
}
