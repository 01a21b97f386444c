/**
 * Daily transfer sums (table transfer_days, migration 005), kept by a sync's page writer as it
 * inserts rows where that is provably exact (../transfer-days-keeper.ts, the same addTransfers),
 * and otherwise brought up to date by an explicit writer (refreshTransferDays, the fallback,
 * which then finds little or nothing to read): after each transaction sync, and by the core
 * before a reconciliation or a report that reconciles (../transfer-days-refresh.ts). A (wallet,
 * chain) with no state is rebuilt from all its transactions; one with state adds the
 * transactions inserted since (ids above built_to_id). Changes and deletions of transactions
 * drop the state (triggers), so the sums never go stale.
 *
 * Readers (flowsByDay, undatedTransfers) take a ReadableDB and never write: they read the sums
 * of a pair that are current (sumsCurrent), and sum the transactions directly for one that is
 * not (a read-only cache, a pair no writer has brought forward), with the same figures.
 *
 * The sums are made in JavaScript from each row's details text (JSON.parse), not with SQLite's
 * json_each: the same figures (flowsDirect below sums them in SQL and the tests compare the
 * two), and faster (bench/reconcile.ts), which is what makes keeping them current cheap
 * enough for a sync, so a first reconciliation finds them made (bench/RESULTS.md, "Treasury
 * analytics (issue 17)").
 */
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { prepare } from '../../store/sql.ts';
import { addDealings, addDealingsOfRows, afterInUtf8, deleteDealings, writeDealings, type DealingSums } from './party-dealings.ts';

const DAY_MS = 86_400_000;

export interface DaySum {
  wallet: string;
  chain: string;
  cid: string;
  day: number;
  symbol: string | null;
  inflow: number;
  outflow: number;
  txns: number;
  unreadable: number;
  unsure: number;
  /** The last successful transaction counted for this key: txns counts distinct transactions. */
  lastTxn: number;
}

type TxnRow = [id: number, wallet: string, chain: string, time: number, status: number | null, details: string, from: string | null, to: string | null];

