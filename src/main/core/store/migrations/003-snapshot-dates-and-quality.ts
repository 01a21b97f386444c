import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 3 (numbered for its branch; see the MIGRATIONS array): beside each snapshot, the
 * date exactly as the service returned it (`service_date`; `as_of` is the day it is filed
 * under, which a zone offset never moves), and the values the service sent that could not
 * be read (`quality`: a JSON array of {path, value}; NULL when every value was readable).
 * Older rows keep NULL in both: they were stored only when every value was readable.
 */
export function updateToSchemaVersion3(db: Database): void {
  db.exec(`
    ALTER TABLE snapshots ADD COLUMN service_date TEXT;
    ALTER TABLE snapshots ADD COLUMN quality TEXT;
  `);
}
