import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, run, sql, sqlWhere, value } from '../../store/sql.ts';

/**
 * Page seams owed a re-read (migration 20): where two pages of a transaction read met between
 * rows of one second, or where the list shifted between the requests, rows may have been
 * skipped. A seam is owed from the moment the page that found it is written, read again by
 * every sync until a re-read is proved whole (transactions/recent.ts), and while it is owed the history
 * around it is not proved complete: every place that says whether transactions are complete
 * (a sync's result, the sidebar, the timeline, reports) names it.
 */

/** A stretch of one (wallet, chain)'s history to read again: Unix seconds, inclusive, and why. */
export interface SeamToRead {
  lo: number;
  hi: number;
  reason: string;
}

export interface OwedSeam extends SeamToRead {
  /** When it was first owed (ISO). */
  since: string;
  /** Re-reads tried that did not prove it. */
  tries: number;
  /** What stopped the last try (a failed request, a read not proved whole), if one was tried. */
  lastError: string | null;
}

interface Row {
  lo: number;
  hi: number;
  reason: string;
  since: string;
  tries: number;
  last_error: string | null;
}

const fromRow = (r: Row): OwedSeam => ({ lo: r.lo, hi: r.hi, reason: r.reason, since: r.since, tries: r.tries, lastError: r.last_error });

/** Owes seams; one owed already keeps its reason and since (no transaction of its own: a page's batch holds it). */
export function oweSeams(db: WritableDB, wallet: string, chain: string, seams: readonly SeamToRead[], at = new Date().toISOString()): void {
  for (const s of seams)
    run(
      db,
      sql`INSERT INTO txn_owed_seams (wallet, chain, lo, hi, reason, since) VALUES (${wallet}, ${chain}, ${s.lo}, ${s.hi}, ${s.reason}, ${at})
          ON CONFLICT (wallet, chain, lo, hi) DO NOTHING`,
    );
}

/** Connections whose schema has the table (a cache an older version left, read before it migrates, has not). */
const withTable = new WeakSet<ReadableDB>();
function hasTable(db: ReadableDB): boolean {
  if (withTable.has(db)) return true;
  if (value<number>(db, sql`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'txn_owed_seams'`) !== 1) return false;
  withTable.add(db);
  return true;
}

/** The seams a (wallet, chain) owes, oldest first (at most `limit`). */
export function owedSeams(db: ReadableDB, wallet: string, chain: string, limit = -1): OwedSeam[] {
  return all<Row>(
    db,
    sql`SELECT lo, hi, reason, since, tries, last_error FROM txn_owed_seams WHERE wallet = ${wallet} AND chain = ${chain}
        ORDER BY since, lo, hi LIMIT ${limit}`,
  ).map(fromRow);
}

/** How many seams each of some wallets owes, on every chain (a wallet owing none is not in the map). */
export function owedSeamCounts(db: ReadableDB, wallets: readonly string[]): Map<string, number> {
  if (!hasTable(db)) return new Map();
  const rows = all<{ wallet: string; n: number }>(
    db,
    sql`SELECT wallet, count(*) AS n FROM txn_owed_seams WHERE wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets)})) GROUP BY wallet`,
  );
  return new Map(rows.map((r) => [r.wallet, r.n]));
}

/** How many seams a (wallet, chain), or a wallet on every chain, owes. */
export function countOwedSeams(db: ReadableDB, wallet: string, chain?: string): number {
  if (!hasTable(db)) return 0;
  return value<number>(db, sql`SELECT count(*) FROM txn_owed_seams ${sqlWhere([sql`wallet = ${wallet}`, chain !== undefined && sql`chain = ${chain}`])}`) ?? 0;
}

/** A seam read again and proved whole: no longer owed. */
export function settleSeam(db: WritableDB, wallet: string, chain: string, seam: { lo: number; hi: number }): void {
  run(db, sql`DELETE FROM txn_owed_seams WHERE wallet = ${wallet} AND chain = ${chain} AND lo = ${seam.lo} AND hi = ${seam.hi}`);
}

/** A re-read that did not prove the seam (it failed, or could not be proved whole): still owed, with what stopped it. */
export function seamNotProved(db: WritableDB, wallet: string, chain: string, seam: { lo: number; hi: number }, why: string): void {
  run(
    db,
    sql`UPDATE txn_owed_seams SET tries = tries + 1, last_error = ${why}
        WHERE wallet = ${wallet} AND chain = ${chain} AND lo = ${seam.lo} AND hi = ${seam.hi}`,
  );
}

/** Owed seams overlapping [fromS, toS] (Unix seconds), for some wallets (all watched when none given), with their wallet and chain. */
export function owedSeamsOf(
  db: ReadableDB,
  wallets?: string | readonly string[],
  span: { fromS: number; toS: number } = { fromS: 0, toS: Number.MAX_SAFE_INTEGER },
): Array<OwedSeam & { wallet: string; chain: string }> {
  if (!hasTable(db)) return [];
  const scope = wallets === undefined ? null : JSON.stringify((typeof wallets === 'string' ? [wallets] : wallets).map(addressKey));
  const where = sqlWhere([
    scope === null ? sql`wallet IN (SELECT address FROM wallets)` : sql`wallet IN (SELECT value FROM json_each(${scope}))`,
    sql`hi >= ${span.fromS}`,
    sql`lo <= ${span.toS}`,
  ]);
  return all<Row & { wallet: string; chain: string }>(
    db,
    sql`SELECT wallet, chain, lo, hi, reason, since, tries, last_error FROM txn_owed_seams ${where} ORDER BY wallet, chain, since, lo, hi`,
  ).map((r) => ({ ...fromRow(r), wallet: r.wallet, chain: r.chain }));
}

/** Unix seconds as `YYYY-MM-DD HH:MM:SS` (UTC), as the sync's reasons name a moment of a wallet's history. */
export const utcSecond = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** Why a (wallet, chain)'s history is not proved complete while it owes these seams (oldest first), in words; null when it owes none. */
export function owedSeamReason(seams: readonly OwedSeam[]): string | null {
  const first = seams[0];
  if (!first) return null;
  const where = first.lo === first.hi ? `at ${utcSecond(first.lo)} UTC` : `between ${utcSecond(first.lo)} and ${utcSecond(first.hi)} UTC`;
  const more = seams.length > 1 ? ` (and at ${seams.length - 1} more page seam${seams.length === 2 ? '' : 's'})` : '';
  const tried = first.lastError ? `; its last re-read: ${first.lastError}` : '';
  return `the transactions ${where}${more} are not proved complete: ${first.reason}${tried}. The next sync reads them again.`;
}

/** The same, one line per chain (`eth: …`), for seams of several chains (of one wallet, or a scope's). */
export function owedSeamReasons(seams: ReadonlyArray<OwedSeam & { chain: string }>): string[] {
  const byChain = new Map<string, OwedSeam[]>();
  for (const s of seams) byChain.set(s.chain, [...(byChain.get(s.chain) ?? []), s]);
  return [...byChain].map(([chain, list]) => `${chain}: ${owedSeamReason(list)}`);
}

/** Every owed seam, or a wallet's (its cached history purged, or every range forgotten). */
export function forgetOwedSeams(db: WritableDB, wallet?: string): number {
  return run(db, sql`DELETE FROM txn_owed_seams ${sqlWhere([wallet !== undefined && sql`wallet = ${wallet}`])}`).changes;
}
