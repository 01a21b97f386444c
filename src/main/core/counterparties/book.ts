/**
 * Edits of the address book: one entry saved or removed, an import applied. Each edit is
 * recorded in the audit trail (store/audit.ts) inside the same transaction as the change, so
 * an edit and its record land together or not at all; an import records one edit per entry it
 * adds or changes, and writes all of them or (any failure) none.
 */
import type { Counterparty } from '../../../shared/model.ts';
import { eraseCounterparty, writeCounterparty, type CounterpartyEntry } from './store/counterparties.ts';
import type { WritableDB } from '../store/handles.ts';
import { cleanEntry, type EntryInput } from './entry.ts';

/** Adds an entry, or replaces the entry of its address whole. */
export function saveCounterparty(db: WritableDB, input: EntryInput, now = new Date()): Counterparty {
  const entry = cleanEntry(input);
  return db.transaction(() => writeCounterparty(db, entry, now))();
}

export function removeCounterparty(db: WritableDB, address: string, now = new Date()): boolean {
  return db.transaction(() => eraseCounterparty(db, address, now))();
}

/** Writes an import's entries (checked by planCounterpartyImport) in one transaction: all, or none. */
export function applyCounterpartyImport(db: WritableDB, entries: readonly CounterpartyEntry[], now = new Date()): void {
  db.transaction(() => {
    for (const e of entries) writeCounterparty(db, e, now);
  })();
}
