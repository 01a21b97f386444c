import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 1: watched wallets, immutable position snapshots, transactions with the
 * ranges already synced, transaction logs, and settings. The access key is never here.
 */
export function updateToSchemaVersion1(db: Database): void {
  db.exec(`
    CREATE TABLE wallets (
      address     TEXT PRIMARY KEY,
      label       TEXT NOT NULL DEFAULT '',
      tags        TEXT NOT NULL DEFAULT '[]',   -- JSON array of strings
      chains      TEXT NOT NULL,                -- JSON array of chain ids
      created_at  TEXT NOT NULL
    ) STRICT;

    -- One row per response of a position endpoint, as received. Never updated: a refresh
    -- adds a newer row, and reads take the newest fetch per (wallet, chain, endpoint, as_of).
    CREATE TABLE snapshots (
      id              INTEGER PRIMARY KEY,
      endpoint        TEXT NOT NULL CHECK (endpoint IN ('allPositions', 'positionsByUnderlying', 'liquidityAnalysis')),
      wallet          TEXT NOT NULL,
      chain           TEXT NOT NULL,
      requested_date  TEXT,                     -- YYYY-MM-DD asked for; NULL = the latest
      as_of           TEXT NOT NULL,            -- YYYY-MM-DD the service answered for
      request_id      TEXT,
      fetched_at      TEXT NOT NULL,
      sha256          TEXT NOT NULL,
      raw             TEXT NOT NULL,            -- the body exactly as received
      data            TEXT NOT NULL,            -- the normalised snapshot (JSON)
      total_nav       REAL,
      principal_nav   REAL,
      reward_nav      REAL,
      position_count  INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX snapshots_by_key ON snapshots (wallet, chain, endpoint, as_of, fetched_at);
    CREATE INDEX snapshots_by_date ON snapshots (endpoint, as_of);
    CREATE TRIGGER snapshots_are_immutable BEFORE UPDATE ON snapshots
      BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END;

    CREATE TABLE transactions (
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
      extra        TEXT,                        -- members the spec does not list (JSON), if any
      -- Hash first: the key also serves lookups and prefix search by hash.
      UNIQUE (txn_hash, wallet, chain)
    ) STRICT;
    -- Timeline order is (time DESC, id DESC); these serve it for all wallets, one wallet
    -- and by action type, so a page is an index walk at any depth. Other filters (chain,
    -- protocol, status, token) are checked along the walk. Every index here costs ingest
    -- speed: bench/timeline.ts and bench/ingest.ts measure the trade.
    CREATE INDEX transactions_by_time ON transactions (time, id);
    CREATE INDEX transactions_by_wallet_time ON transactions (wallet, time, id);
    CREATE INDEX transactions_by_action_time ON transactions (action_type, time, id);
    -- Search by address walks these in time order (one branch each for from and to).
    CREATE INDEX transactions_by_from ON transactions (from_addr, time, id);
    CREATE INDEX transactions_by_to ON transactions (to_addr, time, id);

    -- Tokens a transaction moved, for the token filter.
    CREATE TABLE transaction_tokens (
      txn_id     INTEGER NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
      symbol     TEXT NOT NULL,
      token_cid  TEXT,
      PRIMARY KEY (txn_id, symbol)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX transaction_tokens_by_symbol ON transaction_tokens (symbol, txn_id);

    -- Time ranges requested from txn_by_wallet (Unix seconds, bounds inclusive).
    -- state: 'in_progress' (next_page is where to resume), 'incomplete' (read to the end,
    -- but the service had not indexed all of it), 'complete'.
    CREATE TABLE txn_sync_ranges (
      wallet            TEXT NOT NULL,
      chain             TEXT NOT NULL,
      start_time        INTEGER NOT NULL,
      end_time          INTEGER NOT NULL,
      state             TEXT NOT NULL CHECK (state IN ('in_progress', 'incomplete', 'complete')),
      next_page         INTEGER,
      page_size         INTEGER NOT NULL,
      start_block       INTEGER,
      end_block         INTEGER,
      completion_ratio  REAL,
      rows_read         INTEGER NOT NULL DEFAULT 0,
      updated_at        TEXT NOT NULL,
      PRIMARY KEY (wallet, chain, start_time, end_time)
    ) STRICT;

    CREATE TABLE txn_log_sets (
      chain       TEXT NOT NULL,
      txn_hash    TEXT NOT NULL,
      total       INTEGER NOT NULL,
      header      TEXT,                          -- the transaction part of the response (JSON)
      request_id  TEXT,
      fetched_at  TEXT NOT NULL,
      PRIMARY KEY (chain, txn_hash)
    ) STRICT;

    CREATE TABLE txn_logs (
      chain      TEXT NOT NULL,
      txn_hash   TEXT NOT NULL,
      log_index  INTEGER NOT NULL,
      topics     TEXT NOT NULL,                  -- JSON array
      data       TEXT,
      PRIMARY KEY (chain, txn_hash, log_index),
      FOREIGN KEY (chain, txn_hash) REFERENCES txn_log_sets (chain, txn_hash) ON DELETE CASCADE
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE settings (
      key    TEXT PRIMARY KEY,
      value  TEXT NOT NULL                        -- JSON
    ) STRICT;
  `);
}
