import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 18: notes, categories and the rules that set them (issue 28, "the books", item 2).
 *
 * - `categories`: the user's list (a name, an optional colour, the kind of flow it is for),
 *   seeded here with a default set the user may rename or remove like any other. Seeding is not
 *   a user edit, so it is not in the audit trail.
 * - `category_rules`: conditions (JSON, see core/annotations/rules.ts) and the category they set;
 *   `position` orders them, and the first rule that matches a transaction wins.
 * - `txn_annotations`: a note and a category on a transaction, keyed by (wallet, chain, txn_hash)
 *   as `transactions` stores them, never by `transactions.id`: a restated row that is removed and
 *   returns gets a new id, and a note on a transaction the service removes is kept (orphaned). The
 *   manual category and the rule's are kept apart: a manual one always wins, clearing it lets the
 *   rule's show again, and re-applying the rules never touches the manual ones.
 * - `annotation_state`: how far the rules were applied (the largest transaction id and change-log
 *   id seen), so a sync's new rows are categorised without reading the old ones again.
 *
 * Constants are copied here, never imported (a migration builds the same schema whatever live
 * code becomes).
 */
const SEEDED: ReadonlyArray<[name: string, kind: string, colour: string]> = [
  ['Payroll', 'outflow', '#7c3aed'],
  ['Grants', 'outflow', '#db2777'],
  ['Vendor payment', 'outflow', '#ea580c'],
  ['Treasury transfer', 'internal', '#2563eb'],
  ['Swap', 'any', '#0891b2'],
  ['Yield/Rewards', 'inflow', '#16a34a'],
  ['Fees', 'outflow', '#64748b'],
  ['Other', 'any', '#737373'],
];

export function updateToSchemaVersion18(db: Database): void {
  db.exec(`
    CREATE TABLE categories (
      id         INTEGER PRIMARY KEY,
      name       TEXT NOT NULL COLLATE NOCASE UNIQUE,
      colour     TEXT,               -- '#rrggbb', or null for the app's neutral
      kind       TEXT NOT NULL CHECK (kind IN ('inflow', 'outflow', 'internal', 'any')),
      position   INTEGER NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE TABLE category_rules (
      id          INTEGER PRIMARY KEY,
      position    INTEGER NOT NULL,
      name        TEXT NOT NULL,
      category_id INTEGER NOT NULL REFERENCES categories (id),
      conditions  TEXT NOT NULL,     -- JSON object of the conditions, all of which must hold
      created_at  TEXT NOT NULL
    ) STRICT;
    CREATE TABLE txn_annotations (
      wallet          TEXT NOT NULL,
      chain           TEXT NOT NULL,
      txn_hash        TEXT NOT NULL,
      note            TEXT,
      manual_category INTEGER REFERENCES categories (id) ON DELETE SET NULL,
      rule_category   INTEGER REFERENCES categories (id) ON DELETE SET NULL,
      rule_id         INTEGER,
      updated_at      TEXT NOT NULL,
      PRIMARY KEY (wallet, chain, txn_hash)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX txn_annotations_by_category ON txn_annotations (coalesce(manual_category, rule_category));
    CREATE TABLE annotation_state (
      id                 INTEGER PRIMARY KEY CHECK (id = 1),
      rules_to_txn_id    INTEGER NOT NULL,
      rules_to_change_id INTEGER NOT NULL
    ) STRICT;
    INSERT INTO annotation_state VALUES (1, 0, 0);
  `);
  const now = new Date().toISOString();
  const insert = db.prepare('INSERT INTO categories (name, kind, colour, position, created_at) VALUES (?, ?, ?, ?, ?)');
  SEEDED.forEach(([name, kind, colour], i) => insert.run(name, kind, colour, i + 1, now));
}
