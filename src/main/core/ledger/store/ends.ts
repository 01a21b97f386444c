import type { ReadableDB } from '../../store/handles.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, sql } from '../../store/sql.ts';

/** The from and to of some of a wallet's transactions on a chain, by hash (the reconcile trace's rows, to name them). */
export function transactionEnds(
  db: ReadableDB,
  wallet: string,
  chain: string,
  hashes: readonly string[],
): Map<string, { from: string | null; to: string | null }> {
  const out = new Map<string, { from: string | null; to: string | null }>();
  if (!hashes.length) return out;
  for (const r of all<{ txn_hash: string; from_addr: string | null; to_addr: string | null }>(
    db,
    sql`SELECT txn_hash, from_addr, to_addr FROM transactions
        WHERE wallet = ${addressKey(wallet)} AND chain = ${chain} AND txn_hash IN (SELECT value FROM json_each(${JSON.stringify([...new Set(hashes)])}))`,
  ))
    out.set(r.txn_hash, { from: r.from_addr, to: r.to_addr });
  return out;
}
