/**
 * How fresh a wallet's positions are (the sidebar's summary, sync/store/status.ts), and whether
 * any snapshot shows it holding positions on a chain (the transactions' sync asks before it
 * takes an empty history for the whole story).
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, value } from '../../store/sql.ts';

export interface PositionsFreshness {
  fetched: string | null;
  latest: string | null;
}

/** Newest fetch (or check) of any of its position snapshots, and the newest as-of date among them. */
export function positionsFreshness(db: ReadableDB, wallet: string): PositionsFreshness {
  return positionsFreshnessOf(db, [wallet]).get(wallet)!;
}

/** Each wallet's, in one statement (a fund's sidebar asks for 1,000): a seek per wallet in the snapshots' key. */
export function positionsFreshnessOf(db: ReadableDB, wallets: readonly string[]): Map<string, PositionsFreshness> {
  const found = new Map(
    all<PositionsFreshness & { wallet: string }>(
      db,
      sql`SELECT s.wallet, max(coalesce(c.checked_at, s.fetched_at)) AS fetched, max(s.as_of) AS latest
            FROM snapshots s INDEXED BY snapshots_by_key LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id
           WHERE s.wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets)})) GROUP BY s.wallet`,
    ).map((r) => [r.wallet, { fetched: r.fetched, latest: r.latest }]),
  );
  return new Map(wallets.map((w) => [w, found.get(w) ?? { fetched: null, latest: null }]));
}

/** Whether any cached snapshot shows the wallet holding positions on the chain. */
export function hasPositionActivity(db: ReadableDB, wallet: string, chain: string): boolean {
  return value<number>(db, sql`SELECT 1 FROM snapshots WHERE wallet = ${wallet} AND chain = ${chain} AND position_count > 0 LIMIT 1`) !== undefined;
}
