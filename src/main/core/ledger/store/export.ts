import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { ReadableDB } from '../../store/db.ts';
import { type CacheKey, keyOf, openConnection } from '../../store/driver.ts';
import { prepare } from '../../store/sql.ts';
import { timelineWhere, withNamedSearch, type ScopedTimelineFilter } from './timeline.ts';
import { annotationsByHash, countAnnotations, hasAnnotations } from './annotated.ts';

/**
 * The rows of a transactions export, oldest first (as a ledger reads), read on a connection
 * of the export's own.
 *
 * Why a connection of its own: better-sqlite3 refuses any write on a connection while one of
 * its statements is being iterated, and an export iterates for seconds while it waits on the
 * file it writes; on the app's connection a sync running beside it would fail to write. A
 * read-only connection also reads one snapshot (WAL) from the count to the last row, and needs
 * only a small page cache: an export reads each page about once, so a large cache would only
 * add to the export's memory, not its speed (bench/reports.ts measures both; bench/RESULTS.md,
 * "CSV export pace (issue 16 item 5, branch h16c)").
 */
export interface ExportReader {
  readonly db: ReadableDB;
  close(): void;
}

/** 4 MiB: the time index's path and the table pages of the ~20 (wallet, chain) runs it interleaves. */
const READER_CACHE_KIB = 4096;

/**
 * A read-only connection to the file behind `db`, inside one read transaction; `db` itself
 * when there is no file to open again (an in-memory cache) or it is being salvaged.
 */
export function openExportReader(db: ReadableDB): ExportReader {
  const shared = { db, close: () => undefined };
  if (db.memory || db.pragma('writable_schema', { simple: true })) return shared;
  try {
    // With the key of `db` (an encrypted cache's), applied before the first read.
    return openExportReaderAt(db.name, keyOf(db));
  } catch {
    // The file is no longer where it was opened (moved or deleted while open): the app's own
    // connection still reads it, as exports did before they had a connection of their own.
    return shared;
  }
}

/**
 * The same reader opened by the file's path and key: for a thread that has no connection to
 * start from (the export's spam judge, reports/spam-cells.ts). Throws when the file cannot be
 * opened.
 */
export function openExportReaderAt(path: string, key: CacheKey | null): ExportReader {
  // Branded where it is opened, as openDatabase does: read-only by SQLite as well as by type.
  const reader = openConnection(path, { readonly: true, fileMustExist: true }, key) as ReadableDB;
  try {
    reader.pragma(`cache_size = -${READER_CACHE_KIB}`);
    reader.pragma('busy_timeout = 5000');
    // Deferred: the snapshot is taken at the first read, and every later read sees the same.
    reader.exec('BEGIN');
  } catch (err) {
    reader.close();
    throw err;
  }
  return {
    db: reader,
    close: () => {
      if (reader.inTransaction) reader.exec('COMMIT');
      reader.close();
    },
  };
}

/** The reader's first read, which takes its snapshot (WAL: every later read of the reader sees the same). */
export function takeSnapshot(reader: ExportReader): void {
  reader.db.prepare('SELECT count(*) FROM sqlite_master').get();
}

/** Writers held off (a write lock on a side connection) until `release`. */
export interface HeldWrites {
  release(): void;
}

/**
 * Holds every writer of `db`'s file off (BEGIN IMMEDIATE on a side connection: none can commit)
 * while two readers take one snapshot (reports/spam-cells.ts); null when the lock is not had
 * within `waitMs` or the file cannot be opened again. Nothing is written: `release` rolls back.
 */
export function holdWritesOff(db: ReadableDB, waitMs: number): HeldWrites | null {
  let side;
  try {
    side = openConnection(db.name, { fileMustExist: true }, keyOf(db));
  } catch {
    return null;
  }
  try {
    side.pragma(`busy_timeout = ${waitMs}`);
    side.exec('BEGIN IMMEDIATE');
  } catch {
    side.close();
    return null;
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      try {
        side.exec('ROLLBACK');
      } finally {
        side.close();
      }
    },
  };
}

/**
 * The cached wallets no longer watched (rows stay cached when a wallet is removed without
 * purging), found by stepping through the wallet index's distinct values: a few index probes,
 * not a scan. None is the usual case: every cached row is then a watched wallet's.
 */
