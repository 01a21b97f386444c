import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * The hash key as version 6 defined it (hash-key.ts's HASH_KEY then), copied: a migration
 * must build the same schema whatever the live code later becomes.
 */
const HASH_KEY = "coalesce(CASE WHEN substr(txn_hash, 1, 2) = '0x' THEN unhex(substr(txn_hash, 3, 16)) END, substr(txn_hash, 1, 16))";

/**
 * Version 6: transactions are found by an 8-byte key of their hash instead of a unique
 * index on (txn_hash, wallet, chain) text.
 *
 * That index held ~140 bytes per row (a 66-character hash, the wallet, the chain): 132 MiB
 * at 1M rows, twice the page cache, in random key order, so every insert read a page from
 * disk and every commit rewrote most of the index (measured: ingest at 16 % of a bare INSERT,
 * timeline pages stalled for seconds during a whale sync). The key (see hash-key.ts) is the
 * first 8 bytes of the hash: ~14 bytes per row, ~20 MiB at 1M rows, which stays cached.
 *
 * The key is not unique (one hash for two watched wallets, or two hashes sharing 8 bytes):
 * the store's upsert finds a row by key and then compares the full hash, wallet and chain, so
 * a collision can never merge two transactions. Only the store inserts transactions.
 *
 * SQLite cannot drop a table constraint, so the table is rebuilt (ids kept, so the token
 * index and the transfer sums stay valid), with its indexes and triggers (004, 005). migrate()
 * runs this with foreign keys off, as SQLite's procedure for rebuilding a table requires, and
 * checks them before committing.
 */
export function updateToSchemaVersion6(db: Database): void {
  db.exec(`
    CREATE TABLE transactions_new (
      id           INTEGER PRIMARY KEY,
      wallet       TEXT NOT NULL,
      chain        TEXT NOT NULL,
      txn_hash     TEXT NOT NULL,
      time         INTEGER NOT NULL,            -- Unix ms of date (0 when the service sent none)
      block        INTEGER,
      from_addr    TEXT,
      to_addr      TEXT,
      from_type    TEXT,
      to_type      TEXT,
      txn_fee      REAL,
      gas_fee      REAL,
      action_type  TEXT,
      method_hex   TEXT,
      protocol_id  TEXT,
      status       INTEGER,
      details      TEXT NOT NULL,               -- JSON array of transfers
      extra        TEXT                         -- members the spec does not list (JSON), if any
    ) STRICT;
    INSERT INTO transactions_new SELECT id, wallet, chain, txn_hash, time, block, from_addr, to_addr, from_type, to_type, txn_fee, gas_fee,
      action_type, method_hex, protocol_id, status, details, extra FROM transactions ORDER BY id;
    DROP TABLE transactions;
    ALTER TABLE transactions_new RENAME TO transactions;

    -- Lookup by hash (the upsert, hash search): see hash-key.ts.
    CREATE INDEX transactions_by_hash_key ON transactions (${HASH_KEY});
    -- As in migration 4.
    CREATE INDEX transactions_by_time ON transactions (time DESC, id DESC);
    CREATE INDEX transactions_by_wallet_time ON transactions (wallet, time DESC, id DESC);
    CREATE INDEX transactions_by_action_time ON transactions (action_type, time DESC, id DESC);
    CREATE INDEX transactions_by_from ON transactions (from_addr, time DESC, id DESC);
    CREATE INDEX transactions_by_to ON transactions (to_addr, time DESC, id DESC);
    -- As in migration 5.
    CREATE TRIGGER transfer_days_stale_on_update AFTER UPDATE OF time, status, details, wallet, chain ON transactions
      WHEN OLD.time IS NOT NEW.time OR OLD.status IS NOT NEW.status OR OLD.details IS NOT NEW.details
        OR OLD.wallet IS NOT NEW.wallet OR OLD.chain IS NOT NEW.chain
      BEGIN
        DELETE FROM transfer_days_state WHERE (wallet = OLD.wallet AND chain = OLD.chain) OR (wallet = NEW.wallet AND chain = NEW.chain);
      END;
    CREATE TRIGGER transfer_days_stale_on_delete AFTER DELETE ON transactions
      BEGIN
        DELETE FROM transfer_days_state WHERE wallet = OLD.wallet AND chain = OLD.chain;
      END;
  `);
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()) db.exec('ANALYZE transactions');
}
