import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 17: the address book (issue 28, item 1).
 *
 * One entry per address, stored in the form the transactions table compares addresses in (an
 * EVM address in lower case, every other address exactly as written), so a transaction's
 * from/to finds its name by equality. `chains` is a JSON array of the service's chain ids the
 * name holds on; an empty array means every chain. `tags` is a JSON array of text. `ours`
 * marks an address the user controls but does not watch (a cold wallet, a multisig signer);
 * watched wallets are counterparties by themselves and need no row here.
 */
export function updateToSchemaVersion17(db: Database): void {
  db.exec(`
    CREATE TABLE counterparties (
      address     TEXT PRIMARY KEY,
      name        TEXT NOT NULL,
      tags        TEXT NOT NULL DEFAULT '[]',
      ours        INTEGER NOT NULL DEFAULT 0 CHECK (ours IN (0, 1)),
      chains      TEXT NOT NULL DEFAULT '[]',
      note        TEXT NOT NULL DEFAULT '',
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    ) STRICT;
    -- The timeline's search by name walks this, then searches the addresses it found.
    CREATE INDEX counterparties_by_name ON counterparties (name COLLATE NOCASE);
  `);
}