export function unwatchedWallets(db: ReadableDB): string[] {
  const watched = new Set(prepare(db, 'SELECT address FROM wallets', 'pluck').all() as string[]);
  const next = prepare(db, 'SELECT wallet FROM transactions WHERE wallet > ? ORDER BY wallet LIMIT 1', 'pluck');
  const unwatched: string[] = [];
  for (
    let w = prepare(db, 'SELECT min(wallet) FROM transactions', 'pluck').get() as string | null | undefined;
    typeof w === 'string';
    w = next.get(w) as string | undefined
  )
    if (!watched.has(w)) unwatched.push(w);
  return unwatched;
}

/**
 * The WHERE clause of an export: the timeline's for `filter`. An export of every watched
 * wallet without other filters (the largest) is planned apart: when every cached row
 * belongs to a watched wallet (the usual case), it needs no clause at all, which spares a
 * lookup per row; `unwatched` lists the cached wallets no longer watched (unwatchedWallets).
 */
export function exportWhere(db: ReadableDB, filter: ScopedTimelineFilter): { sql: string; params: Record<string, unknown>; unwatched: string[] | null } {
  // A search by a counterparty's name, as the timeline reads it (so the count is the timeline's).
  const where = timelineWhere(withNamedSearch(db, filter));
  if (where.sql !== timelineWhere({}).sql) return { ...where, unwatched: null };
  const unwatched = unwatchedWallets(db);
  return unwatched.length ? { ...where, unwatched } : { sql: '1', params: {}, unwatched };
}

/**
 * How many transactions an export of `filter` lists, exactly. The unfiltered export is
 * counted on the time index it walks next (the smaller one, then in the OS's cache for the
 * walk) rather than on the wallet index the filter would pick (larger, read for nothing): all
 * cached rows, less those of wallets no longer watched (bench/RESULTS.md, "CSV export pace").
 */
export function countExportTransactions(db: ReadableDB, filter: ScopedTimelineFilter): number {
  const { sql, params, unwatched } = exportWhere(db, filter);
  if (!unwatched) return prepare(db, `SELECT count(*) FROM transactions t WHERE ${sql}`, 'pluck').get(params) as number;
  const rowsOf = prepare(db, 'SELECT count(*) FROM transactions WHERE wallet = ?', 'pluck');
  return unwatched.reduce(
    (n, w) => n - (rowsOf.get(w) as number),
    prepare(db, 'SELECT count(*) FROM transactions INDEXED BY transactions_by_time', 'pluck').get() as number,
  );
}

/**
 * One exported transaction, as an array (no object per row: this runs a million times):
 * the date as ISO 8601 UTC text (null when the service sent none), then the columns in the
 * CSV's order, the fees as numbers, and the transfers as the JSON text the store wrote
 * (JSON.stringify's).
 */
export type ExportTransactionRow = [
  date: string | null,
  wallet: string,
  chain: string,
  txnHash: string,
  block: number | null,
  actionType: string | null,
  protocolId: string | null,
  methodHex: string | null,
  status: number | null,
  from: string | null,
  fromType: string | null,
  to: string | null,
  toType: string | null,
  txnFee: number | null,
  gasFee: number | null,
  details: string,
  /** The category (a manual choice, else a rule's), whether `manual` or `rule`, and the note (migration 18). */
  category: string | null,
  categorySource: 'manual' | 'rule' | null,
  note: string | null,
];

/** Annotations read into memory for an export; a larger set is joined instead (see exportTransactionRows). */
const ANNOTATIONS_IN_MEMORY = 250_000;

/** SQLite's text of a time (as exports wrote it before), for times outside the years 0001–9999. */
const SQLITE_DATE = "strftime('%Y-%m-%dT%H:%M:%fZ', ? / 1000.0, 'unixepoch')";
/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: between them toISOString writes what SQLITE_DATE does. */
const FIRST_ISO_MS = -62135596800000;
const LAST_ISO_MS = 253402300799999;

/**
 * The transactions of `filter`, oldest first, streamed one at a time. The order walks the
 * newest-first time index backwards (EXPLAIN QUERY PLAN: SCAN t USING INDEX
 * transactions_by_time), so no sort and no temporary copy, whatever the size. Dates are
 * written here rather than by SQLite's strftime, which cost more than reading the row
 * (bench/reports.ts); test/store/transaction-export.test.ts holds the two to the same text.
 */
