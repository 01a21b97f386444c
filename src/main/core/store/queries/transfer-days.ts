/**
 * Daily transfer sums (table transfer_days, migration 005), brought up to date on use:
 * a (wallet, chain) with no state is rebuilt from all its transactions; one with state
 * adds the transactions inserted since (ids above built_to_id). Changes and deletions of
 * transactions drop the state (triggers), so the sums never go stale.
 */
import type { ReadableDB, WritableDB } from '../db.ts';

const DAY_MS = 86_400_000;

/**
 * One aggregation, over the transactions of (wallet, chain) with from < id <= to. `scope` picks
 * the index: a full build walks the wallet's index (the id bound is disabled with a unary +);
 * an update walks the new ids only (the wallet and chain terms disabled).
 */
const aggregate = (full: boolean) => `
  INSERT INTO transfer_days (wallet, chain, token_cid, day, symbol, inflow, outflow, txns, unreadable, unsure)
  SELECT t.wallet, t.chain, coalesce(lower(j.value ->> 'token_cid'), '') AS cid, t.time / ${DAY_MS} AS day,
         max(j.value ->> 'symbol'),
         total(CASE WHEN t.status = 1 AND j.value ->> 'type' = 'in' THEN j.value ->> 'qty' END),
         total(CASE WHEN t.status = 1 AND j.value ->> 'type' = 'out' THEN j.value ->> 'qty' END),
         count(DISTINCT CASE WHEN t.status = 1 THEN t.id END),
         sum(t.status = 1 AND (coalesce(j.value ->> 'type', '') NOT IN ('in', 'out') OR j.value ->> 'qty' IS NULL)),
         sum(t.status IS NULL)
  FROM transactions t, json_each(t.details) j
  WHERE ${full ? '+t.id <= @to AND t.wallet = @wallet AND t.chain = @chain' : 't.id > @from AND t.id <= @to AND +t.wallet = @wallet AND +t.chain = @chain'}
    AND (t.status = 1 OR t.status IS NULL)
  GROUP BY cid, day
  ON CONFLICT (wallet, chain, day, token_cid) DO UPDATE SET
    symbol = coalesce(excluded.symbol, symbol),
    inflow = inflow + excluded.inflow, outflow = outflow + excluded.outflow, txns = txns + excluded.txns,
    unreadable = unreadable + excluded.unreadable, unsure = unsure + excluded.unsure`;

export function ensureTransferDays(db: WritableDB, wallet: string, chain: string): void {
  const maxId = (db.prepare('SELECT coalesce(max(id), 0) AS m FROM transactions').get() as { m: number }).m;
  const state = db.prepare('SELECT built_to_id AS b FROM transfer_days_state WHERE wallet = ? AND chain = ?').get(wallet, chain) as { b: number } | undefined;
  if (state && state.b >= maxId) return;
  db.transaction(() => {
    // Read again inside the write transaction: another connection may have built it meanwhile.
    const now = db.prepare('SELECT built_to_id AS b FROM transfer_days_state WHERE wallet = ? AND chain = ?').get(wallet, chain) as { b: number } | undefined;
    const to = (db.prepare('SELECT coalesce(max(id), 0) AS m FROM transactions').get() as { m: number }).m;
    if (!now) db.prepare('DELETE FROM transfer_days WHERE wallet = ? AND chain = ?').run(wallet, chain);
    else if (now.b >= to) return;
    if (now) db.prepare(aggregate(false)).run({ wallet, chain, from: now.b, to });
    else db.prepare(aggregate(true)).run({ wallet, chain, to });
    db.prepare(
      `INSERT INTO transfer_days_state (wallet, chain, built_to_id) VALUES (?, ?, ?)
       ON CONFLICT (wallet, chain) DO UPDATE SET built_to_id = excluded.built_to_id`,
    ).run(wallet, chain, to);
  }).immediate();
}

