import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { all, get, run, sql, value } from '../../store/sql.ts';
import type { LogSet } from '../../../../shared/model.ts';
import type { Log } from '../../../../shared/service/schemas.ts';

/** Stored logs of one transaction (what the timeline's detail shows), or 0. */
export function countStoredLogs(db: ReadableDB, chain: string, txnHash: string): number {
  return value<number>(db, sql`SELECT count(*) FROM txn_logs WHERE chain = ${chain} AND txn_hash = ${txnHash.toLowerCase()}`)!;
}

/** Replaces the cached logs of a transaction with a complete new read, in one transaction. */
export function saveLogSet(db: WritableDB, set: LogSet): void {
  const hash = set.txnHash.toLowerCase();
  db.transaction(() => {
    replaceLogSetHead(db, set);
    // Keyed by position in the read, not by log_index: a service whose log_index restarts on
    // every page would otherwise overwrite earlier pages' logs.
    set.logs.forEach((l, i) =>
      run(
        db,
        sql`INSERT INTO txn_logs (chain, txn_hash, position, log_index, topics, data)
            VALUES (${set.chain}, ${hash}, ${i}, ${l.log_index ?? null}, ${JSON.stringify(l.topics)}, ${l.data})`,
      ),
    );
  })();
}

function replaceLogSetHead(db: WritableDB, set: Omit<LogSet, 'logs'>): void {
  const hash = set.txnHash.toLowerCase();
  run(db, sql`DELETE FROM txn_log_sets WHERE chain = ${set.chain} AND txn_hash = ${hash}`);
  run(
    db,
    sql`INSERT INTO txn_log_sets (chain, txn_hash, total, header, request_id, fetched_at, complete, note)
        VALUES (${set.chain}, ${hash}, ${set.total}, ${set.header ? JSON.stringify(set.header) : null}, ${set.requestId}, ${set.fetchedAt}, ${set.complete ? 1 : 0}, ${set.note})`,
  );
}

// --- a read in progress ----------------------------------------------------------------
//
// A logs read stores its pages as they come, so the process never holds more than the page in
// hand, into a staging table of this connection's temporary database (SQLite's temp store: a
// file of its own, deleted when the connection closes, never part of the cache file). The read
// replaces the cached set only once it is over (commitLogRead, one transaction): a read that
// fails or is cancelled leaves the cached set as it was, and a crash leaves nothing behind.

const STAGING = `CREATE TEMP TABLE IF NOT EXISTS txn_log_reads (
  chain      TEXT NOT NULL,
  txn_hash   TEXT NOT NULL,
  position   INTEGER NOT NULL,
  log_index  INTEGER,
  topics     TEXT NOT NULL,
  data       TEXT,
  PRIMARY KEY (chain, txn_hash, position)
) STRICT, WITHOUT ROWID`;

/** Starts a logs read of a transaction: nothing staged for it yet. */
export function beginLogRead(db: WritableDB, chain: string, txnHash: string): void {
  db.exec(STAGING);
  run(db, sql`DELETE FROM temp.txn_log_reads WHERE chain = ${chain} AND txn_hash = ${txnHash.toLowerCase()}`);
}

/** Stages one page of a read: its logs at positions `from`, `from + 1`, … of the read. */
export function stageLogs(db: WritableDB, chain: string, txnHash: string, from: number, logs: readonly Log[]): void {
  const hash = txnHash.toLowerCase();
  db.transaction(() => {
    logs.forEach((l, i) =>
      run(
        db,
        sql`INSERT INTO temp.txn_log_reads (chain, txn_hash, position, log_index, topics, data)
            VALUES (${chain}, ${hash}, ${from + i}, ${l.log_index ?? null}, ${JSON.stringify(l.topics)}, ${l.data})`,
      ),
    );
  })();
}

/** Replaces the cached logs of a transaction with the read staged for it, in one transaction. */
export function commitLogRead(db: WritableDB, set: Omit<LogSet, 'logs'>): void {
  const hash = set.txnHash.toLowerCase();
  db.transaction(() => {
    replaceLogSetHead(db, set);
    run(
      db,
      sql`INSERT INTO txn_logs (chain, txn_hash, position, log_index, topics, data)
          SELECT chain, txn_hash, position, log_index, topics, data FROM temp.txn_log_reads WHERE chain = ${set.chain} AND txn_hash = ${hash} ORDER BY position`,
    );
    run(db, sql`DELETE FROM temp.txn_log_reads WHERE chain = ${set.chain} AND txn_hash = ${hash}`);
  })();
}

/** Drops what a read staged (it failed, was cancelled, or is committed). */
export function discardLogRead(db: WritableDB, chain: string, txnHash: string): void {
  db.exec(STAGING);
  run(db, sql`DELETE FROM temp.txn_log_reads WHERE chain = ${chain} AND txn_hash = ${txnHash.toLowerCase()}`);
}

/** Marks a cached set incomplete, saying why. */
export function markLogSetIncomplete(db: WritableDB, chain: string, txnHash: string, note: string): void {
  run(db, sql`UPDATE txn_log_sets SET complete = 0, note = ${note} WHERE chain = ${chain} AND txn_hash = ${txnHash.toLowerCase()}`);
}

export function getLogSet(db: ReadableDB, chain: string, txnHash: string): LogSet | null {
  const hash = txnHash.toLowerCase();
  const head = get<{ total: number; header: string | null; request_id: string | null; fetched_at: string; complete: number; note: string | null }>(
    db,
    sql`SELECT * FROM txn_log_sets WHERE chain = ${chain} AND txn_hash = ${hash}`,
  );
  if (!head) return null;
  const logs = all<{ log_index: number; topics: string; data: string | null }>(
    db,
    sql`SELECT log_index, topics, data FROM txn_logs WHERE chain = ${chain} AND txn_hash = ${hash} ORDER BY position`,
  ).map((r) => ({ log_index: r.log_index, topics: JSON.parse(r.topics) as string[], data: r.data }));
  return {
    chain,
    txnHash: hash,
    total: head.total,
    header: head.header ? (JSON.parse(head.header) as LogSet['header']) : null,
    logs,
    requestId: head.request_id,
    fetchedAt: head.fetched_at,
    complete: head.complete === 1,
    note: head.note,
  };
}