/** SQLite's total() of a JSON value read with ->>: numbers as they are, numeric text as its number, anything else 0. */
function qtyOf(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'string') {
    const n = Number.parseFloat(v);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/**
 * Adds one stored row's transfers to the sums and its dealings (party-dealings.ts), from its
 * details text as stored, parsed once for both; a row the dealings cannot read alike goes to
 * `byId` (added in SQL).
 */
function addRow(sums: Map<string, DaySum>, dealings: DealingSums, byId: number[], [id, wallet, chain, time, status, details, from, to]: TxnRow): void {
  // A failed transaction moved nothing: neither the sums nor the dealings read it.
  if (status === 0) return;
  let transfers: unknown;
  let parsed = true;
  try {
    transfers = JSON.parse(details);
  } catch {
    // Not JSON (the store never writes that): one transfer that names nothing and says nothing,
    // so the reconciliation reports it as unreadable rather than leave it out.
    transfers = [{}];
    parsed = false;
  }
  if (!parsed || !Array.isArray(transfers) || !addDealings(dealings, wallet, chain, time, status, from, to, transfers)) byId.push(id);
  if (status !== 1 && status !== null) return;
  addTransfers(sums, id, wallet, chain, time, status, Array.isArray(transfers) ? transfers : [{}]);
}

/**
 * Adds one transaction's transfers (its details, parsed) to the sums: status 1 or no status
 * only (a failed one moved nothing). The one rule for the sums, whether they are made from the
 * stored text (addRow) or by the page writer from the rows it writes (transfer-days-keeper.ts).
 */
export function addTransfers(
  sums: Map<string, DaySum>,
  id: number,
  wallet: string,
  chain: string,
  time: number,
  status: number | null,
  transfers: readonly unknown[],
): void {
  if (status !== 1 && status !== null) return;
  const day = Math.trunc(time / DAY_MS); // SQLite's integer division
  const prefix = `${wallet}\u0000${chain}\u0000${day}\u0000`;
  for (const t of transfers) {
    const rec = (t && typeof t === 'object' ? t : {}) as Record<string, unknown>;
    const rawCid = rec['token_cid'];
    const cid = typeof rawCid === 'string' ? rawCid.toLowerCase() : rawCid === null || rawCid === undefined ? '' : String(rawCid).toLowerCase();
    const key = prefix + cid;
    let s = sums.get(key);
    if (!s) sums.set(key, (s = { wallet, chain, cid, day, symbol: null, inflow: 0, outflow: 0, txns: 0, unreadable: 0, unsure: 0, lastTxn: -1 }));
    const symbol = rec['symbol'];
    // The larger by SQLite's order (flowsDirect's max(symbol)), not JavaScript's.
    if (typeof symbol === 'string' && (s.symbol === null || afterInUtf8(symbol, s.symbol))) s.symbol = symbol;
    if (status === null) {
      s.unsure++;
      continue;
    }
    const type = rec['type'];
    const qty = rec['qty'];
    if (type === 'in') s.inflow += qtyOf(qty);
    else if (type === 'out') s.outflow += qtyOf(qty);
    if ((type !== 'in' && type !== 'out') || qty === null || qty === undefined) s.unreadable++;
    if (s.lastTxn !== id) {
      s.txns++;
      s.lastTxn = id;
    }
  }
}

/** Adds the sums to the stored ones (in the caller's transaction). */
export function writeSums(db: WritableDB, sums: Map<string, DaySum>): void {
  const upsert = prepare(
    db,
    `INSERT INTO transfer_days (wallet, chain, token_cid, day, symbol, inflow, outflow, txns, unreadable, unsure)
     VALUES (@wallet, @chain, @cid, @day, @symbol, @inflow, @outflow, @txns, @unreadable, @unsure)
     ON CONFLICT (wallet, chain, day, token_cid) DO UPDATE SET
       -- The larger of the two, as max(symbol) over all the rows would give (max() of two is NULL if one is).
       symbol = coalesce(max(symbol, excluded.symbol), symbol, excluded.symbol),
       inflow = inflow + excluded.inflow, outflow = outflow + excluded.outflow, txns = txns + excluded.txns,
       unreadable = unreadable + excluded.unreadable, unsure = unsure + excluded.unsure`,
  );
  for (const s of sums.values()) {
    const { lastTxn: _, ...row } = s;
    upsert.run(row);
  }
}

const COLUMNS = 'id, wallet, chain, time, status, details, from_addr, to_addr';

export interface WalletChain {
  wallet: string;
  chain: string;
}

/** The largest transaction id (0 when none): the ids above a pair's state are the rows not yet summed. */
export function maxTransactionId(db: ReadableDB): number {
  return prepare(db, 'SELECT coalesce(max(id), 0) FROM transactions', 'pluck').get() as number;
}

/** The pair's state: every row of it with an id up to this is summed (undefined: no state). */
export function builtTo(db: ReadableDB, wallet: string, chain: string): number | undefined {
  return prepare(db, 'SELECT built_to_id FROM transfer_days_state WHERE wallet = ? AND chain = ?', 'pluck').get(wallet, chain) as number | undefined;
}

/** Records that the pair's rows up to id `to` are summed. */
export function markBuilt(db: WritableDB, wallet: string, chain: string, to: number): void {
  prepare(
    db,
    `INSERT INTO transfer_days_state (wallet, chain, built_to_id) VALUES (?, ?, ?)
     ON CONFLICT (wallet, chain) DO UPDATE SET built_to_id = excluded.built_to_id`,
  ).run(wallet, chain, to);
}

/**
 * One step: the sums of these (wallet, chain) pairs brought forward over the new ids, at most
 * `span` of them (all when omitted), in one write transaction. A pair with no state (never
 * built, or dropped by a change) starts from nothing. Other wallets' rows are passed over by
 * SQLite, not read into JavaScript. Returns the rows read and whether the pairs are current.
 */
function refreshStep(db: WritableDB, pairs: readonly WalletChain[], span?: number): { read: number; done: boolean } {
  const current = (to: number) => pairs.every((p) => (builtTo(db, p.wallet, p.chain) ?? -1) >= to);
  if (current(maxTransactionId(db))) return { read: 0, done: true };
  return db
    .transaction(() => {
      // Read again inside the write transaction: another connection may have built them meanwhile.
      const to = maxTransactionId(db);
      const since = new Map<string, number>();
      for (const p of pairs) {
        const key = `${p.wallet}\u0000${p.chain}`;
        if (since.has(key)) continue;
        let b = builtTo(db, p.wallet, p.chain);
        // A watermark above the largest id: rows were deleted and their ids may be given again.
        if (b !== undefined && b > to) b = undefined;
        if (b === undefined) {
          prepare(db, 'DELETE FROM transfer_days WHERE wallet = ? AND chain = ?').run(p.wallet, p.chain);
          deleteDealings(db, p.wallet, p.chain);
        }
        since.set(key, b ?? 0);
      }
      const behind = [...since.entries()].filter(([, b]) => b < to);
      if (!behind.length) return { read: 0, done: true };
      const from = Math.min(...behind.map(([, b]) => b));
      const upTo = span === undefined ? to : Math.min(to, from + span);
      const sums = new Map<string, DaySum>();
      const dealings: DealingSums = new Map();
      const byId: number[] = [];
      let read = 0;
      const rows = prepare(
        db,
        `SELECT ${COLUMNS} FROM transactions WHERE id > ? AND id <= ?
             AND (wallet, chain) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
        'raw',
      );
      for (const row of rows.iterate(from, upTo, JSON.stringify(behind.map(([k]) => k.split('\u0000')))) as IterableIterator<TxnRow>) {
        if (row[0] <= since.get(`${row[1]}\u0000${row[2]}`)!) continue;
        addRow(sums, dealings, byId, row);
        read++;
      }
      writeSums(db, sums);
      writeDealings(db, dealings);
      addDealingsOfRows(db, byId);
      for (const [key, b] of since) {
        const [wallet, chain] = key.split('\u0000') as [string, string];
        markBuilt(db, wallet, chain, Math.max(b, upTo));
      }
      return { read, done: upTo >= to };
    })
    .immediate();
}

/** The writer: brings the sums of these pairs up to the newest transaction now. Returns the rows read. */
export function refreshTransferDays(db: WritableDB, pairs: readonly WalletChain[]): number {
  if (!pairs.length || !writable(db)) return 0;
  return refreshStep(db, pairs).read;
}

/**
 * The same, in steps of `span` ids with a turn of the event loop between them: what a sync
 * runs after writing its rows, so a whale's million rows never hold the process (or the other
 * writers) for long. Stops between steps when the signal aborts; the next call goes on.
 */
export async function refreshTransferDaysInSteps(db: WritableDB, pairs: readonly WalletChain[], signal?: AbortSignal, span = 10_000): Promise<number> {
  if (!pairs.length || !writable(db)) return 0;
  let read = 0;
  for (;;) {
    if (signal?.aborted) return read;
    const step = refreshStep(db, pairs, span);
    read += step.read;
    if (step.done) return read;
    await new Promise((resolve) => setImmediate(resolve));
  }
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
 * A connection that cannot write (a cache opened read-only, or a read-only copy: query_only)
 * keeps no sums: the writers do nothing there, and the readers sum the transactions directly.
 */
function writable(db: WritableDB): boolean {
  return !db.readonly && db.pragma('query_only', { simple: true }) === 0;
}

/** How far (in ids) sumsCurrent looks above a pair's state for rows of its own before it gives up. */
const MAX_GAP_SCAN = 50_000;

/**
 * Whether the stored sums of this pair count every one of its transactions now: its state is
 * the largest id, or no row of the pair lies above it (only other pairs' rows were added
 * since). A state above the largest id means rows were deleted and their ids may be given
 * again (as in refreshStep): not current. Reads only.
 */
export function sumsCurrent(db: ReadableDB, wallet: string, chain: string, maxId = maxTransactionId(db)): boolean {
  const built = builtTo(db, wallet, chain);
  if (built === undefined || built > maxId) return false;
  if (built === maxId) return true;
  if (maxId - built > MAX_GAP_SCAN) return false;
  // Walked by rowid (the unary + keeps SQLite off the wallet index, which would walk all its rows).
  return !prepare(db, 'SELECT 1 FROM transactions WHERE id > ? AND id <= ? AND +wallet = ? AND +chain = ? LIMIT 1').get(built, maxId, wallet, chain);
}

/**
 * Sums of a wallet's transfers per (chain, token) over UTC days [fromDay, toDay]: from the
 * stored sums of the chains whose sums are current, straight from the transactions for the
 * others. Writes nothing (the writers above keep the sums).
 */
export function flowsByDay(db: ReadableDB, wallet: string, chains: readonly string[], fromDay: number, toDay: number): TokenFlows[] {
  const maxId = maxTransactionId(db);
  const kept = chains.filter((chain) => sumsCurrent(db, wallet, chain, maxId));
  const direct = chains.filter((chain) => !kept.includes(chain));
  const stored = kept.length
    ? (prepare(
        db,
        `SELECT chain, token_cid AS cid, max(symbol) AS symbol, total(inflow) AS inflow, total(outflow) AS outflow,
                  sum(txns) AS txns, sum(unreadable) AS unreadable, sum(unsure) AS unsure
           FROM transfer_days
           WHERE wallet = @wallet AND chain IN (SELECT value FROM json_each(@chains)) AND day >= @fromDay AND day <= @toDay
           GROUP BY chain, token_cid`,
      ).all({ wallet, chains: JSON.stringify(kept), fromDay, toDay }) as TokenFlows[])
    : [];
  return direct.length ? [...stored, ...flowsDirect(db, wallet, direct, fromDay, toDay)] : stored;
}

/** The same sums read straight from the transactions' transfers: slower, writes nothing. */
export function flowsDirect(db: ReadableDB, wallet: string, chains: readonly string[], fromDay: number, toDay: number): TokenFlows[] {
  return prepare(
    db,
    `SELECT t.chain AS chain, coalesce(lower(j.value ->> 'token_cid'), '') AS cid, max(j.value ->> 'symbol') AS symbol,
              total(CASE WHEN t.status = 1 AND j.value ->> 'type' = 'in' THEN j.value ->> 'qty' END) AS inflow,
              total(CASE WHEN t.status = 1 AND j.value ->> 'type' = 'out' THEN j.value ->> 'qty' END) AS outflow,
              count(DISTINCT CASE WHEN t.status = 1 THEN t.id END) AS txns,
              -- coalesce: a group of only unknown-status transfers sums NULLs here.
              coalesce(sum(t.status = 1 AND (coalesce(j.value ->> 'type', '') NOT IN ('in', 'out') OR j.value ->> 'qty' IS NULL)), 0) AS unreadable,
              sum(t.status IS NULL) AS unsure
       FROM transactions t, json_each(t.details) j
       WHERE t.wallet = @wallet AND t.chain IN (SELECT value FROM json_each(@chains)) AND (t.status = 1 OR t.status IS NULL)
         AND t.time >= @start AND t.time < @end
       GROUP BY t.chain, cid`,
  ).all({ wallet, chains: JSON.stringify(chains), start: fromDay * DAY_MS, end: (toDay + 1) * DAY_MS }) as TokenFlows[];
}

/** Transfers of a wallet and chain whose transaction has no date (day 0): their period is unknown. */
export function undatedTransfers(db: ReadableDB, wallet: string, chain: string): number {
  if (!sumsCurrent(db, wallet, chain)) {
    return (
      prepare(
        db,
        `SELECT count(*) AS n FROM transactions WHERE wallet = ? AND chain = ? AND time = 0 AND (status = 1 OR status IS NULL) AND details != '[]'`,
      ).get(wallet, chain) as { n: number }
    ).n;
  }
  return (
    prepare(db, 'SELECT coalesce(sum(txns + unsure), 0) AS n FROM transfer_days WHERE wallet = ? AND chain = ? AND day = 0').get(wallet, chain) as { n: number }
  ).n;
}
