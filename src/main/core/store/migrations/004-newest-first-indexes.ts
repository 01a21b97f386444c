import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 4: the timeline's indexes in newest-first key order (time DESC, id DESC).
 *
 * The service pages newest first, and sync inserts in that order, so every new row is older
 * than the rows before it. In ascending indexes each row landed at the left edge of its key
 * range, where SQLite splits full pages in half: the indexes were half empty (measured: about
 * 2,000 of 4,096 bytes unused per page) and every batch rewrote twice the pages it needed. In
 * descending order the same rows are appended at the right edge, where SQLite fills pages and
 * starts new ones. The timeline reads newest first too (ORDER BY time DESC, id DESC), so it
 * walks these forward; the CSV export (oldest first) walks them backward, at the same cost.
 */
export function updateToSchemaVersion4(db: Database): void {
  db.exec(`
    DROP INDEX transactions_by_time;
    DROP INDEX transactions_by_wallet_time;
    DROP INDEX transactions_by_action_time;
    DROP INDEX transactions_by_from;
    DROP INDEX transactions_by_to;
    CREATE INDEX transactions_by_time ON transactions (time DESC, id DESC);
    CREATE INDEX transactions_by_wallet_time ON transactions (wallet, time DESC, id DESC);
    CREATE INDEX transactions_by_action_time ON transactions (action_type, time DESC, id DESC);
    CREATE INDEX transactions_by_from ON transactions (from_addr, time DESC, id DESC);
    CREATE INDEX transactions_by_to ON transactions (to_addr, time DESC, id DESC);
  `);
  // Dropping an index drops its statistics: where the cache had them, measure the new ones,
  // or the planner would guess and could sort a million rows instead of walking an index.
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) db.exec('ANALYZE transactions');
}
