import { isFraction, provesWhole } from '../../../../shared/service/completion-ratio.ts';
import type { Transaction } from '../../../../shared/service/schemas.ts';
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { forgetOwedSeams, owedSeamReasons, owedSeamsOf, utcSecond } from './seams.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, prepare, sql, sqlWhere } from '../../store/sql.ts';
import { newHashFilterOf, stampPair } from './hash-filter.ts';
import { FIND_PAGE, keyWriter } from './hash-levels.ts';
import { keeperOf } from './transfer-days-keeper.ts';

/** The spec's transaction members: anything else a row carries is kept in `extra`. */
const KNOWN = new Set([
  'wallet_id',
  'txn_hash',
  'block',
  'from',
  'to',
  'from_type',
  'to_type',
  'txn_fee',
  'gas_fee',
  'action_type',
  'method_hex',
  'protocol_id',
  'chain_id',
  'date',
  'details',
  'status',
]);

const COLUMNS = `wallet, chain, txn_hash, time, block, from_addr, to_addr, from_type, to_type, txn_fee, gas_fee,
  action_type, method_hex, protocol_id, status, details, extra, tokens`;

// An overlapping page or a re-polled range: updated in place, since the service may have
// corrected the row. Parameters: the columns after the key, in COLUMNS order, then id.
const UPDATE_ROW = `UPDATE transactions SET time = ?, block = ?, from_addr = ?, to_addr = ?,
    from_type = ?, to_type = ?, txn_fee = ?, gas_fee = ?, action_type = ?,
    method_hex = ?, protocol_id = ?, status = ?, details = ?, extra = ?, tokens = ?
  WHERE id = ?`;
const ADD_SYMBOL = 'INSERT OR IGNORE INTO transaction_symbols (wallet, chain, symbol) VALUES (?, ?, ?)';
/** The INSERT of `n` rows in one statement, by n (see insertRows): written once each. */
const insertTexts = new Map<number, string>();
const insertText = (n: number) => {
  let text = insertTexts.get(n);
  if (!text) insertTexts.set(n, (text = `INSERT OR FAIL INTO transactions (${COLUMNS}) VALUES ${Array(n).fill(ROW_PARAMETERS).join(', ')}`));
  return text;
};

export function transactionRecord(wallet: string, chain: string, t: Transaction) {
  const v = transactionValues(wallet, chain, t);
  return {
    wallet: v[0],
    chain: v[1],
    txn_hash: v[2],
    time: v[3],
    block: v[4],
    from_addr: v[5],
    to_addr: v[6],
    from_type: v[7],
    to_type: v[8],
    txn_fee: v[9],
    gas_fee: v[10],
    action_type: v[11],
    method_hex: v[12],
    protocol_id: v[13],
    status: v[14],
    details: v[15],
    extra: v[16],
    tokens: v[17],
  };
}

/**
 * The `tokens` column of a row (migration 9): the distinct symbols its transfers name, as a
 * JSON array in the order first named, or null when none. The timeline finds a symbol by its
 * JSON text (tokenFilter in ledger/store/timeline.ts), so this is the one writer of that text.
 */
