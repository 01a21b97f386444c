/**
 * What the spam judge reads of a wallet's history (spam/reader.ts, docs/spam.md): with whom the
 * wallet dealt and how, and which tokens it moved by its own hand; and one transaction by its key
 * (the explanation of a verdict). Aggregated here, in SQL, so a wallet of 200,000 transactions is
 * one pass over its rows, not 200,000 rows handed up.
 *
 * Succeeded or unknown rows only (a failed one moved nothing); addresses as `transactions` keeps
 * them (an EVM address in lower case).
 */
import type { TransferDetail } from '../../../../shared/model.ts';
import type { ReadableDB } from '../../store/handles.ts';
import { all, get, sql } from '../../store/sql.ts';

/** An address the wallet sent a quantity above zero to, on a chain, and when first (Unix ms). */
export interface Recipient {
  chain: string;
  address: string;
  first: number;
}

/** An address that sent the wallet a token: the largest quantity of one transfer, when first, how often. */
export interface Sender {
  chain: string;
  address: string;
  cid: string | null;
  symbol: string | null;
  maxQty: number;
  first: number;
}

/** A token the wallet moved in a transaction it sent itself: `in` (bought, withdrawn, claimed) or `out` (spent, deposited). */
export interface OwnMove {
  chain: string;
  cid: string | null;
  symbol: string | null;
  type: 'in' | 'out';
  first: number;
}

/** With whom the wallet dealt: whom it paid, who paid it what. */
export interface Dealings {
  recipients: Recipient[];
  senders: Sender[];
}

/** The wallet's dealings, aggregated: whom it paid a quantity above zero, and who paid it which token. */
export function dealings(db: ReadableDB, wallet: string): Dealings {
  const recipients = all<Recipient>(
    db,
    sql`SELECT chain, to_addr AS address, min(time) AS first FROM transactions t
        WHERE from_addr = ${wallet} AND wallet = ${wallet} AND to_addr IS NOT NULL AND to_addr != ${wallet} AND coalesce(status, 1) != 0
          AND EXISTS (SELECT 1 FROM json_each(t.details) j WHERE j.value ->> 'type' = 'out' AND (j.value ->> 'qty') > 0)
        GROUP BY chain, to_addr`,
  );
  const senders = all<Sender>(
    db,
    sql`SELECT t.chain, t.from_addr AS address, j.value ->> 'token_cid' AS cid, max(j.value ->> 'symbol') AS symbol,
               max(j.value ->> 'qty') AS maxQty, min(t.time) AS first
        FROM transactions t, json_each(t.details) j
        WHERE t.wallet = ${wallet} AND t.from_addr IS NOT NULL AND t.from_addr != ${wallet} AND coalesce(t.status, 1) != 0
          AND j.value ->> 'type' = 'in' AND (j.value ->> 'qty') > 0
        GROUP BY t.chain, t.from_addr, j.value ->> 'token_cid'`,
  );
  return { recipients, senders };
}

/** The tokens the wallet moved in transactions it sent itself, per chain and way, and whether it has any cached transaction at all. */
export function ownMoves(db: ReadableDB, wallet: string): { moves: OwnMove[]; anyTransaction: boolean } {
  const moves = all<OwnMove>(
    db,
    sql`SELECT t.chain, j.value ->> 'token_cid' AS cid, max(j.value ->> 'symbol') AS symbol, j.value ->> 'type' AS type, min(t.time) AS first
        FROM transactions t, json_each(t.details) j
        WHERE t.from_addr = ${wallet} AND t.wallet = ${wallet} AND coalesce(t.status, 1) != 0
          AND j.value ->> 'type' IN ('in', 'out') AND (j.value ->> 'qty') > 0
        GROUP BY t.chain, j.value ->> 'token_cid', j.value ->> 'type'`,
  );
  const anyTransaction = moves.length > 0 || get<{ n: number }>(db, sql`SELECT EXISTS (SELECT 1 FROM transactions WHERE wallet = ${wallet}) AS n`)!.n === 1;
  return { moves, anyTransaction };
}

/** A cached transaction as the spam judge reads it, by its key; null when it is not cached. */
export function transactionForJudge(
  db: ReadableDB,
  k: { wallet: string; chain: string; txnHash: string },
): {
  wallet: string;
  chain: string;
  txnHash: string;
  from: string | null;
  to: string | null;
  methodHex: string | null;
  protocolId: string | null;
  status: number | null;
  time: number;
  details: TransferDetail[];
} | null {
  const r = get<{
    wallet: string;
    chain: string;
    txn_hash: string;
    from_addr: string | null;
    to_addr: string | null;
    method_hex: string | null;
    protocol_id: string | null;
    status: number | null;
    time: number;
    details: string;
  }>(
    db,
    sql`SELECT wallet, chain, txn_hash, from_addr, to_addr, method_hex, protocol_id, status, time, details FROM transactions
        WHERE wallet = ${k.wallet} AND chain = ${k.chain} AND txn_hash = ${k.txnHash}`,
  );
  if (!r) return null;
  return {
    wallet: r.wallet,
    chain: r.chain,
    txnHash: r.txn_hash,
    from: r.from_addr,
    to: r.to_addr,
    methodHex: r.method_hex,
    protocolId: r.protocol_id,
    status: r.status,
    time: r.time,
    details: JSON.parse(r.details) as TransferDetail[],
  };
}
