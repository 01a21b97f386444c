import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * The hash key and tail as version 7 defined them (hash-key.ts's HASH_KEY and HASH_TAIL
 * then), copied: a migration must build the same schema whatever the live code later becomes.
 */
const HASH_KEY = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, 3, 16)) END, substr(txn_hash, 1, 16))";
const HASH_TAIL = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, -16)) END, substr(txn_hash, -16))";

/**
 * Version 7: the hash lookup index (migration 6) gets the hash's last 8 bytes as a second
 * column (see HASH_TAIL in hash-key.ts). Hashes that share their first 8 bytes (a service that
 * numbers its hashes) then stay one index seek apart instead of one long run to compare, and a
 * hash prefix is still a range of the index's first column.
 */
export function updateToSchemaVersion7(db: Database): void {
  db.exec(`
    DROP INDEX transactions_by_hash_key;
    CREATE INDEX transactions_by_hash_key ON transactions (${HASH_KEY}, ${HASH_TAIL});
  `);
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) db.exec('ANALYZE transactions');
}