export function* exportTransactionRows(
  db: ReadableDB,
  filter: ScopedTimelineFilter,
  options: { annotationsInMemory?: number } = {},
): Generator<ExportTransactionRow, void, undefined> {
  const inMemory = options.annotationsInMemory ?? ANNOTATIONS_IN_MEMORY;
  const { sql, params } = exportWhere(db, filter);
  // The annotations (category, its source, note). A join costs a B-tree search by the long text
  // key per row walked, several times the rest of the row's reading, so up to
  // ANNOTATIONS_IN_MEMORY of them are read first into a map by hash (cheaper a row, tens of MB
  // at most), and only a larger set is joined; none at all costs nothing (bench/RESULTS.md,
  // "Notes, categories and rules").
  const count = hasAnnotations(db) ? countAnnotations(db) : 0;
  const byHash = count > 0 && count <= inMemory ? annotationsByHash(db) : null;
  const joined = count > inMemory;
  const annotations = joined
    ? `c.name, CASE WHEN a.manual_category IS NOT NULL THEN 'manual' WHEN a.rule_category IS NOT NULL THEN 'rule' END, a.note`
    : 'NULL, NULL, NULL';
  const joins = joined
    ? `LEFT JOIN txn_annotations a ON a.wallet = t.wallet AND a.chain = t.chain AND a.txn_hash = t.txn_hash
       LEFT JOIN categories c ON c.id = coalesce(a.manual_category, a.rule_category)`
    : '';
  const rows = db
    .prepare(
      `SELECT t.time, t.wallet, t.chain, t.txn_hash, t.block, t.action_type, t.protocol_id, t.method_hex, t.status,
        t.from_addr, t.from_type, t.to_addr, t.to_type, t.txn_fee, t.gas_fee, t.details, ${annotations}
       FROM transactions t ${joins} WHERE ${sql} ORDER BY t.time, t.id`,
    )
    .raw()
    .iterate(params) as IterableIterator<unknown[]>;
  let sqliteDate: Statement | undefined; // prepared when first needed: almost never
  const date = isoDates();
  for (const r of rows) {
    const time = r[0] as number;
    if (time === 0) r[0] = null;
    else if (time >= FIRST_ISO_MS && time <= LAST_ISO_MS) r[0] = date(time);
    else r[0] = (sqliteDate ??= prepare(db, `SELECT ${SQLITE_DATE}`, 'pluck')).get(time) as string | null;
    if (byHash) {
      const found = byHash.get(r[3] as string);
      if (found) {
        // One hash may be two wallets' transactions (or, rarely, two chains'): the one of this row.
        for (const a of found)
          if (a[0] === r[1] && a[1] === r[2]) {
            r[16] = a[2];
            r[17] = a[3];
            r[18] = a[4];
          }
      }
    }
    yield r as ExportTransactionRow;
  }
}

/** What the spam judge reads of an exported transaction (reports/spam-cell.ts): its identity, ends, method, status and transfers' JSON. */
export type JudgedExportRow = [
  wallet: string,
  chain: string,
  txnHash: string,
  from: string | null,
  to: string | null,
  methodHex: string | null,
  protocolId: string | null,
  status: number | null,
  details: string,
];

/**
 * The rows of exportTransactionRows (the same clause, the same order: time, then id) with only
 * what the spam judge reads: for the export's judge in a thread of its own, which has no use for
 * the dates, fees and notes.
 */
export function* exportJudgedRows(db: ReadableDB, filter: ScopedTimelineFilter): Generator<JudgedExportRow, void, undefined> {
  const { sql, params } = exportWhere(db, filter);
  yield* db
    .prepare(
      `SELECT t.wallet, t.chain, t.txn_hash, t.from_addr, t.to_addr, t.method_hex, t.protocol_id, t.status, t.details
       FROM transactions t WHERE ${sql} ORDER BY t.time, t.id`,
    )
    .raw()
    .iterate(params) as IterableIterator<JudgedExportRow>;
}

const DAY_MS = 86_400_000;
const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * toISOString, faster for times in order: the day's text is made once per day (rows come
 * sorted by time, so a day's rows come together), the time of day from small tables. A Date
 * and its toISOString per row were a noticeable share of an export (bench/RESULTS.md, "CSV
 * export pace").
 */
function isoDates(): (time: number) => string {
  let dayStart = 0;
  let dayEnd = 0;
  let day = '';
  return (time) => {
    if (time < dayStart || time >= dayEnd) {
      dayStart = Math.floor(time / DAY_MS) * DAY_MS;
      dayEnd = dayStart + DAY_MS;
      day = new Date(dayStart).toISOString().slice(0, 11); // YYYY-MM-DDT
    }
    let ms = time - dayStart;
    const h = Math.floor(ms / 3_600_000);
    ms -= h * 3_600_000;
    const m = Math.floor(ms / 60_000);
    ms -= m * 60_000;
    const s = Math.floor(ms / 1000);
    return `${day}${PAD2[h]}:${PAD2[m]}:${PAD2[s]}.${PAD3[ms - s * 1000]}Z`;
  };
}
