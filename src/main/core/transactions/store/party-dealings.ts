/**
 * A wallet's dealings with its counterparties (table party_dealings, migration 25): whom it paid a
 * quantity above zero, and who paid it which token, with when first. The spam judge's known
 * counterparties are made of these (spam/reader.ts; docs/spam.md), and a read through a whole
 * history (an export, the pack, the poisoning guard's first review) needs them for every wallet
 * it names: aggregated over the transactions with json_each they cost two passes over each
 * wallet's history (about half a second per 100,000 rows), most of a million-row export's spam
 * column (bench/RESULTS.md, "Spam in the transactions CSV").
 *
 * Kept exactly as the daily transfer sums are (transfer-days.ts) and under their state: the rows
 * of a (wallet, chain) with id up to transfer_days_state.built_to_id are in both tables. The page
 * writer's keeper adds the rows it inserts (transfer-days-keeper.ts), the refresh the rows it
 * reads, the triggers that drop the sums' state on a change or deletion drop this too, and a
 * state rebuilt from nothing clears both. Readers (dealingsOf) take what is kept for the pairs
 * whose state is current and aggregate the rest directly, so a read-only cache, a pair no writer
 * has brought forward, or rows inserted since all read the same as dealingsDirect.
 *
 * The same figures as the aggregate over the transactions: a row is added in JavaScript only when
 * every value it is read by is plain (text, null or a finite number, as the service's JSON gives
 * them), where JavaScript's reading is SQLite's: equality of text, numbers compared as numbers,
 * the larger symbol by its UTF-8 bytes (SQLite's BINARY collation, not JavaScript's UTF-16 order).
 * Any other row (a quantity sent as text, a symbol as a number, a lone surrogate) is added by the
 * same aggregate in SQL, by its id (addDealingsOfRows). The tests compare both readings after
 * random writes, changes and deletions (test/store/party-dealings.test.ts).
 */
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { prepare } from '../../store/sql.ts';

/** An address the wallet sent a quantity above zero to, on a chain, and when first (Unix ms). */
export interface Recipient {
  chain: string;
  address: string;
  first: number;
}

/** An address that sent the wallet a token: the largest quantity of one transfer, when first. */
export interface Sender {
  chain: string;
  address: string;
  cid: string | null;
  symbol: string | null;
  maxQty: number;
  first: number;
}

/** With whom the wallet dealt: whom it paid, who paid it what. */
export interface Dealings {
  recipients: Recipient[];
  senders: Sender[];
}

/** One aggregate row of party_dealings, as a batch of rows adds it. */
export interface DealingSum {
  wallet: string;
  chain: string;
  dir: 'in' | 'out';
  address: string;
  cidNull: 0 | 1;
  cid: string;
  symbol: string | null;
  maxQty: number | null;
  first: number;
}

export type DealingSums = Map<string, DealingSum>;

const plainText = (v: unknown): v is string | null | undefined => v === null || v === undefined || (typeof v === 'string' && v.isWellFormed());

/** A transfer whose members the dealings read as SQLite's ->> would: a plain object of text, nulls and finite numbers. */
function plainTransfer(t: unknown): t is Record<string, unknown> {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return false;
  const proto = Object.getPrototypeOf(t) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  const rec = t as Record<string, unknown>;
  if (rec['toJSON'] !== undefined) return false;
  const qty = rec['qty'];
  return (
    plainText(rec['type']) &&
    plainText(rec['token_cid']) &&
    plainText(rec['symbol']) &&
    (qty === null || qty === undefined || (typeof qty === 'number' && Number.isFinite(qty)))
  );
}

/**
 * Whether text `a` sorts after `b` as SQLite's BINARY collation sorts them, by their UTF-8 bytes:
 * JavaScript's `>` compares UTF-16 units, which put U+FF21 after U+1F600 (a surrogate pair).
 */
export function afterInUtf8(a: string, b: string): boolean {
  return a !== b && Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')) > 0;
}

/**
 * Adds one transaction's dealings (its transfers, parsed) to `sums`. False when a value it is
 * read by is not plain: nothing is added then, and the caller adds the row by SQL
 * (addDealingsOfRows), so the figures stay the aggregate's.
 */
