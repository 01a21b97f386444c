import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 23: spam (issue 38, items 2 and 3; docs/spam.md).
 *
 * - `spam_verdicts`: the user's verdicts, which win over the rules and the lists: a token (its
 *   chain and contract), a contract on every chain, or an address (a counterparty), called
 *   `spam` or `not-spam`, for one wallet or every wallet. '' stands for "every chain" and "every
 *   wallet" (a NULL would let the UNIQUE key hold the same verdict twice). Targets are stored as
 *   the transactions hold addresses: an EVM one in lower case, any other as written.
 * - `spam_lists`: the lists the user imported, by name, each kept whole as checked JSON (a list is
 *   small, read whole by every judge) with what it holds counted.
 */
export function updateToSchemaVersion23(db: Database): void {
  db.exec(`
    CREATE TABLE spam_verdicts (
      id          INTEGER PRIMARY KEY,
      kind        TEXT NOT NULL CHECK (kind IN ('token', 'contract', 'address')),
      chain       TEXT NOT NULL DEFAULT '',     -- a token's chain; '' for a contract or an address
      target      TEXT NOT NULL,                -- the contract or the address
      wallet      TEXT NOT NULL DEFAULT '',     -- the wallet it holds for; '' every wallet
      verdict     TEXT NOT NULL CHECK (verdict IN ('spam', 'not-spam')),
      note        TEXT NOT NULL DEFAULT '',
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL,
      CHECK ((kind = 'token') = (chain != '')),
      UNIQUE (kind, chain, target, wallet)
    ) STRICT;
    CREATE TABLE spam_lists (
      name         TEXT PRIMARY KEY,
      imported_at  TEXT NOT NULL,
      sha256       TEXT NOT NULL,               -- of the file's text as imported
      list         TEXT NOT NULL,               -- the list as checked (JSON, docs/spam.md)
      tokens       INTEGER NOT NULL,
      addresses    INTEGER NOT NULL,
      patterns     INTEGER NOT NULL
    ) STRICT;
  `);
}
