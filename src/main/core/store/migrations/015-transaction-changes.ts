import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 15: the change log of cached transactions (issue 30, "correct over time").
 *
 * A live service restates what it answered: a transaction indexed late inside a range already
 * read, a reorg that removes a transaction or changes its block, status, fee or transfers. The
 * client re-reads a recent window on every sync (transactions/recent.ts); what differs from the cache
 * is applied and recorded here, one row per transaction and change, never silently:
 * - `late`: a transaction the service now returns inside a range the cache already held whole;
 * - `changed`: `fields` names what differs (block, status, txn_fee, gas_fee, details), with the
 *   stored values before and the service's after;
 * - `removed`: the service no longer returns it for a range it re-read (and for its own second,
 *   asked again): the row leaves `transactions` (no ghost), its last stored values kept in
 *   `before`.
 * `request` says which request showed it (query and the service's request id).
 */
export function updateToSchemaVersion15(db: Database): void {
  db.exec(`
    CREATE TABLE transaction_changes (
      id        INTEGER PRIMARY KEY,
      wallet    TEXT NOT NULL,
      chain     TEXT NOT NULL,
      txn_hash  TEXT NOT NULL,
      time      INTEGER NOT NULL,   -- Unix ms of the transaction (as transactions.time)
      kind      TEXT NOT NULL CHECK (kind IN ('late', 'changed', 'removed')),
      fields    TEXT,               -- JSON array of the changed columns (kind 'changed')
      before    TEXT,               -- JSON object of the stored values (null for 'late')
      after     TEXT,               -- JSON object of the service's values (null for 'removed')
      seen_at   TEXT NOT NULL,      -- ISO time the client saw the change
      request   TEXT NOT NULL       -- the request that showed it
    ) STRICT;
    CREATE INDEX transaction_changes_by_wallet ON transaction_changes (wallet, chain, time DESC);
    CREATE INDEX transaction_changes_by_hash ON transaction_changes (txn_hash);
  `);
}