export function tokensOf(details: Transaction['details']): string | null {
  let symbols: string[] | null = null;
  for (const d of details) {
    if (!d.symbol) continue;
    const symbol = storedText(d.symbol);
    if (!symbols?.includes(symbol)) (symbols ??= []).push(symbol);
  }
  return symbols ? JSON.stringify(symbols) : null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string as SQLite keeps it: text is UTF-8 there, so a lone surrogate (a broken symbol a
 * token contract may carry) is stored as U+FFFD, as in every other text column. JSON.stringify
 * would instead escape it, and the symbol offered in the filter list (stored text) would then
 * not find its rows: the token texts are made from this form.
 */
export function storedText(s: string): string {
  return s.replace(LONE_SURROGATE, '\ufffd');
}

/** A row's column values in COLUMNS order. */
function transactionValues(wallet: string, chain: string, t: Transaction) {
  let extra: Record<string, unknown> | null = null;
  for (const k in t) {
    if (!KNOWN.has(k)) (extra ??= {})[k] = (t as Record<string, unknown>)[k];
  }
  return [
    wallet,
    chain,
    // As stored: the page's hashes are looked up as JSON (FIND_PAGE), which would keep a lone
    // surrogate escaped where the column holds U+FFFD, and never find the row again.
    storedText(t.txn_hash.toLowerCase()),
    t.date ? Date.parse(t.date) : 0,
    t.block,
    t.from?.toLowerCase() ?? null,
    t.to?.toLowerCase() ?? null,
    t.from_type,
    t.to_type,
    t.txn_fee,
    t.gas_fee,
    t.action_type,
    t.method_hex,
    t.protocol_id,
    t.status,
    JSON.stringify(t.details),
    extra ? JSON.stringify(extra) : null,
    tokensOf(t.details),
  ] as const;
}

/** The most rows one INSERT writes (18 parameters each; SQLite allows 32,766 in a statement). */
const INSERT_ROWS = 128;
/** One row's parameters in an INSERT: positional, since binding an array costs less than looking up 18 names per row. */
const ROW_PARAMETERS = `(${COLUMNS.split(',')
  .map(() => '?')
  .join(', ')})`;

/**
 * Inserts rows (their values in COLUMNS order) and answers their ids, in order.
 *
 * Up to INSERT_ROWS rows go in one INSERT … VALUES statement. Its cursors stay open from row to
 * row, so SQLite appends to the table and the newest-first indexes without descending from the
 * root for each row, and begins and resets a statement per chunk, not per row: faster than a
 * statement a row, while statements of several hundred rows and more were slower again
 * (bench/RESULTS.md, "Round 7 (issue 16)"). Chunks are powers of two, so at most eight
 * statements are prepared.
 *
 * OR FAIL, not the default ABORT: SQLite keeps a statement journal (a copy of every page the
 * statement changes, written to a temporary file) for a statement that writes several rows and
 * may abort midway, and undoes it on an abort. Measured, that journal multiplied the bytes
 * written a row and made the chunks slower than a statement per row (same section). With
 * FAIL, a row that breaks a constraint stops the statement and keeps the rows before it: what
 * a statement per row left too. Callers undo it with the rest of the page (a savepoint, or the
 * transaction upsertTransactions opens).
 *
 * The ids: a rowid table gives each new row the largest rowid plus one, so the rows of one
 * statement get consecutive ids ending at its last insert rowid. SQLite picks at random only
 * once the largest possible rowid (2^63 − 1) is taken, far beyond what a number here holds.
 */
function insertRows(db: WritableDB, rows: ReadonlyArray<ReturnType<typeof transactionValues>>): number[] {
  const ids: number[] = [];
  let at = 0;
  while (at < rows.length) {
    let n = INSERT_ROWS;
    while (n > rows.length - at) n >>= 1;
    const insert = prepare(db, insertText(n));
    const params: unknown[] = [];
    for (let i = at; i < at + n; i++) for (const v of rows[i]!) params.push(v);
    const done = insert.run(params);
    if (done.changes !== n) throw new Error(`An insert of ${n} transactions wrote ${done.changes}.`);
    const last = Number(done.lastInsertRowid);
    for (let id = last - n + 1; id <= last; id++) ids.push(id);
    at += n;
  }
  return ids;
}

/**
 * Writes rows, in the caller's transaction (callers wrap a page and its bookkeeping in one;
 * a call outside any gets one of its own): a row already cached (same hash, wallet and
 * chain) is updated in place, any other inserted. A hash twice in one page is one
 * transaction, written twice (the later copy wins).
 */
export function upsertTransactions(db: WritableDB, wallet: string, chain: string, rows: readonly Transaction[]): number {
  if (!rows.length) return 0;
  // The write stamp must commit or roll back with the rows it stamps (hash-filter.ts).
  if (!db.inTransaction) return db.transaction(() => upsertTransactions(db, wallet, chain, rows))();
  const values = rows.map((t) => transactionValues(wallet, chain, t));
  // On the write worker's connection, the hashes certainly new are not looked up (hash-filter.ts).
  const filter = newHashFilterOf(db)?.forPage(wallet, chain) ?? null;
  const hashes = values.map((v) => v[2] as string);
  const sought = filter ? hashes.filter((h) => filter.mayHold(h)) : hashes;
  const ids = new Map<string, number>();
  if (sought.length) {
    for (const [hash, id] of prepare(db, FIND_PAGE, 'raw').iterate(JSON.stringify(sought), wallet, chain) as IterableIterator<[string, number]>)
      ids.set(hash, id);
  }
  // The first row of each hash not cached is inserted, in page order; every other row (a
  // cached hash, or a later copy of one in this page) updates its row after, in page order, so
  // the last copy wins as if each row were written in turn.
  const fresh: number[] = [];
  const taken = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const hash = hashes[i]!;
    if (!ids.has(hash) && !taken.has(hash)) {
      taken.add(hash);
      fresh.push(i);
    }
  }
  // Stamped before the first insert: a failure after it leaves a stamp no filter knows.
  const stamp = fresh.length ? stampPair(db, wallet, chain) : null;
  // The page writer's daily transfer sums (transfer-days-keeper.ts) take each row inserted.
  const keeper = keeperOf(db);
  keeper?.page(wallet, chain);
  const newHashes: string[] = [];
  const freshValues = fresh.map((i) => values[i]!);
  const newIds = insertRows(db, freshValues);
  for (let k = 0; k < fresh.length; k++) {
    const i = fresh[k]!;
    const v = values[i]!;
    newHashes.push(v[2]);
    ids.set(v[2], newIds[k]!);
    keeper?.inserted(newIds[k]!, v[0], v[1], v[3], v[14], rows[i]!.details, v[5], v[6]);
  }
  const symbols = new Set<string>();
  const update = prepare(db, UPDATE_ROW);
  for (let i = 0, k = 0; i < rows.length; i++) {
    if (fresh[k] === i) k++;
    else {
      const v = values[i]!;
      update.run([...v.slice(3), ids.get(v[2])!]);
    }
    for (const d of rows[i]!.details) if (d.symbol) symbols.add(d.symbol);
  }
  // Their keys, so the rows are found again (hash-levels.ts).
  keyWriter(db).add(newHashes, newIds);
  // The filter holds them, and knows its stamp: only once every row of the page is written.
  if (filter && stamp !== null) {
    for (const h of newHashes) filter.add(h);
    filter.stamp = stamp;
  }
  // As stored (see storedText): two raw symbols may be one stored text, written once.
  const addSymbol = prepare(db, ADD_SYMBOL);
  for (const symbol of new Set([...symbols].map(storedText))) addSymbol.run(wallet, chain, symbol);
  return rows.length;
}

