/**
 * The newest fetch of an endpoint per (wallet, chain, as_of), for watched wallets (or
 * one), optionally within dates. Refreshes that change a body add rows; reads see the newest
 * only, fetched at the last time the service sent it (snapshot_checks, migration 12).
 */

import type { ReadableDB } from '../../store/db.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, sql, sqlWhere, value } from '../../store/sql.ts';
import type { Freshness, SnapshotDataByEndpoint, SnapshotEndpoint } from '../../../../shared/model.ts';
import type { ValueFlag } from '../../../../shared/service/schemas.ts';
import { unreadableValues } from '../../../../shared/quality.ts';

export interface LatestRow {
  id: number;
  wallet: string;
  chain: string;
  as_of: string;
  fetched_at: string;
  request_id: string | null;
  sha256: string;
  total_nav: number | null;
  principal_nav: number | null;
  reward_nav: number | null;
  /** How many positions the snapshot lists (0: cached, and empty). */
  position_count: number;
  /** Unreadable values the service sent (JSON array of {path, value}), or null. */
  quality: string | null;
}

export function latestSnapshots(
  db: ReadableDB,
  endpoint: SnapshotEndpoint,
  scope: { wallet?: string; from?: string; to?: string; date?: string },
): LatestRow[] {
  const wallet = scope.wallet ? addressKey(scope.wallet) : null;
  const date = scope.date ?? null;
  const from = scope.from ?? null;
  const to = scope.to ?? null;
  return all<LatestRow>(
    db,
    sql`SELECT s.id, s.wallet, s.chain, s.as_of, coalesce(c.checked_at, s.fetched_at) AS fetched_at, s.request_id, s.sha256, s.total_nav, s.principal_nav, s.reward_nav, s.position_count, s.quality
       FROM ${wallet === null ? sql`snapshots s` : sql`snapshots s INDEXED BY snapshots_by_key`}
       JOIN wallets w ON w.address = s.wallet
       LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id
       ${sqlWhere([
         sql`s.endpoint = ${endpoint}`,
         // Only the filters asked for are in the statement, and one wallet's rows are read by its
         // index, not by a walk through every wallet's: an `(? IS NULL OR s.wallet = ?)` hid the
         // column from the planner, and without the database's statistics (no ANALYZE has run)
         // it prefers the date index for its order.
         wallet !== null && sql`s.wallet = ${wallet}`,
         date !== null && sql`s.as_of = ${date}`,
         from !== null && sql`s.as_of >= ${from}`,
         to !== null && sql`s.as_of <= ${to}`,
         sql`s.id = (SELECT s2.id FROM snapshots s2
                     WHERE s2.wallet = s.wallet AND s2.chain = s.chain AND s2.endpoint = s.endpoint AND s2.as_of = s.as_of
                     ORDER BY s2.fetched_at DESC, s2.id DESC LIMIT 1)`,
       ])}
       ORDER BY s.as_of, s.wallet, s.chain`,
  );
}

/** Up to this many wallets' latest snapshots are read wallet by wallet (an index seek each), more all at once. */
const FEW_WALLETS = 16;

/** The newest fetch of an endpoint at a date for each chain of `wallets` (watched) that has one. */
export function latestSnapshotsOf(db: ReadableDB, endpoint: SnapshotEndpoint, date: string, wallets: Iterable<string>): LatestRow[] {
  const wanted = new Set([...wallets].map(addressKey));
  if (wanted.size <= FEW_WALLETS) return [...wanted].flatMap((wallet) => latestSnapshots(db, endpoint, { date, wallet }));
  return latestSnapshots(db, endpoint, { date }).filter((r) => wanted.has(addressKey(r.wallet)));
}

/**
 * A snapshot deleted after its row was listed and before its body was read (a wallet removed with
 * its data, the cache cleared, between the turns of a read that yields): a view or a NAV series is
 * read again (store/steps.ts's stepsAgain); elsewhere it says what happened.
 */
export class SnapshotGone extends Error {}

/** A listed snapshot's body; SnapshotGone when its row was deleted since it was listed. */
export function snapshotData<E extends SnapshotEndpoint>(db: ReadableDB, id: number): Array<SnapshotDataByEndpoint[E]> {
  const data = value<string>(db, sql`SELECT data FROM snapshots WHERE id = ${id}`);
  if (data === undefined) throw new SnapshotGone(`snapshot ${id} was deleted while it was read`);
  return JSON.parse(data) as Array<SnapshotDataByEndpoint[E]>;
}

/** How many unreadable values a snapshot row carries (0 when none; a date naming another day is not a value). */
export function flaggedCount(quality: string | null): number {
  return quality ? unreadableValues(JSON.parse(quality) as ValueFlag[]).length : 0;
}

export function freshnessOf(rows: ReadonlyArray<{ as_of: string; fetched_at: string }>): Freshness {
  if (!rows.length) return { asOf: null, oldestFetchedAt: null, newestFetchedAt: null };
  const fetched = rows.map((r) => r.fetched_at).sort();
  const asOf = rows.map((r) => r.as_of).sort();
  return { asOf: asOf.at(-1)!, oldestFetchedAt: fetched[0]!, newestFetchedAt: fetched.at(-1)! };
}

/**
 * For each (wallet, chain) with a positions snapshot on another day, the nearest such day
 * before and after `date`: what a view names for a member not cached at the date (never uses).
 */
export function nearestPositionDates(db: ReadableDB, date: string): Map<string, { before: string | null; after: string | null }> {
  const rows = all<{ wallet: string; chain: string; before: string | null; after: string | null }>(
    db,
    sql`SELECT wallet, chain,
              max(CASE WHEN as_of < ${date} THEN as_of END) AS before,
              min(CASE WHEN as_of > ${date} THEN as_of END) AS after
       FROM snapshots WHERE endpoint = 'allPositions' GROUP BY wallet, chain`,
  );
  return new Map(rows.map((r) => [`${r.wallet}|${r.chain}`, { before: r.before, after: r.after }]));
}
