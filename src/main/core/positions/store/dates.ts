/**
 * The dates the scope's positions are cached on, as the alert rules (the newest all-positions
 * date) and the monthly pack (the by-token dates between two, whose prices value its flows) ask.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, sqlJoin } from '../../store/sql.ts';

/** Each (wallet, chain)'s newest cached all-positions date, for the wallets asked. */
export function newestPositionDates(db: ReadableDB, walletList: readonly string[]): Array<{ wallet: string; chain: string; date: string }> {
  return all<{ wallet: string; chain: string; date: string }>(
    db,
    sql`SELECT wallet, chain, max(as_of) AS date FROM snapshots
        WHERE endpoint = 'allPositions' AND wallet IN (SELECT value FROM json_each(${walletsJson(walletList)}))
        GROUP BY wallet, chain`,
  );
}

/** The dates (YYYY-MM-DD) in [from, to] on which any of `wallets` has its by-token positions cached, oldest first. */
export function underlyingDatesBetween(db: ReadableDB, wallets: readonly string[], from: string, to: string): string[] {
  if (!wallets.length) return [];
  return all<{ as_of: string }>(
    db,
    sql`SELECT DISTINCT as_of FROM snapshots WHERE endpoint = 'positionsByUnderlying' AND wallet IN (${sqlJoin(wallets)})
        AND as_of >= ${from} AND as_of <= ${to} ORDER BY as_of`,
  ).map((r) => r.as_of);
}

/** The wallets as one JSON parameter: one statement for any number of them (none too). */
const walletsJson = (w: readonly string[]) => JSON.stringify([...w]);
