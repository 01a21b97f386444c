/**
 * What the spam judge reads of a wallet's history (spam/reader.ts, docs/spam.md): with whom the
 * wallet dealt, among the addresses of one range (those sharing a lookalike's first hex digits),
 * which tokens it bought by its own hand, and one transaction by its key (the explanation of a
 * verdict). Each is read when a row needs it, by an index range, so a whale's timeline page costs
 * a few seeks per address on it, never a pass over its 200,000 transactions.
 *
 * Succeeded or unknown rows only (a failed one moved nothing); addresses as `transactions` keeps
 * them (an EVM address in lower case).
 */
import type { TransferDetail } from '../../../../shared/model.ts';
import type { ReadableDB } from '../../store/handles.ts';
import { all, get, sql, sqlCode } from '../../store/sql.ts';
import {
  dealingsWithin,
  keptDealingsOf as keptDealings,
  keptStates,
  PAID_IN as PAID_IN_TEXT,
  type Dealings,
  type KeptStates,
  type Sender,
} from '../../transactions/index.ts';

/** The aggregate's rule, as the kept dealings apply it (transactions/store/party-dealings.ts). */
const PAID_IN = sqlCode(PAID_IN_TEXT);

export { keptStates };
export type { Dealings, KeptStates, Recipient, Sender } from '../../transactions/index.ts';

/**
 * The wallet's dealings with the addresses in [from, to) (text order: a range of EVM addresses
 * sharing their first hex digits, or one address as [a, a + '\0')): whom it paid a quantity above
 * zero, and who paid it which token (itself aside). Read from the dealings kept as rows are
 * written (transactions/store/party-dealings.ts): a seek per chain. `kept`: the wallet's
 * keptStates, for a reader asking of many ranges.
 */
export function dealingsBetween(db: ReadableDB, wallet: string, from: string, to: string, kept?: KeptStates): Dealings {
  const { recipients, senders } = dealingsWithin(db, wallet, from, to, kept);
  return { recipients, senders: senders.filter((s) => s.address !== wallet) };
}

/**
 * A wallet's dealings whole, as `dealingsBetween` gives them for one range of addresses, and what
 * it acquired (as `acquiredTokens`): for a read that asks of most of its counterparties (an
 * export). Kept per wallet and chain as its rows are written (transactions/store/party-dealings.ts),
 * so this reads a few hundred rows, not its history. Who paid it and what it got by its own hand
 * are the same aggregate over its transfers in (by sender: the wallet itself, or another).
 */
export function dealingsOf(db: ReadableDB, wallet: string): Dealings & { acquired: Acquired[] } {
  const { recipients, senders: all } = keptDealings(db, wallet);
  const senders: Sender[] = [];
  const acquired: Acquired[] = [];
  for (const s of all)
    if (s.address !== wallet) senders.push(s);
    else acquired.push({ chain: s.chain, cid: s.cid, symbol: s.symbol, first: s.first });
  return { recipients, senders, acquired };
}

/**
 * When each address first appeared in the cache: the earliest transaction of any watched wallet
 * from it or to it, of any amount or status (a poisoner's zero transfer too). Absent: it never
 * did. Two seeks an address (the address indexes), for the few addresses of one lookalike bucket.
 */
export function firstAppearances(db: ReadableDB, addresses: readonly string[]): Map<string, number> {
  const list = JSON.stringify([...addresses]);
  const rows = all<{ address: string; first: number }>(
    db,
    sql`SELECT address, min(first) AS first FROM (
          SELECT from_addr AS address, min(time) AS first FROM transactions INDEXED BY transactions_by_from
            WHERE from_addr IN (SELECT value FROM json_each(${list})) GROUP BY from_addr
          UNION ALL
          SELECT to_addr, min(time) FROM transactions INDEXED BY transactions_by_to
            WHERE to_addr IN (SELECT value FROM json_each(${list})) GROUP BY to_addr)
        GROUP BY address`,
  );
  return new Map(rows.map((r) => [r.address, r.first]));
}

/** A token the wallet got by a transaction of its own (bought, withdrawn, claimed), per chain, and when first. */
export interface Acquired {
  chain: string;
  cid: string | null;
  symbol: string | null;
  first: number;
}

/** The tokens the wallet got in transactions it sent itself: one pass over those, read once a token needs it. */
export function acquiredTokens(db: ReadableDB, wallet: string): Acquired[] {
  return all<Acquired>(
    db,
    sql`SELECT t.chain, j.value ->> 'token_cid' AS cid, max(j.value ->> 'symbol') AS symbol, min(t.time) AS first
        FROM transactions t, json_each(t.details) j
        WHERE t.from_addr = ${wallet} AND t.wallet = ${wallet} AND coalesce(t.status, 1) != 0
          AND ${PAID_IN}
        GROUP BY 1, 2`,
  );
}

/** Whether any transaction of the wallet is cached (what it bought can then be known). */
export function hasHistory(db: ReadableDB, wallet: string): boolean {
  return get<{ n: number }>(db, sql`SELECT EXISTS (SELECT 1 FROM transactions WHERE wallet = ${wallet}) AS n`)!.n === 1;
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
