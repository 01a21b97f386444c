import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 25: each wallet's dealings with its counterparties (issue 38, the spam judge's known
 * counterparties: transactions/store/party-dealings.ts), kept as the daily transfer sums are
 * (migration 5) and under the same state: the rows of a (wallet, chain) with id up to
 * transfer_days_state.built_to_id are in both tables, the state is dropped by the same triggers
 * when one of its transactions changes or goes (and by one more when its ends change), and the
 * same writers bring both forward. An
 * export judging a million rows then reads a few hundred rows a wallet instead of two passes of
 * json_each over its history.
 *
 * Per (wallet, chain): the addresses it paid a quantity above zero (dir 'out': when first), and
 * per address and token the transfers in above zero (dir 'in': the largest symbol and quantity,
 * when first). The token, symbol and quantity are kept as SQLite's ->> reads them (ANY in a
 * STRICT table stores a value as given: a quantity written as text stays text, as the aggregate
 * over the transactions sees it), the token's absence apart (cid_null), so the key is a plain one.
 */
export function updateToSchemaVersion25(db: Database): void {
  db.exec(`
    CREATE TABLE party_dealings (
      wallet    TEXT NOT NULL,
      chain     TEXT NOT NULL,
      dir       TEXT NOT NULL CHECK (dir IN ('in', 'out')),
      address   TEXT NOT NULL,
      cid_null  INTEGER NOT NULL,               -- 1: the transfers named no token (cid is then '')
      cid       ANY NOT NULL,
      symbol    ANY,
      max_qty   ANY,
      first     INTEGER NOT NULL,
      PRIMARY KEY (wallet, chain, dir, address, cid_null, cid)
    ) STRICT, WITHOUT ROWID;
    -- A watermark of the sums made before this table says nothing of the dealings: dropped, so the
    -- next refresh rebuilds both from the rows (until then readers aggregate the rows directly).
    DELETE FROM transfer_days_state;
    -- The dealings read the ends too, which the sums' triggers (migration 5) do not watch: a row
    -- restated with another sender or recipient drops the watermark as a change of its transfers does.
    CREATE TRIGGER party_dealings_stale_on_ends AFTER UPDATE OF from_addr, to_addr ON transactions
      WHEN OLD.from_addr IS NOT NEW.from_addr OR OLD.to_addr IS NOT NEW.to_addr
      BEGIN
        DELETE FROM transfer_days_state WHERE (wallet = OLD.wallet AND chain = OLD.chain) OR (wallet = NEW.wallet AND chain = NEW.chain);
      END;
  `);
}
