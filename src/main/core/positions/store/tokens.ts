/**
 * Every token a wallet's cached positions ever held, per chain (the by-underlying view names each
 * with its contract): the first and last day it was held and a price per unit the service gave it
 * (its value over its quantity, averaged over the days). What the spam judge asks of a token a
 * transaction brought in: was it ever held, since when, and is a quantity of it dust
 * (spam/reader.ts). Read from the snapshots' token rows (migration 32), not their bodies.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, sqlCode } from '../../store/sql.ts';
import { latestSnapshotsOf } from './latest.ts';

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
 * The tokens of the by-underlying snapshot each of `wallets`' (watched) chains has at a date (the
 * newest fetch, as latestSnapshot reads it), in the body's order, without reading the bodies: by
 * `${wallet}|${chain}`, a member with none cached absent. For a read of a scope's tokens at many
 * dates (the pack's prices), where parsing each whole body again was its cost; a date's members
 * are read in two statements, not two each (bench/RESULTS.md).
 */
export function snapshotTokensAt(db: ReadableDB, asOf: string, wallets: readonly string[]): Map<string, SnapshotToken[]> {
  const found = latestSnapshotsOf(db, 'positionsByUnderlying', asOf, wallets);
  const out = new Map<string, SnapshotToken[]>();
  const bySnapshot = new Map<number, SnapshotToken[]>();
  for (const r of found) {
    const tokens: SnapshotToken[] = [];
    out.set(`${r.wallet}|${r.chain}`, tokens);
    bySnapshot.set(r.id, tokens);
  }
  if (!found.length) return out;
  const number = (text: string | null) => (text === null ? undefined : (JSON.parse(text) as number | null));
  const rows = all<{
    snapshot_id: number;
    token_id: string | null;
    cid: string | null;
    symbol: string | null;
    name: string | null;
    qty: string | null;
    nav: string | null;
  }>(
    db,
    sql`SELECT snapshot_id, token_id, cid, symbol, name, qty, nav FROM snapshot_tokens
         WHERE snapshot_id IN (SELECT value FROM json_each(${JSON.stringify(found.map((r) => r.id))})) ORDER BY snapshot_id, rowid`,
  );
  for (const r of rows)
    bySnapshot.get(r.snapshot_id)!.push({ tokenId: r.token_id, cid: r.cid, symbol: r.symbol, name: r.name, qty: number(r.qty), nav: number(r.nav) });
  return out;
}
