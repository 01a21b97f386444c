/**
 * A closed period's window of the history (closes/hash.ts): its transactions as hashed, the
 * address-book entries of their ends, and the change log's rows dated inside it.
 */
import type { CloseTransactionChange } from '../../../../shared/closes.ts';
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, sqlJoin } from '../../store/sql.ts';

/** The columns `windowTransactions` gives each row, in order (the hash's header for them). */
export const WINDOW_TRANSACTION_COLUMNS = ['hash', 'wallet', 'chain', 'time', 'block', 'status', 'txnFee', 'gasFee', 'details'] as const;

/**
 * The period's transactions of `wallets` (every status) with start <= time < end (Unix ms), in a
 * fixed order, each an array of WINDOW_TRANSACTION_COLUMNS (raw rows: a month of a busy wallet is
 * tens of thousands, hashed as read, and arrays are the cheapest to read and write).
 */
export function* windowTransactions(db: ReadableDB, wallets: readonly string[], start: number, end: number): Generator<unknown[]> {
  if (!wallets.length) return;
  const q = sql`SELECT txn_hash, wallet, chain, time, block, status, txn_fee, gas_fee, details FROM transactions
        WHERE wallet IN (${sqlJoin(wallets)}) AND time >= ${start} AND time < ${end}
        ORDER BY wallet, chain, txn_hash, id`;
  // Its own statement, not the cache's: a statement stays busy while it is iterated (hashed as read).
  yield* db
    .prepare(q.text)
    .raw(true)
    .iterate(...q.params) as IterableIterator<unknown[]>;
}

/**
 * The address-book entries of the addresses the period's transactions of `wallets` deal with
 * (either end, `start <= time < end`): the names the pack's flows by counterparty show. An EVM
 * address is kept in lower case in the book and as the service sent it in a transaction.
 */
export function windowCounterparties(
  db: ReadableDB,
  wallets: readonly string[],
  start: number,
  end: number,
): Array<{ address: string; name: string; ours: number; chains: string }> {
  if (!wallets.length) return [];
  const ends = sql`SELECT from_addr AS a FROM transactions WHERE wallet IN (${sqlJoin(wallets)}) AND time >= ${start} AND time < ${end}
    UNION SELECT to_addr FROM transactions WHERE wallet IN (${sqlJoin(wallets)}) AND time >= ${start} AND time < ${end}`;
  return all(
    db,
    sql`SELECT address, name, ours, chains FROM counterparties WHERE address IN (SELECT a FROM (${ends})) OR address IN (SELECT lower(a) FROM (${ends})) ORDER BY address`,
  );
}

/** The change log's rows of `wallets` dated inside the window and seen after `since`, oldest first. */
export function changesInWindow(db: ReadableDB, wallets: readonly string[], start: number, end: number, since: string): CloseTransactionChange[] {
  if (!wallets.length) return [];
  return all<{ kind: CloseTransactionChange['kind']; wallet: string; chain: string; txn_hash: string; time: number; fields: string | null; seen_at: string }>(
    db,
    sql`SELECT kind, wallet, chain, txn_hash, time, fields, seen_at FROM transaction_changes
        WHERE wallet IN (${sqlJoin(wallets)}) AND time >= ${start} AND time < ${end} AND seen_at > ${since}
        ORDER BY seen_at, id LIMIT 1000`,
  ).map((r) => ({
    kind: r.kind,
    wallet: r.wallet,
    chain: r.chain,
    txnHash: r.txn_hash,
    time: r.time,
    fields: r.fields ? (JSON.parse(r.fields) as string[]) : null,
    seenAt: r.seen_at,
  }));
}
