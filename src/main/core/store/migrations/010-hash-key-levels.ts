import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * The hash key and tail as version 10 defined them (hash-key.ts's HASH_KEY and HASH_TAIL
 * then), copied: a migration must build the same schema whatever the live code later becomes.
 */
const HASH_KEY = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, 3, 16)) END, substr(txn_hash, 1, 16))";
const HASH_TAIL = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, -16)) END, substr(txn_hash, -16))";

/**
 * Version 10: transactions are found by hash in two tables of (key, tail, id) instead of the
 * expression index `transactions_by_hash_key` (see hash-levels.ts for why). The keys are the
 * same expressions (hash-key.ts); the existing rows' keys go to the large level, in key order.
 * The small level starts empty.
 *
 * No trigger adds the keys of new rows: a trigger made each insert ~3× slower (measured,
 * bench/RESULTS.md round 5; SQLite opens a statement journal for an INSERT that fires one).
 * The store adds them with the row (upsertTransactions). Keys of deleted rows are removed by
 * the two deleting paths (purge, clear); one left behind is harmless (see hash-levels.ts).
 */
export function updateToSchemaVersion10(db: Database): void {
  db.exec(`
    CREATE TABLE hash_keys (
      key   ANY NOT NULL,
      tail  ANY NOT NULL,
      id    INTEGER NOT NULL,
      PRIMARY KEY (key, tail, id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE hash_keys_recent (
      key   ANY NOT NULL,
      tail  ANY NOT NULL,
      id    INTEGER NOT NULL,
      PRIMARY KEY (key, tail, id)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO hash_keys (key, tail, id) SELECT ${HASH_KEY}, ${HASH_TAIL}, id FROM transactions ORDER BY 1, 2, 3;
    DROP INDEX transactions_by_hash_key;
  `);
  // Version 9 looked a page's hashes up as JSON, where a lone surrogate stays escaped while
  // the column holds U+FFFD: such a transaction was added again at each re-read. The copies
  // are one transaction: the last written (the service's latest answer) is kept. Found by
  // equal keys (neighbours in the large level), then compared in full.
  const copies = db
    .prepare(
      `DELETE FROM transactions WHERE id IN (
        SELECT a.id FROM hash_keys a
          JOIN hash_keys b ON b.key = a.key AND b.tail = a.tail AND b.id > a.id
          JOIN transactions ta ON ta.id = a.id
          JOIN transactions tb ON tb.id = b.id
        WHERE ta.txn_hash = tb.txn_hash AND ta.wallet = tb.wallet AND ta.chain = tb.chain)`,
    )
    .run().changes;
  if (copies) db.exec('DELETE FROM hash_keys WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = hash_keys.id)');
}