// --- synced ranges ---------------------------------------------------------------------

export type RangeState = 'in_progress' | 'incomplete' | 'complete';

export interface SyncRange {
  wallet: string;
  chain: string;
  startTime: number;
  endTime: number;
  state: RangeState;
  nextPage: number | null;
  pageSize: number;
  startBlock: number | null;
  endBlock: number | null;
  completionRatio: number | null;
  rowsRead: number;
  updatedAt: string;
  /**
   * Why the range is not complete, in words: an anomaly, or a completion ratio that proves
   * nothing (none sent, or not a fraction). Null when it is complete, in progress, or waits for
   * the service's indexing (a fraction below 1, phrased by rangeReason).
   */
  reason: string | null;
}

interface RangeRow {
  wallet: string;
  chain: string;
  start_time: number;
  end_time: number;
  state: RangeState;
  next_page: number | null;
  page_size: number;
  start_block: number | null;
  end_block: number | null;
  completion_ratio: number | null;
  rows_read: number;
  updated_at: string;
  reason: string | null;
}

const rangeFromRow = (r: RangeRow): SyncRange => ({
  wallet: r.wallet,
  chain: r.chain,
  startTime: r.start_time,
  endTime: r.end_time,
  state: r.state,
  nextPage: r.next_page,
  pageSize: r.page_size,
  startBlock: r.start_block,
  endBlock: r.end_block,
  completionRatio: r.completion_ratio,
  rowsRead: r.rows_read,
  updatedAt: r.updated_at,
  reason: r.reason,
});

export function listRanges(db: ReadableDB, wallet: string, chain: string): SyncRange[] {
  return (prepare(db, 'SELECT * FROM txn_sync_ranges WHERE wallet = ? AND chain = ? ORDER BY start_time, end_time').all(wallet, chain) as RangeRow[]).map(
    rangeFromRow,
  );
}

