/**
 * How fresh a wallet's positions are (the sidebar's summary, sync/store/status.ts), and whether
 * any snapshot shows it holding positions on a chain (the transactions' sync asks before it
 * takes an empty history for the whole story).
 */
import type { ReadableDB } from '../../store/handles.ts';
import { get, sql, value } from '../../store/sql.ts';

/** Newest fetch (or check) of any of its position snapshots, and the newest as-of date among them. */
export function positionsFreshness(db: ReadableDB, wallet: string): { fetched: string | null; latest: string | null } {
  // Aggregates without GROUP BY: always one row.
  return get<{ fetched: string | null; latest: string | null }>(
    db,
    sql`SELECT max(coalesce(c.checked_at, s.fetched_at)) AS fetched, max(s.as_of) AS latest
        FROM snapshots s LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id WHERE s.wallet = ${wallet}`,
  )!;
}

/** Whether any cached snapshot shows the wallet holding positions on the chain. */
export function hasPositionActivity(db: ReadableDB, wallet: string, chain: string): boolean {
  return value<number>(db, sql`SELECT 1 FROM snapshots WHERE wallet = ${wallet} AND chain = ${chain} AND position_count > 0 LIMIT 1`) !== undefined;
}
