import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 8: the timeline's two walking indexes,
 * all rows by time and one wallet's rows by time, also carry the columns the timeline filters
 * on (chain, action type, status, protocol), after their key.
 *
 * A filtered page walks one of these indexes newest first until it has 100 matches. With the
 * filter columns only in the table, every row walked cost a seek into the table (rows of ~400
 * bytes, so a page read each): 100 failed transactions (3 % of rows) or one wallet's swaps on
 * one chain holding USDC walked 3,000–7,000 rows that way, 7–25 ms. SQLite tests the terms an
 * index covers before it seeks the row (a deferred seek), so the walk now reads index pages
 * only and seeks just the rows that match. The cost is bytes, not B-trees: measured at 1M rows,
 * the wallet index 68 → 81 MiB and the time index 21 → ~35 MiB, no extra insert per row.
 * The key order is unchanged, so every query that walked them still does.
 */
export function updateToSchemaVersion8(db: Database): void {
  db.exec(`
    DROP INDEX transactions_by_time;
    DROP INDEX transactions_by_wallet_time;
    CREATE INDEX transactions_by_time ON transactions (time DESC, id DESC, chain, action_type, status, protocol_id);
    CREATE INDEX transactions_by_wallet_time ON transactions (wallet, time DESC, id DESC, chain, action_type, status, protocol_id);
  `);
  // As in migration 4: dropping an index drops its statistics; re-measure where there were some.
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) db.exec('ANALYZE transactions');
}
