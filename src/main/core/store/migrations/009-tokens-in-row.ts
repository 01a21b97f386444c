import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 9: the symbols of the tokens a transaction moved are a column of its row (`tokens`,
 * a JSON array of distinct symbols, NULL when none) instead of rows of their own in
 * transaction_tokens.
 *
 * That table cost every ingested row two more B-tree insertions per token (its primary key
 * and its by-symbol index, ~1.2 tokens a row) and a foreign-key check each: 2.2 µs of a
 * row's ~18 µs at 1M rows (bench/RESULTS.md, issue 16). The timeline's token filter read it
 * with one seek per row walked; the symbols now ride on the two walking indexes (after their
 * key, like the filter columns of migration 8), so a token filter walks index pages alone.
 *
 * The filter lists need the symbols without reading every row: `transaction_symbols` keeps
 * the distinct symbols per wallet and chain, written with each page (a handful of rows per
 * page, not one per transaction). It is a list of choices: a symbol whose last transaction
 * was corrected away may stay listed until the wallet is removed or the cache cleared, and
 * then finds nothing.
 *
 * The column is filled here from the old table in JavaScript, with JSON.stringify: the
 * timeline looks a symbol up by its JSON text (see timeline.ts), so the text must be exactly
 * what the store writes for new rows.
 */
export function updateToSchemaVersion9(db: Database): void {
  db.exec(`
    ALTER TABLE transactions ADD COLUMN tokens TEXT;
    CREATE TABLE transaction_symbols (
      wallet  TEXT NOT NULL,
      chain   TEXT NOT NULL,
      symbol  TEXT NOT NULL,
      PRIMARY KEY (wallet, chain, symbol)
    ) STRICT, WITHOUT ROWID;
    INSERT OR IGNORE INTO transaction_symbols (wallet, chain, symbol)
      SELECT DISTINCT t.wallet, t.chain, tt.symbol FROM transaction_tokens tt JOIN transactions t ON t.id = tt.txn_id;
  `);
  // In chunks of whole transactions by id (a connection cannot write while it iterates), so a
  // million-row cache never holds all its symbols in memory at once.
  const chunk = db.prepare('SELECT txn_id, json_group_array(symbol) FROM transaction_tokens WHERE txn_id > ? GROUP BY txn_id ORDER BY txn_id LIMIT 20000');
  const set = db.prepare('UPDATE transactions SET tokens = ? WHERE id = ?');
  for (let after = 0; ;) {
    const rows = chunk.raw().all(after) as Array<[number, string]>;
    if (!rows.length) break;
    // Written again with JSON.stringify: the exact text the store writes for new rows (the
    // symbols came out of SQLite text, so they hold no lone surrogate; see storedText).
    for (const [id, symbols] of rows) set.run(JSON.stringify(JSON.parse(symbols) as string[]), id);
    after = rows[rows.length - 1]![0];
  }
  db.exec(`
    DROP TABLE transaction_tokens;
    DROP INDEX transactions_by_time;
    DROP INDEX transactions_by_wallet_time;
    CREATE INDEX transactions_by_time ON transactions (time DESC, id DESC, chain, action_type, status, protocol_id, tokens);
    CREATE INDEX transactions_by_wallet_time ON transactions (wallet, time DESC, id DESC, chain, action_type, status, protocol_id, tokens);
  `);
  // As in migration 4: dropping an index drops its statistics; re-measure where there were some.
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) db.exec('ANALYZE transactions');
}