export function saveRange(db: WritableDB, r: SyncRange): void {
  prepare(
    db,
    `INSERT INTO txn_sync_ranges (wallet, chain, start_time, end_time, state, next_page, page_size, start_block, end_block, completion_ratio, rows_read, updated_at, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (wallet, chain, start_time, end_time) DO UPDATE SET
       state = excluded.state, next_page = excluded.next_page, page_size = excluded.page_size, start_block = excluded.start_block,
       end_block = excluded.end_block, completion_ratio = excluded.completion_ratio, rows_read = excluded.rows_read, updated_at = excluded.updated_at,
       reason = excluded.reason`,
  ).run(
    r.wallet,
    r.chain,
    r.startTime,
    r.endTime,
    r.state,
    r.nextPage,
    r.pageSize,
    r.startBlock,
    r.endBlock,
    r.completionRatio,
    r.rowsRead,
    r.updatedAt,
    r.reason ?? null,
  );
}

export function deleteRange(db: WritableDB, wallet: string, chain: string, startTime: number, endTime: number): void {
  prepare(db, 'DELETE FROM txn_sync_ranges WHERE wallet = ? AND chain = ? AND start_time = ? AND end_time = ?').run(wallet, chain, startTime, endTime);
}

/**
 * Closed ranges reaching past `end` (the service's own clock, in the range's seconds) end
 * there; those that start after it are dropped. The service cannot have answered for time it
 * has not reached, so a computer whose clock runs ahead never keeps such time as read.
 */
export function capRangesAt(db: WritableDB, wallet: string, chain: string, end: number): number {
  return db.transaction(() => {
    const closed = "state != 'in_progress'";
    const dropped = prepare(db, `DELETE FROM txn_sync_ranges WHERE wallet = ? AND chain = ? AND ${closed} AND start_time > ?`).run(wallet, chain, end).changes;
    const cut = prepare(db, `UPDATE OR REPLACE txn_sync_ranges SET end_time = ? WHERE wallet = ? AND chain = ? AND ${closed} AND end_time > ?`).run(
      end,
      wallet,
      chain,
      end,
    ).changes;
    return dropped + cut;
  })();
}

/** Ranges learned under a reading the client no longer holds are read again: drop the bookkeeping (never rows). */
export function forgetAllRanges(db: WritableDB): number {
  // The history is read again whole: the seams of the old reads are read again with it.
  forgetOwedSeams(db);
  return prepare(db, 'DELETE FROM txn_sync_ranges').run().changes;
}

/**
 * The closed range `keep` was just read: what it says of its seconds supersedes what older closed
 * ranges said of them. Those it covers whole are dropped; one it overlaps keeps only the part
 * outside it (one or two ranges, with their state and why). Without the trim, a range narrowed
 * again by a later sync left the wider one it replaced standing: its reason ("indexed 87.3% from
 * …") overstated what is owed, and the contiguous run of complete history stopped at it, so every
 * sync read again a part already proved. Ranges in progress keep their page numbers: untouched.
 */
export function supersedeRanges(db: WritableDB, keep: SyncRange): void {
  const others = (
    prepare(
      db,
      `SELECT * FROM txn_sync_ranges WHERE wallet = ? AND chain = ? AND state != 'in_progress' AND start_time <= ? AND end_time >= ?
           AND NOT (start_time = ? AND end_time = ?)`,
    ).all(keep.wallet, keep.chain, keep.endTime, keep.startTime, keep.startTime, keep.endTime) as RangeRow[]
  ).map(rangeFromRow);
  for (const r of others) {
    deleteRange(db, r.wallet, r.chain, r.startTime, r.endTime);
    if (r.startTime < keep.startTime) saveRange(db, { ...r, endTime: keep.startTime - 1 });
    if (r.endTime > keep.endTime) saveRange(db, { ...r, startTime: keep.endTime + 1 });
  }
}

/**
 * The time up to which history is complete: the end of the contiguous run of complete
 * ranges from the earliest one. Null when nothing is complete yet.
 */
export function completeUntil(ranges: readonly SyncRange[]): number | null {
  let until: number | null = null;
  for (const r of [...ranges].sort((a, b) => a.startTime - b.startTime)) {
    if (r.state !== 'complete') break;
    if (until !== null && r.startTime > until + 1) break;
    until = Math.max(until ?? r.endTime, r.endTime);
  }
  return until;
}

export function countTransactions(db: ReadableDB, wallet?: string): number {
  return (prepare(db, 'SELECT count(*) AS n FROM transactions WHERE ? IS NULL OR wallet = ?').get(wallet ?? null, wallet ?? null) as { n: number }).n;
}

