/**
 * Every token a wallet's cached positions ever held, per chain (the by-underlying view names each
 * with its contract): the first and last day it was held and a price per unit the service gave it
 * (its value over its quantity, averaged over the days). What the spam judge asks of a token a
 * transaction brought in: was it ever held, since when, and is a quantity of it dust
 * (spam/reader.ts). Read from the snapshots' token rows (migration 32), not their bodies.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, sqlCode, value } from '../../store/sql.ts';

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

/** The wallet's tokens ever held, on one chain (its rows only) or on every chain. */
export function heldTokens(db: ReadableDB, wallet: string, chain?: string): HeldToken[] {
  // Two statements, not `chain = coalesce(?, chain)`: the judge asks per chain, and that one seeks (wallet, chain) in the index.
  const select =
    'SELECT chain, cid, max(symbol) AS symbol, max(name) AS name, min(as_of) AS first, max(as_of) AS last, avg(price) AS price FROM snapshot_tokens';
  return chain === undefined
    ? all<HeldToken>(db, sql`${sqlCode(select)} WHERE wallet = ${wallet} GROUP BY chain, cid`)
    : all<HeldToken>(db, sql`${sqlCode(select)} WHERE wallet = ${wallet} AND chain = ${chain} GROUP BY chain, cid`);
}

/** One token of a by-underlying snapshot, as its body gave it. */
export interface SnapshotToken {
  tokenId: string | null;
  /** The contract as the service wrote it (null when it named none). */
  cid: string | null;
  symbol: string | null;
  name: string | null;
  /** total_qty and total_nav: undefined when the body has none, null when it says null. */
  qty: number | null | undefined;
  nav: number | null | undefined;
}

/**
 * The tokens of the by-underlying snapshot latestSnapshot reads for (wallet, chain) at a date, in
 * the body's order, without reading the body; null when none is cached. For a read of a member's
 * tokens at many dates (the pack's prices), where parsing each whole body again was its cost.
 */
export function snapshotTokens(db: ReadableDB, wallet: string, chain: string, asOf: string): SnapshotToken[] | null {
  const id = value<number>(
    db,
    // The snapshot latestSnapshot (snapshots.ts) picks: the newest fetch of the date.
    sql`SELECT id FROM snapshots WHERE wallet = ${wallet} AND chain = ${chain} AND endpoint = 'positionsByUnderlying' AND as_of = ${asOf}
         ORDER BY fetched_at DESC, id DESC LIMIT 1`,
  );
  if (id === undefined) return null;
  const number = (text: string | null) => (text === null ? undefined : (JSON.parse(text) as number | null));
  return all<{ token_id: string | null; cid: string | null; symbol: string | null; name: string | null; qty: string | null; nav: string | null }>(
    db,
    sql`SELECT token_id, cid, symbol, name, qty, nav FROM snapshot_tokens WHERE snapshot_id = ${id} ORDER BY rowid`,
  ).map((r) => ({ tokenId: r.token_id, cid: r.cid, symbol: r.symbol, name: r.name, qty: number(r.qty), nav: number(r.nav) }));
}