export function addDealings(
  sums: DealingSums,
  wallet: string,
  chain: string,
  time: unknown,
  status: unknown,
  from: unknown,
  to: unknown,
  transfers: readonly unknown[],
): boolean {
  if (!Number.isSafeInteger(time) || (status !== null && !Number.isSafeInteger(status))) return false;
  // coalesce(status, 1) != 0: a failed transaction moved nothing, whatever its values.
  if (status === 0) return true;
  if (!plainText(from) || !plainText(to) || !wallet.isWellFormed() || !chain.isWellFormed()) return false;
  for (const t of transfers) if (!plainTransfer(t)) return false;
  const at = time as number;
  let paid = false;
  for (const t of transfers as ReadonlyArray<Record<string, unknown>>) {
    const qty = t['qty'];
    if (typeof qty !== 'number' || !(qty > 0)) continue;
    if (t['type'] === 'out') paid = true;
    else if (t['type'] === 'in' && typeof from === 'string') {
      const rawCid = t['token_cid'];
      const cidNull = typeof rawCid === 'string' ? 0 : 1;
      const cid = typeof rawCid === 'string' ? rawCid : '';
      const key = `in\u0000${wallet}\u0000${chain}\u0000${from}\u0000${cidNull}\u0000${cid}`;
      const symbol = typeof t['symbol'] === 'string' ? t['symbol'] : null;
      const s = sums.get(key);
      if (!s) sums.set(key, { wallet, chain, dir: 'in', address: from, cidNull, cid, symbol, maxQty: qty, first: at });
      else {
        if (symbol !== null && (s.symbol === null || afterInUtf8(symbol, s.symbol))) s.symbol = symbol;
        if (qty > s.maxQty!) s.maxQty = qty;
        if (at < s.first) s.first = at;
      }
    }
  }
  if (paid && from === wallet && typeof to === 'string' && to !== wallet) {
    const key = `out\u0000${wallet}\u0000${chain}\u0000${to}`;
    const s = sums.get(key);
    if (!s) sums.set(key, { wallet, chain, dir: 'out', address: to, cidNull: 1, cid: '', symbol: null, maxQty: null, first: at });
    else if (at < s.first) s.first = at;
  }
  return true;
}

/**
 * The aggregate's rule, one text for every statement of it (here and the ledger's reads by address
 * range): a transaction paid a quantity above zero out (`t`: the transactions)...
 */
export const PAID_OUT = `EXISTS (SELECT 1 FROM json_each(t.details) j WHERE j.value ->> 'type' = 'out' AND (j.value ->> 'qty') > 0)`;
/** ...and a transfer in of a quantity above zero (`j`: json_each(t.details)). */
export const PAID_IN = `j.value ->> 'type' = 'in' AND (j.value ->> 'qty') > 0`;

/** Merges a row into a kept one: the larger symbol and quantity (max() of two is NULL if one is), the earlier first. */
const MERGE = `ON CONFLICT (wallet, chain, dir, address, cid_null, cid) DO UPDATE SET
  symbol = coalesce(max(symbol, excluded.symbol), symbol, excluded.symbol),
  max_qty = coalesce(max(max_qty, excluded.max_qty), max_qty, excluded.max_qty),
  first = min(first, excluded.first)`;

/** Adds the sums to the kept ones (in the caller's transaction). */
export function writeDealings(db: WritableDB, sums: DealingSums): void {
  if (!sums.size) return;
  const upsert = prepare(
    db,
    `INSERT INTO party_dealings (wallet, chain, dir, address, cid_null, cid, symbol, max_qty, first)
     VALUES (@wallet, @chain, @dir, @address, @cidNull, @cid, @symbol, @maxQty, @first) ${MERGE}`,
  );
  for (const s of sums.values()) upsert.run(s);
}

/**
 * Adds these transactions (by id) by the aggregate itself, in SQL: the rows addDealings would not
 * read (in the caller's transaction). Details that are not JSON (the store never writes them, and
 * the aggregate over the transactions would fail on them) add nothing.
 */
