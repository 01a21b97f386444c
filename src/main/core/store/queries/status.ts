/**
 * Small read models for the sidebar and the timeline's filters: how fresh a wallet's cache is,
 * and which values the timeline's filters can choose from.
 */
import type { ReadableDB } from '../db.ts';
import { addressKey } from '../address-key.ts';

export interface WalletCacheSummary {
  /** Newest fetch of any of its position snapshots, and the newest as-of date among them. */
  positionsFetchedAt: string | null;
  latestDate: string | null;
  /** Newest update of any of its transaction ranges, and how many are not complete. */
  transactionsSyncedAt: string | null;
  openRanges: number;
}

export function walletCacheSummary(db: ReadableDB, wallet: string): WalletCacheSummary {
  const snap = db
    .prepare(
      `SELECT max(coalesce(c.checked_at, s.fetched_at)) AS fetched, max(s.as_of) AS latest
       FROM snapshots s LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id WHERE s.wallet = ?`,
    )
    .get(wallet) as {
    fetched: string | null;
    latest: string | null;
  };
  const ranges = db.prepare("SELECT max(updated_at) AS synced, sum(state != 'complete') AS open FROM txn_sync_ranges WHERE wallet = ?").get(wallet) as {
    synced: string | null;
    open: number | null;
  };
  return { positionsFetchedAt: snap.fetched, latestDate: snap.latest, transactionsSyncedAt: ranges.synced, openRanges: ranges.open ?? 0 };
}

/** Distinct action types, protocols and token symbols of some wallets' transactions (one, a group's members), or every watched wallet's. */
export function timelineFacetValues(db: ReadableDB, wallets?: readonly string[]): { actionTypes: string[]; protocols: string[]; tokens: string[] } {
  const scope = wallets ? 'wallet IN (SELECT value FROM json_each(@w))' : 'wallet IN (SELECT address FROM wallets)';
  const params = { w: wallets ? JSON.stringify(wallets.map(addressKey)) : null };
  const distinct = (column: 'action_type' | 'protocol_id') =>
    (
      db.prepare(`SELECT DISTINCT ${column} AS v FROM transactions WHERE ${scope} AND ${column} IS NOT NULL ORDER BY 1`).all(params) as Array<{ v: string }>
    ).map((r) => r.v);
  // The symbols kept per wallet and chain with each page written (migration 9), in the same scope.
  const tokens = (db.prepare(`SELECT DISTINCT symbol AS v FROM transaction_symbols WHERE ${scope} ORDER BY 1`).all(params) as Array<{ v: string }>).map(
    (r) => r.v,
  );
  return { actionTypes: distinct('action_type'), protocols: distinct('protocol_id'), tokens };
}
