import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 24: why an alert was resolved, in words (`alerts.resolution`), when something other than
 * its condition clearing took it back: the poisoning guard's alert once the lookalike is a
 * counterparty the user vouched for, or once the payment is no longer cached (docs/spam.md, "The
 * guard's alert"); the guard's own failure once it ran again. NULL: a rule's condition cleared (or
 * an alert resolved before this version).
 */
export function updateToSchemaVersion24(db: Database): void {
  db.exec(`ALTER TABLE alerts ADD COLUMN resolution TEXT;`);
}