export function addDealingsOfRows(db: WritableDB, ids: readonly number[]): void {
  if (!ids.length) return;
  const list = JSON.stringify(ids);
  // WHERE before ON CONFLICT: SQLite's parser needs it to tell the upsert from a join's ON.
  prepare(
    db,
    `INSERT INTO party_dealings (wallet, chain, dir, address, cid_null, cid, symbol, max_qty, first)
     SELECT t.wallet, t.chain, 'out', t.to_addr, 1, '', NULL, NULL, min(t.time) FROM transactions t
      WHERE t.id IN (SELECT value FROM json_each(?)) AND t.from_addr = t.wallet AND t.to_addr IS NOT NULL AND t.to_addr != t.wallet
        AND coalesce(t.status, 1) != 0 AND json_valid(t.details)
        AND ${PAID_OUT}
      GROUP BY t.wallet, t.chain, t.to_addr ${MERGE}`,
  ).run(list);
  prepare(
    db,
    `INSERT INTO party_dealings (wallet, chain, dir, address, cid_null, cid, symbol, max_qty, first)
     SELECT t.wallet, t.chain, 'in', t.from_addr, (j.value ->> 'token_cid') IS NULL, coalesce(j.value ->> 'token_cid', ''),
            max(j.value ->> 'symbol'), max(j.value ->> 'qty'), min(t.time)
       FROM transactions t, json_each(t.details) j
      WHERE t.id IN (SELECT value FROM json_each(?)) AND t.from_addr IS NOT NULL AND coalesce(t.status, 1) != 0 AND json_valid(t.details)
        AND ${PAID_IN}
      GROUP BY t.wallet, t.chain, t.from_addr, j.value ->> 'token_cid' ${MERGE}`,
  ).run(list);
}

/** The pair's kept dealings go (its state is being rebuilt from nothing; in the caller's transaction). */
export function deleteDealings(db: WritableDB, wallet: string, chain: string): void {
  prepare(db, 'DELETE FROM party_dealings WHERE wallet = ? AND chain = ?').run(wallet, chain);
}

/**
 * The wallet's rows not kept, for each of the two aggregates: those above the state of a pair
 * whose state is current (a range of ids from it: empty when nothing came since), and those of a
 * pair with no current state, walked on `unkept`: the wallet's index, whose chain the index
 * holds, so a pair kept costs a check of the index and no row; an address index over a range;
 * or not at all (the wallet has no such pair). @states: [[chain, built_to_id], ...].
 */
const notKept = (columns: string, from: string, where: string, unkept: string | null) => `
  SELECT ${columns} FROM json_each(@states) s CROSS JOIN transactions t NOT INDEXED ${from}
   WHERE t.id > s.value ->> 1 AND +t.wallet = @wallet AND +t.chain = s.value ->> 0 AND ${where}
  ${
    unkept === null
      ? ''
      : `UNION ALL
  SELECT ${columns} FROM transactions t ${unkept} ${from}
   WHERE t.wallet = @wallet AND t.chain NOT IN (SELECT value ->> 0 FROM json_each(@states)) AND ${where}`
  }`;

/** A wallet's pairs whose kept dealings are current (JSON, as @states), and whether it has rows on any other chain. */
export interface KeptStates {
  states: string;
  unkept: boolean;
}

/** The wallet's current states (@states): a state above the largest id is none (ids freed at the top are given again). */
const currentStates = (db: ReadableDB, wallet: string): string =>
  JSON.stringify(
    prepare(
      db,
      'SELECT chain, built_to_id FROM transfer_days_state WHERE wallet = ? AND built_to_id <= (SELECT coalesce(max(id), 0) FROM transactions)',
      'raw',
    ).all(wallet),
  );

/**
 * The wallet's current states, and whether rows of another chain exist: that walks the wallet's
 * index (its entries, not its rows) until one is found, so a reader asking of many address ranges
 * asks this once.
 */
export function keptStates(db: ReadableDB, wallet: string): KeptStates {
  const states = currentStates(db, wallet);
  const unkept = !!prepare(
    db,
    'SELECT 1 FROM transactions INDEXED BY transactions_by_wallet_time WHERE wallet = ? AND chain NOT IN (SELECT value ->> 0 FROM json_each(?)) LIMIT 1',
  ).get(wallet, states);
  return { states, unkept };
}

/**
 * The two aggregates, what is kept and the rest from the transactions, for every counterparty
 * or for those in an address range (`near`: its terms on `d.address`, on each aggregate's end of
 * the transactions, and the index a pair not kept walks for each).
 */