/** Why a range is not complete, in words for the user. */
export function rangeReason(r: SyncRange): string {
  if (r.reason) return r.reason;
  if (r.state === 'in_progress') return `a sync stopped at page ${r.nextPage ?? 1} (failed or interrupted): sync again to resume`;
  if (r.completionRatio !== null && !isFraction(r.completionRatio)) return ratioReason(r.completionRatio)!;
  if (stillIndexing(r)) {
    // Rounded down, so 99.96% never reads as 100%.
    const pct = (Math.floor(r.completionRatio! * 1000) / 10).toFixed(1);
    return `the service has indexed ${pct}% of the range asked (completion_ratio ${r.completionRatio}) from ${utcSecond(r.startTime)} UTC: what is not indexed yet may lie anywhere in it, so the range is read again whole on the next sync`;
  }
  return 'not proved complete';
}

/** Whether a range is incomplete only because the service said it has indexed part of it (a fraction below 1). */
export function stillIndexing(r: SyncRange): boolean {
  return r.reason === null && r.state !== 'in_progress' && r.completionRatio !== null && isFraction(r.completionRatio) && !provesWhole(r.completionRatio);
}

/**
 * Why the completion ratios a range's pages stated (combined, see combineRatios) cannot close
 * it, or null when they prove it whole or measure how much is indexed (a fraction below 1).
 */
export function ratioReason(ratio: number | null): string | null {
  if (ratio === null)
    return 'the service sent no completion_ratio for this range, so nothing says it has indexed all of it: the range is kept incomplete and read again';
  if (!isFraction(ratio)) return `the service reported completion_ratio ${ratio}, which is not a fraction: the range is kept incomplete and read again`;
  return null;
}

/** Why the transactions of some wallets (a wallet, a group's members; all when none given) are not complete: one line per distinct reason, with the chain. */
export function incompleteReasons(db: ReadableDB, wallets?: string | readonly string[]): string[] {
  const { rows, seams } = unprovedOf(db, wallets);
  return reasonsOf(rows, seams);
}

/** The same, for each of some wallets apart, from one read of them all (a fund's sidebar: 1,000 wallets). */
export function incompleteReasonsOf(db: ReadableDB, wallets: readonly string[]): Map<string, string[]> {
  const { rows, seams } = unprovedOf(db, wallets);
  const rowsOf = Map.groupBy(rows, (r) => r.wallet);
  const seamsOf = Map.groupBy(seams, (s) => s.wallet);
  return new Map(wallets.map((w) => [w, reasonsOf(rowsOf.get(addressKey(w)) ?? [], seamsOf.get(addressKey(w)) ?? [])]));
}

/** The ranges not complete and the seams owed of some wallets (all when none given), in wallet and chain order. */
function unprovedOf(db: ReadableDB, wallets?: string | readonly string[]) {
  const scope = wallets === undefined ? null : JSON.stringify((typeof wallets === 'string' ? [wallets] : wallets).map(addressKey));
  // Only the filter asked for is in the statement: `@scope IS NULL OR …` hid the wallet from the
  // planner, so each wallet's status read every wallet's ranges (a fund's 1,000 a second).
  const where = sqlWhere([sql`state != 'complete'`, scope !== null && sql`wallet IN (SELECT value FROM json_each(${scope}))`]);
  const rows = all<RangeRow>(db, sql`SELECT * FROM txn_sync_ranges ${where} ORDER BY wallet, chain, start_time`).map(rangeFromRow);
  // Seams owed a re-read leave the history around them unproved, though its range is read.
  return { rows, seams: owedSeamsOf(db, wallets) };
}

function reasonsOf(rows: readonly SyncRange[], seams: ReturnType<typeof owedSeamsOf>): string[] {
  const byMember = new Map<string, typeof seams>();
  for (const s of seams) byMember.set(`${s.wallet}|${s.chain}`, [...(byMember.get(`${s.wallet}|${s.chain}`) ?? []), s]);
  return [...new Set([...rows.map((r) => `${r.chain}: ${rangeReason(r)}`), ...[...byMember.values()].flatMap(owedSeamReasons)])];
}

/**
 * Why the cached transactions of some wallets over a period (Unix seconds, inclusive) are
 * not known to be complete: chains never synced, synced only up to a time, or ranges that
 * are incomplete. Empty when every (wallet, chain) is proved complete over the period.
 */
