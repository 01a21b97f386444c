/**
 * Every token a wallet's cached positions ever held, per chain (the by-underlying view names each
 * with its contract): the first and last day it was held and a price per unit the service gave it
 * (its value over its quantity, averaged over the days). What the spam judge asks of a token a
 * transaction brought in: was it ever held, since when, and is a quantity of it dust
 * (spam/reader.ts). One pass over the wallet's snapshots in SQLite's JSON reader.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql } from '../../store/sql.ts';

export interface HeldToken {
  chain: string;
  /** The contract as the service wrote it (null when it named none). */
  cid: string | null;
  symbol: string | null;
  name: string | null;
  /** YYYY-MM-DD. */
  first: string;
  last: string;
  /** USD a unit, where the service valued it; null when it never did. */
  price: number | null;
}

/** The wallet's tokens ever held, on one chain (a pass over that chain's snapshots only) or on every chain. */
export function heldTokens(db: ReadableDB, wallet: string, chain?: string): HeldToken[] {
  if (chain !== undefined)
    return all<HeldToken>(
      db,
      sql`SELECT s.chain, g.value ->> 'token_cid' AS cid, max(g.value ->> 'token_symbol') AS symbol, max(g.value ->> 'token_name') AS name,
                 min(s.as_of) AS first, max(s.as_of) AS last,
                 avg(CASE WHEN (g.value ->> 'total_qty') > 0 AND (g.value ->> 'total_nav') > 0
                          THEN (g.value ->> 'total_nav') / (g.value ->> 'total_qty') END) AS price
          FROM snapshots s, json_each(s.data) d, json_each(d.value, '$.positions') g
          WHERE s.wallet = ${wallet} AND s.chain = ${chain} AND s.endpoint = 'positionsByUnderlying'
          GROUP BY s.chain, g.value ->> 'token_cid'`,
    );
  return all<HeldToken>(
    db,
    sql`SELECT s.chain, g.value ->> 'token_cid' AS cid, max(g.value ->> 'token_symbol') AS symbol, max(g.value ->> 'token_name') AS name,
               min(s.as_of) AS first, max(s.as_of) AS last,
               avg(CASE WHEN (g.value ->> 'total_qty') > 0 AND (g.value ->> 'total_nav') > 0
                        THEN (g.value ->> 'total_nav') / (g.value ->> 'total_qty') END) AS price
        FROM snapshots s, json_each(s.data) d, json_each(d.value, '$.positions') g
        WHERE s.wallet = ${wallet} AND s.endpoint = 'positionsByUnderlying'
        GROUP BY s.chain, g.value ->> 'token_cid'`,
  );
}
