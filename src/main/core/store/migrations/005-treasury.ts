import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Treasury analytics (issue 17): daily transfer sums for roll-forward reconciliation, and
 * wallet groups.
 *
 * transfer_days holds, per (wallet, chain, token address, UTC day), what the successful
 * transactions moved in and out, so a year's reconciliation reads a few thousand rows
 * instead of parsing every transaction's transfers. It is derived data: built on demand by
 * the reconciliation (transactions/store/transfer-days.ts) from the transactions with id above
 * transfer_days_state.built_to_id, and dropped for a (wallet, chain) whenever one of its
 * transactions is changed or deleted (the triggers below), to be rebuilt on next use. New
 * rows need no trigger (they are picked up by id), so ingest pays nothing.
 */
export function updateToSchemaVersion5(db: Database): void {
  db.exec(`
    CREATE TABLE transfer_days (
      wallet     TEXT NOT NULL,
      chain      TEXT NOT NULL,
      token_cid  TEXT NOT NULL,                 -- lower case; '' when a transfer names none
      day        INTEGER NOT NULL,              -- UTC days since 1970 (0: the transaction had no date)
      symbol     TEXT,
      inflow     REAL NOT NULL,                 -- status 1, type 'in'
      outflow    REAL NOT NULL,                 -- status 1, type 'out'
      txns       INTEGER NOT NULL,              -- successful transactions that moved the token that day
      unreadable INTEGER NOT NULL,              -- status 1 transfers with no direction or no quantity
      unsure     INTEGER NOT NULL,              -- transfers of transactions with no status
      -- Day before token: a period is one range of the key per (wallet, chain).
      PRIMARY KEY (wallet, chain, day, token_cid)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE transfer_days_state (
      wallet       TEXT NOT NULL,
      chain        TEXT NOT NULL,
      built_to_id  INTEGER NOT NULL,            -- transactions with id <= this are summed
      PRIMARY KEY (wallet, chain)
    ) STRICT, WITHOUT ROWID;

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

    -- Wallet groups (entities): named sets of watched wallets that scope views and reports.
    CREATE TABLE wallet_groups (
      id          INTEGER PRIMARY KEY,
      name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
      created_at  TEXT NOT NULL
    ) STRICT;
    CREATE TABLE wallet_group_members (
      group_id  INTEGER NOT NULL REFERENCES wallet_groups (id) ON DELETE CASCADE,
      wallet    TEXT NOT NULL REFERENCES wallets (address) ON DELETE CASCADE,
      PRIMARY KEY (group_id, wallet)
    ) STRICT, WITHOUT ROWID;
  `);
}
