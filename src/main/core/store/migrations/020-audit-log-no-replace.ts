import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 20: the audit trail refuses an insert over an existing row. Version 16's triggers
 * refuse an UPDATE and a DELETE, but `INSERT OR REPLACE` (and `REPLACE INTO`) rewrites a row
 * without either: SQLite's REPLACE removes the conflicting row without firing delete triggers
 * (unless recursive triggers are on), so an edit's before and after could be rewritten in place.
 * The app only ever appends (store/audit.ts lets SQLite choose the id), so no insert it makes
 * names an id already there.
 */
export function updateToSchemaVersion20(db: Database): void {
  db.exec(`
    CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
      WHEN EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
      BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
  `);
}
