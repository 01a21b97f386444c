import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 19: closed periods (issue 28, "figures that do not drift after they are published").
 * One row per close of a scope's period: the scope as it was (kind, the wallet's address or the
 * group's id and name, the member wallets), the period, the closed figures (the whole monthly
 * pack as built at close, JSON) and the SHA-256 of the data behind them (`hash`, with each
 * part's hash in `parts` and the snapshots it stood on in `basis`, so a later check can say
 * what changed). A check that finds the data changed sets `flagged_at` and `flag` (what
 * changed); the figures are never rewritten. A reopen sets `reopened_at` and its reason; a new
 * close of the same period is a new row, so the history of closes and reopens is kept. At most
 * one close of a scope's period is in force (not reopened) at a time.
 */
export function updateToSchemaVersion19(db: Database): void {
  db.exec(`
    CREATE TABLE period_closes (
      id            INTEGER PRIMARY KEY,
      scope_kind    TEXT NOT NULL,   -- all, wallet, group
      scope_wallet  TEXT,            -- the wallet's address (kind wallet)
      scope_group   INTEGER,         -- the group's id at close (kind group; the group may since be gone)
      scope_name    TEXT NOT NULL,   -- the wallet's label or address, the group's name, "All wallets", at close
      members       TEXT NOT NULL,   -- JSON array of the member wallets' addresses at close
      period_from   TEXT NOT NULL,   -- YYYY-MM-DD, the opening date
      period_to     TEXT NOT NULL,   -- YYYY-MM-DD, the closing date
      closed_at     TEXT NOT NULL,
      figures       TEXT NOT NULL,   -- JSON: the monthly pack as built at close
      hash          TEXT NOT NULL,   -- SHA-256 (hex) of the data behind the figures
      parts         TEXT NOT NULL,   -- JSON object: each hashed part's SHA-256
      basis         TEXT NOT NULL,   -- JSON array: the snapshots hashed (wallet, chain, endpoint, as_of, id, sha256)
      checked_at    TEXT,            -- the last check of the hash
      flagged_at    TEXT,            -- the first check that found the data changed
      flag          TEXT,            -- JSON: what changed (the latest check's finding)
      reopened_at   TEXT,
      reopen_reason TEXT
    ) STRICT;
    CREATE UNIQUE INDEX period_closes_in_force ON period_closes
      (scope_kind, coalesce(scope_wallet, ''), coalesce(scope_group, 0), period_from, period_to) WHERE reopened_at IS NULL;
    CREATE INDEX period_closes_by_period ON period_closes (period_from, period_to);
  `);
}
