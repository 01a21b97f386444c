import type { ReadableDB, WritableDB } from './db.ts';
import type { LogSet } from '../../../shared/model.ts';

/** Stored logs of one transaction (what the timeline's detail shows), or 0. */
export function countStoredLogs(db: ReadableDB, chain: string, txnHash: string): number {
  return (db.prepare('SELECT count(*) AS n FROM txn_logs WHERE chain = ? AND txn_hash = ?').get(chain, txnHash.toLowerCase()) as { n: number }).n;
}

/** Replaces the cached logs of a transaction with a complete new read, in one transaction. */
export function saveLogSet(db: WritableDB, set: LogSet): void {
  const hash = set.txnHash.toLowerCase();
  db.transaction(() => {
    db.prepare('DELETE FROM txn_log_sets WHERE chain = ? AND txn_hash = ?').run(set.chain, hash);
    db.prepare('INSERT INTO txn_log_sets (chain, txn_hash, total, header, request_id, fetched_at, complete, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      set.chain,
      hash,
      set.total,
      set.header ? JSON.stringify(set.header) : null,
      set.requestId,
      set.fetchedAt,
      set.complete ? 1 : 0,
      set.note,
    );
    // Keyed by position in the read, not by log_index: a service whose log_index restarts on
    // every page would otherwise overwrite earlier pages' logs.
    const insert = db.prepare('INSERT INTO txn_logs (chain, txn_hash, position, log_index, topics, data) VALUES (?, ?, ?, ?, ?, ?)');
    set.logs.forEach((l, i) => insert.run(set.chain, hash, i, l.log_index ?? null, JSON.stringify(l.topics), l.data));
  })();
}

export function getLogSet(db: ReadableDB, chain: string, txnHash: string): LogSet | null {
  const hash = txnHash.toLowerCase();
  const head = db.prepare('SELECT * FROM txn_log_sets WHERE chain = ? AND txn_hash = ?').get(chain, hash) as
    { total: number; header: string | null; request_id: string | null; fetched_at: string; complete: number; note: string | null } | undefined;
  if (!head) return null;
  const logs = (
    db.prepare('SELECT log_index, topics, data FROM txn_logs WHERE chain = ? AND txn_hash = ? ORDER BY position').all(chain, hash) as Array<{
      log_index: number;
      topics: string;
      data: string | null;
    }>
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
