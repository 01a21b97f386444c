import BetterSqlite3 from 'better-sqlite3';
import type { Database } from '../db.ts';
import { timelineWhere, type TimelineFilter } from './timeline.ts';

/**
 * The rows of a transactions export, oldest first (as a ledger reads), read on a connection
 * of the export's own.
 *
 * Why a connection of its own: better-sqlite3 refuses any write on a connection while one of
 * its statements is being iterated, and an export iterates for seconds while it waits on the
 * file it writes; on the app's connection a sync running beside it would fail to write. A
 * read-only connection also reads one snapshot (WAL) from the count to the last row, and needs
 * only a small page cache: an export reads each page about once, so the app's 64 MiB cache
 * would only add to the export's memory, not its speed (bench/reports.ts measures both).
 */
export interface ExportReader {
  readonly db: Database;
  close(): void;
}

/** 4 MiB: the time index's path and the table pages of the ~20 (wallet, chain) runs it interleaves. */
const READER_CACHE_KIB = 4096;

/**
 * A read-only connection to the file behind `db`, inside one read transaction; `db` itself
 * when there is no file to open again (an in-memory cache) or it is being salvaged.
 */
export function openExportReader(db: Database): ExportReader {
  const shared = { db, close: () => undefined };
  if (db.memory || db.pragma('writable_schema', { simple: true })) return shared;
  let reader: Database;
  try {
    reader = new BetterSqlite3(db.name, { readonly: true, fileMustExist: true });
  } catch {
    // The file is no longer where it was opened (moved or deleted while open): the app's own
    // connection still reads it, as exports did before they had a connection of their own.
    return shared;
  }
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

/** How many transactions an export of `filter` lists (an index-only count). */
export function countExportTransactions(db: Database, filter: TimelineFilter): number {
  const { sql, params } = timelineWhere(filter);
  return (db.prepare(`SELECT count(*) AS n FROM transactions t WHERE ${sql}`).get(params) as { n: number }).n;
}

/**
 * One exported transaction, as an array (no object per row: this runs a million times):
 * the date as ISO 8601 UTC text (SQLite formats it as toISOString would, sparing a Date per
 * row; null when the service sent none), then the columns in the CSV's order, the fees as
 * numbers, and the transfers as the JSON text the store wrote (JSON.stringify's).
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
];

/**
 * The transactions of `filter`, oldest first, streamed one at a time. The order walks the
 * newest-first time index backwards (EXPLAIN QUERY PLAN: SCAN USING INDEX transactions_by_time),
 * so no sort and no temporary copy, whatever the size.
 */
export function exportTransactionRows(db: Database, filter: TimelineFilter): IterableIterator<ExportTransactionRow> {
  const { sql, params } = timelineWhere(filter);
  return db
    .prepare(
      `SELECT CASE WHEN t.time = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', t.time / 1000.0, 'unixepoch') END, t.wallet, t.chain, t.txn_hash,
        t.block, t.action_type, t.protocol_id, t.method_hex, t.status, t.from_addr, t.from_type, t.to_addr, t.to_type, t.txn_fee, t.gas_fee, t.details
       FROM transactions t WHERE ${sql} ORDER BY t.time, t.id`,
    )
    .raw()
    .iterate(params) as IterableIterator<ExportTransactionRow>;
}