export interface TokenFlows {
  chain: string;
  cid: string;
  symbol: string | null;
  inflow: number;
  outflow: number;
  txns: number;
  unreadable: number;
  unsure: number;
}

/**
 * A cache opened read-only (or a read-only copy, query_only) cannot keep the sums: they are
 * then summed directly. Otherwise a read may bring the sums up to date: they are derived
 * from the transactions (a memo, never data of their own), so a reader keeping them is not
 * a write a `ReadableDB` forbids. The predicate is private to this module for that reason.
 */
function canWrite(db: ReadableDB): db is WritableDB {
  return !db.readonly && db.pragma('query_only', { simple: true }) === 0;
}

/** Sums of a wallet's transfers per (chain, token) over UTC days [fromDay, toDay]. */
export function flowsByDay(db: ReadableDB, wallet: string, chains: readonly string[], fromDay: number, toDay: number): TokenFlows[] {
  if (!canWrite(db)) return flowsDirect(db, wallet, chains, fromDay, toDay);
  for (const chain of chains) ensureTransferDays(db, wallet, chain);
  return db
    .prepare(
      `SELECT chain, token_cid AS cid, max(symbol) AS symbol, total(inflow) AS inflow, total(outflow) AS outflow,
              sum(txns) AS txns, sum(unreadable) AS unreadable, sum(unsure) AS unsure
       FROM transfer_days
       WHERE wallet = @wallet AND chain IN (SELECT value FROM json_each(@chains)) AND day >= @fromDay AND day <= @toDay
       GROUP BY chain, token_cid`,
    )
    .all({ wallet, chains: JSON.stringify(chains), fromDay, toDay }) as TokenFlows[];
}

/** The same sums read straight from the transactions' transfers: slower, writes nothing. */
function flowsDirect(db: ReadableDB, wallet: string, chains: readonly string[], fromDay: number, toDay: number): TokenFlows[] {
  return db
    .prepare(
      `SELECT t.chain AS chain, coalesce(lower(j.value ->> 'token_cid'), '') AS cid, max(j.value ->> 'symbol') AS symbol,
              total(CASE WHEN t.status = 1 AND j.value ->> 'type' = 'in' THEN j.value ->> 'qty' END) AS inflow,
              total(CASE WHEN t.status = 1 AND j.value ->> 'type' = 'out' THEN j.value ->> 'qty' END) AS outflow,
              count(DISTINCT CASE WHEN t.status = 1 THEN t.id END) AS txns,
              sum(t.status = 1 AND (coalesce(j.value ->> 'type', '') NOT IN ('in', 'out') OR j.value ->> 'qty' IS NULL)) AS unreadable,
              sum(t.status IS NULL) AS unsure
       FROM transactions t, json_each(t.details) j
       WHERE t.wallet = @wallet AND t.chain IN (SELECT value FROM json_each(@chains)) AND (t.status = 1 OR t.status IS NULL)
         AND t.time >= @start AND t.time < @end
       GROUP BY t.chain, cid`,
    )
    .all({ wallet, chains: JSON.stringify(chains), start: fromDay * DAY_MS, end: (toDay + 1) * DAY_MS }) as TokenFlows[];
}

/** Transfers of a wallet and chain whose transaction has no date (day 0): their period is unknown. */
export function undatedTransfers(db: ReadableDB, wallet: string, chain: string): number {
  if (!canWrite(db)) {
    return (
      db
        .prepare(`SELECT count(*) AS n FROM transactions WHERE wallet = ? AND chain = ? AND time = 0 AND (status = 1 OR status IS NULL) AND details != '[]'`)
        .get(wallet, chain) as { n: number }
    ).n;
  }
  return (
    db.prepare('SELECT coalesce(sum(txns + unsure), 0) AS n FROM transfer_days WHERE wallet = ? AND chain = ? AND day = 0').get(wallet, chain) as { n: number }
  ).n;
}