export function transactionsCoverage(
  db: ReadableDB,
  wallets: ReadonlyArray<{ address: string; chains: readonly string[]; label?: string | null }>,
  fromS: number,
  toS: number,
): string[] {
  const out: string[] = [];
  for (const w of wallets) {
    // A wallet is named by its label where it has one (what the export's notice says), else by its address.
    const who = w.label ? `${w.label} ·` : `${w.address.slice(0, 10)}…`;
    for (const chain of w.chains) {
      const ranges = listRanges(db, w.address, chain);
      // A seam owed a re-read inside the period: its rows are not proved, whatever the ranges say.
      out.push(...owedSeamReasons(owedSeamsOf(db, w.address, { fromS, toS }).filter((s) => s.chain === chain)).map((r) => `${who} ${r}`));
      const until = completeUntil(ranges);
      const first = ranges.find((r) => r.state === 'complete');
      if (!ranges.length) out.push(`${who} ${chain}: transactions never synced`);
      else if (until === null || (first && first.startTime > fromS) || until < toS) {
        const open = ranges.filter((r) => r.state !== 'complete' && r.endTime >= fromS && r.startTime <= toS);
        if (open.length) for (const r of open) out.push(`${who} ${chain}: ${rangeReason(r)}`);
        else {
          // Which end is short: a history synced from after the period's start names where it
          // begins (it had said "up to" a time past the period's end, which no new sync mends).
          const at = (sec: number) => `${new Date(sec * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
          const short: string[] = [];
          if (first && first.startTime > fromS) short.push(`from ${at(first.startTime)}`);
          if (until === null || until < toS) short.push(`up to ${until === null ? 'nothing' : at(until)}`);
          out.push(`${who} ${chain}: synced only ${short.join(' ')}`);
        }
      }
    }
  }
  return [...new Set(out)];
}

/**
 * Recent cached transactions of watched wallets (chain and hash) for the service check's logs
 * probe, which learns only from a transaction with more logs than a page of two: of the 50 newest,
 * those that moved the most tokens first (each transfer emits a log; a plain transfer or an
 * approval has one, a swap several), failed ones last (a reverted transaction emits none).
 */
export function recentTransactions(db: ReadableDB, limit: number): Array<{ chain: string; txnHash: string }> {
  return prepare(
    db,
    `SELECT chain, txnHash FROM (
         SELECT chain, txn_hash AS txnHash, time, status, details FROM transactions
         WHERE wallet IN (SELECT address FROM wallets) ORDER BY time DESC LIMIT 50)
       ORDER BY status IS 0, CASE WHEN json_valid(details) THEN json_array_length(details) ELSE 0 END DESC, time DESC LIMIT ?`,
  ).all(limit) as Array<{ chain: string; txnHash: string }>;
}

/** Whether any transaction of a wallet on a chain is cached. */
export function hasTransactions(db: ReadableDB, wallet: string, chain: string): boolean {
  return prepare(db, 'SELECT 1 FROM transactions WHERE wallet = ? AND chain = ? LIMIT 1').get(wallet, chain) !== undefined;
}

/** The time (ms) of a wallet's n-th newest cached transaction on a chain at or before `atMostMs` (1: the newest), if it has that many. */
/** Cached rows of a wallet and chain dated in [startS, endS] (Unix seconds), counted up to `atMost` (the count stops there). */
export function countStoredBetween(db: ReadableDB, wallet: string, chain: string, startS: number, endS: number, atMost: number): number {
  return prepare(db, 'SELECT count(*) FROM (SELECT 1 FROM transactions WHERE wallet = ? AND chain = ? AND time >= ? AND time <= ? LIMIT ?)', 'pluck').get(
    wallet,
    chain,
    startS * 1000,
    endS * 1000 + 999,
    atMost,
  ) as number;
}

export function nthNewestTime(db: ReadableDB, wallet: string, chain: string, atMostMs: number, n: number): number | undefined {
  return prepare(db, 'SELECT time FROM transactions WHERE wallet = ? AND chain = ? AND time <= ? ORDER BY time DESC LIMIT 1 OFFSET ?', 'pluck').get(
    wallet,
    chain,
    atMostMs,
    n - 1,
  ) as number | undefined;
}
