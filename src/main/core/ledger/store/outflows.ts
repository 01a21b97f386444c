/**
 * Outflows, as the alert rules read them (alerts/rules.ts): the transactions since a time that
 * sent a token out above an amount, and those that sent something to an address the wallet had
 * not dealt with before.
 */
import type { ReadableDB } from '../../store/db.ts';
import { all, get, sql } from '../../store/sql.ts';

export interface Outflow {
  wallet: string;
  chain: string;
  hash: string;
  /** Unix ms. */
  time: number;
  to: string | null;
  /** The quantity of the token sent out (the sum of its `out` transfers). */
  qty: number;
  symbol: string;
}

/**
 * Successful transactions of the wallets at or after `sinceMs` that sent out the token (its
 * symbol in any letter case) in `out` transfers adding up to more than `above`.
 */
export function outflowsAbove(db: ReadableDB, q: { wallets: readonly string[]; sinceMs: number; symbol: string; above: number }): Outflow[] {
  return all<Outflow>(
    db,
    sql`SELECT t.wallet, t.chain, t.txn_hash AS hash, t.time, t.to_addr AS "to", total(j.value ->> 'qty') AS qty, max(j.value ->> 'symbol') AS symbol
        FROM transactions t, json_each(t.details) j
        WHERE t.wallet IN (SELECT value FROM json_each(${walletsJson(q.wallets)})) AND t.time >= ${q.sinceMs} AND t.status = 1
          AND j.value ->> 'type' = 'out' AND upper(j.value ->> 'symbol') = upper(${q.symbol})
        GROUP BY t.id
        HAVING total(j.value ->> 'qty') > ${q.above}
        ORDER BY t.time, t.id`,
  );
}

export interface NewCounterparty {
  wallet: string;
  chain: string;
  hash: string;
  time: number;
  to: string;
  /** The tokens sent out, comma-separated. */
  symbols: string;
  /** What the spam judge reads of it (a zero-value transferFrom a poisoner sent in the wallet's name is one). */
  from: string | null;
  methodHex: string | null;
  protocolId: string | null;
  status: number | null;
  details: string;
}

/**
 * Successful transactions of the wallets at or after `sinceMs` that sent something out to an
 * address the wallet had no earlier cached transaction with (as sender or receiver, on any of
 * its chains). Earlier: an older time, or the same time and an older row.
 */
export function outflowsToNewCounterparties(db: ReadableDB, q: { wallets: readonly string[]; sinceMs: number }): NewCounterparty[] {
  return all<NewCounterparty>(
    db,
    sql`SELECT t.wallet, t.chain, t.txn_hash AS hash, t.time, t.to_addr AS "to",
               (SELECT group_concat(DISTINCT j.value ->> 'symbol') FROM json_each(t.details) j WHERE j.value ->> 'type' = 'out') AS symbols,
               t.from_addr AS "from", t.method_hex AS methodHex, t.protocol_id AS protocolId, t.status, t.details
        FROM transactions t
        WHERE t.wallet IN (SELECT value FROM json_each(${walletsJson(q.wallets)})) AND t.time >= ${q.sinceMs} AND t.status = 1
          AND t.to_addr IS NOT NULL AND t.to_addr != t.wallet
          AND EXISTS (SELECT 1 FROM json_each(t.details) j WHERE j.value ->> 'type' = 'out')
          AND NOT EXISTS (SELECT 1 FROM transactions u WHERE u.from_addr = t.to_addr AND u.wallet = t.wallet AND (u.time < t.time OR (u.time = t.time AND u.id < t.id)))
          AND NOT EXISTS (SELECT 1 FROM transactions u WHERE u.to_addr = t.to_addr AND u.wallet = t.wallet AND (u.time < t.time OR (u.time = t.time AND u.id < t.id)))
        ORDER BY t.time, t.id`,
  );
}

export interface Payment {
  wallet: string;
  chain: string;
  hash: string;
  /** Unix ms. */
  time: number;
  to: string;
  /** The `out` transfers, JSON (token_cid, type, qty, symbol). */
  details: string;
}

/**
 * Each address the wallets paid (a successful transaction that sent a quantity above 0 out), once
 * per wallet and chain, with the last such payment: what the poisoning guard looks at
 * (alerts/poisoning.ts) without reading every payment of a long history.
 */
export function paidAddresses(db: ReadableDB, wallets: readonly string[]): Payment[] {
  return all<Payment>(
    db,
    sql`SELECT t.wallet, t.chain, max(t.txn_hash) AS hash, max(t.time) AS time, t.to_addr AS "to", max(t.details) AS details
        FROM transactions t
        WHERE t.wallet IN (SELECT value FROM json_each(${walletsJson(wallets)})) AND t.status = 1
          AND t.to_addr IS NOT NULL AND t.to_addr != t.wallet AND t.from_addr = t.wallet
          AND EXISTS (SELECT 1 FROM json_each(t.details) j WHERE j.value ->> 'type' = 'out' AND (j.value ->> 'qty') > 0)
        GROUP BY t.wallet, t.chain, t.to_addr`,
  );
}

/** Every successful payment of a wallet on a chain to one address (something above 0 sent out), oldest first. */
export function paymentsTo(db: ReadableDB, q: { wallet: string; chain: string; to: string }): Payment[] {
  return all<Payment>(
    db,
    sql`SELECT t.wallet, t.chain, t.txn_hash AS hash, t.time, t.to_addr AS "to", t.details
        FROM transactions t
        WHERE t.wallet = ${q.wallet} AND t.chain = ${q.chain} AND t.to_addr = ${q.to} AND t.status = 1 AND t.from_addr = t.wallet
          AND EXISTS (SELECT 1 FROM json_each(t.details) j WHERE j.value ->> 'type' = 'out' AND (j.value ->> 'qty') > 0)
        ORDER BY t.time, t.id`,
  );
}

/**
 * The first cached transaction of these wallets whose list of transfers is not valid JSON (a
 * damaged row: what made a read of them fail), or null. A pass over their rows: only after a
 * failure.
 */
export function unreadableTransfers(db: ReadableDB, wallets: readonly string[]): { wallet: string; chain: string; hash: string } | null {
  return (
    get<{ wallet: string; chain: string; hash: string }>(
      db,
      sql`SELECT wallet, chain, txn_hash AS hash FROM transactions
          WHERE wallet IN (SELECT value FROM json_each(${walletsJson(wallets)})) AND NOT json_valid(details) LIMIT 1`,
    ) ?? null
  );
}

/** The wallets as one JSON parameter: one statement for any number of them (none too). */
const walletsJson = (w: readonly string[]) => JSON.stringify([...w]);