function dealingsRead(
  db: ReadableDB,
  params: Record<string, string>,
  near: { kept: string; to: string; from: string; unkeptTo: string | null; unkeptFrom: string | null },
): Dealings {
  const kept = (dir: 'in' | 'out', columns: string) =>
    `SELECT ${columns} FROM party_dealings d WHERE d.wallet = @wallet AND d.dir = '${dir}' AND d.chain IN (SELECT value ->> 0 FROM json_each(@states)) ${near.kept}`;
  const recipients = prepare(
    db,
    `SELECT chain, address, min(first) AS first FROM (
       ${kept('out', 'd.chain, d.address, d.first')}
       UNION ALL
       ${notKept(
         't.chain, t.to_addr, t.time',
         '',
         `+t.from_addr = @wallet AND t.to_addr IS NOT NULL AND t.to_addr != @wallet AND coalesce(t.status, 1) != 0 ${near.to}
          AND ${PAID_OUT}`,
         near.unkeptTo,
       )})
     GROUP BY chain, address`,
  ).all(params) as Recipient[];
  const senders = prepare(
    db,
    `SELECT chain, address, cid, max(symbol) AS symbol, max(qty) AS maxQty, min(first) AS first FROM (
       ${kept('in', 'd.chain, d.address, CASE WHEN d.cid_null THEN NULL ELSE d.cid END AS cid, d.symbol, d.max_qty AS qty, d.first')}
       UNION ALL
       ${notKept(
         "t.chain, t.from_addr, j.value ->> 'token_cid', j.value ->> 'symbol', j.value ->> 'qty', t.time",
         ', json_each(t.details) j',
         `t.from_addr IS NOT NULL AND coalesce(t.status, 1) != 0 ${near.from} AND ${PAID_IN}`,
         near.unkeptFrom,
       )})
     GROUP BY chain, address, cid`,
  ).all(params) as Sender[];
  return { recipients, senders };
}

/** A wallet's dealings, whole: what is kept, and the rest aggregated from its transactions (the same as dealingsDirect). */
export function dealingsOf(db: ReadableDB, wallet: string): Dealings {
  // The rows of a pair not kept are walked on the wallet's index anyway: no need to ask whether there are any.
  const states = currentStates(db, wallet);
  const walk = 'INDEXED BY transactions_by_wallet_time';
  return dealingsRead(db, { wallet, states }, { kept: '', to: '', from: '', unkeptTo: walk, unkeptFrom: walk });
}

/**
 * The wallet's dealings with the addresses in [from, to) (text order), as dealingsOf gives them
 * for those addresses: the spam judge asks this for the addresses of one lookalike bucket, a row
 * at a time. What is kept is a seek on the table's key per chain, so the read costs what this
 * wallet dealt with in the range. It used to walk the address indexes over the range: every
 * watched wallet's transactions with the addresses there (a router, an exchange, the fund's own
 * wallets), seconds a timeline page at a fund's scale (bench/RESULTS.md). A pair not kept (a
 * read-only cache, rows no writer has brought forward) still walks them, over its chains alone,
 * rather than the wallet's whole history (a whale's) for each range. `kept`: keptStates', when
 * the caller asks of many ranges.
 */
export function dealingsWithin(db: ReadableDB, wallet: string, from: string, to: string, kept = keptStates(db, wallet)): Dealings {
  return dealingsRead(
    db,
    { wallet, states: kept.states, from, to },
    {
      kept: 'AND d.address >= @from AND d.address < @to',
      to: 'AND t.to_addr >= @from AND t.to_addr < @to',
      from: 'AND t.from_addr >= @from AND t.from_addr < @to',
      unkeptTo: kept.unkept ? 'INDEXED BY transactions_by_to' : null,
      unkeptFrom: kept.unkept ? 'INDEXED BY transactions_by_from' : null,
    },
  );
}

/** The same from the transactions alone (the definition: the tests hold dealingsOf to it). */
export function dealingsDirect(db: ReadableDB, wallet: string): Dealings {
  const recipients = prepare(
    db,
    `SELECT chain, to_addr AS address, min(time) AS first FROM transactions t
      WHERE wallet = @wallet AND from_addr = @wallet AND to_addr IS NOT NULL AND to_addr != @wallet AND coalesce(status, 1) != 0
        AND ${PAID_OUT}
      GROUP BY chain, to_addr`,
  ).all({ wallet }) as Recipient[];
  const senders = prepare(
    db,
    `SELECT t.chain, t.from_addr AS address, j.value ->> 'token_cid' AS cid, max(j.value ->> 'symbol') AS symbol,
            max(j.value ->> 'qty') AS maxQty, min(t.time) AS first
       FROM transactions t, json_each(t.details) j
      WHERE t.wallet = @wallet AND t.from_addr IS NOT NULL AND coalesce(t.status, 1) != 0
        AND ${PAID_IN}
      GROUP BY t.chain, t.from_addr, j.value ->> 'token_cid'`,
  ).all({ wallet }) as Sender[];
  return { recipients, senders };
}
