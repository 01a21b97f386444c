import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 16: the audit trail of the user's own edits (issue 28, "every edit a user makes is
 * traceable"). One row per edit of one item: wallets, groups, settings, schedules, alert
 * rules, and what the books add (counterparties, notes, categories, rules, closes and
 * reopens), with the item as it was before and after (JSON; null where it did not exist),
 * when, and which operation made it (`origin`: the contract's operation, e.g.
 * `wallets.update`, `userData.import`). A reopen's reason is kept in `reason`.
 *
 * Append-only: the triggers refuse an update, a delete, and an insert over an existing row
 * (`INSERT OR REPLACE` and `REPLACE INTO` remove the conflicting row without firing delete
 * triggers, so without the third an edit could be rewritten in place; the app only appends and
 * lets SQLite choose the id). A figure's history cannot be rewritten through SQL; a table dropped
 * or a cache deleted by hand is what backups are for.
 */
export function updateToSchemaVersion16(db: Database): void {
  db.exec(`
    CREATE TABLE audit_log (
      id       INTEGER PRIMARY KEY,
      at       TEXT NOT NULL,      -- ISO time of the edit
      entity   TEXT NOT NULL,      -- wallet, group, setting, schedule, alert-rule, counterparty, …
      item     TEXT NOT NULL,      -- which one: an address, a group's name, a setting's key, …
      action   TEXT NOT NULL,      -- create, update, delete, close, reopen
      before   TEXT,               -- JSON of the item before (null: it did not exist)
      after    TEXT,               -- JSON of the item after (null: it no longer exists)
      reason   TEXT,               -- the user's reason, where one is asked (a reopen)
      origin   TEXT NOT NULL       -- the operation that made it
    ) STRICT;
    CREATE INDEX audit_log_by_item ON audit_log (entity, item, id);
    CREATE INDEX audit_log_by_time ON audit_log (at, id);
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
    CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
      WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
      BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
  `);
}
