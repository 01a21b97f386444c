/**
 * How fresh a wallet's transactions are (the sidebar's summary, sync/store/status.ts): the newest
 * update of any of its ranges, and how many are not proved complete.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { get, sql } from '../../store/sql.ts';
import { countOwedSeams } from './seams.ts';

export function transactionsFreshness(db: ReadableDB, wallet: string): { synced: string | null; open: number } {
  // Aggregates without GROUP BY: always one row.
  const ranges = get<{ synced: string | null; open: number | null }>(
    db,
    sql`SELECT max(updated_at) AS synced, sum(state != 'complete') AS open FROM txn_sync_ranges WHERE wallet = ${wallet}`,
  )!;
  // A seam owed a re-read (seams.ts) leaves its range unproved, though the range is read.
  return { synced: ranges.synced, open: (ranges.open ?? 0) + countOwedSeams(db, wallet) };
}
