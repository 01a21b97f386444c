/**
 * Edits of the address book: one entry saved or removed, an import applied. Each edit is
 * recorded in the audit trail (store/audit.ts) inside the same transaction as the change, so
 * an edit and its record land together or not at all; an import records one edit per entry it
 * adds or changes, and writes all of them or (any failure) none.
 */
import type { Counterparty } from '../../../shared/model.ts';
import { recordEdit } from '../store/audit.ts';
import { deleteCounterparty, getCounterparty, putCounterparty } from '../store/counterparties.ts';
import type { WritableDB } from '../store/handles.ts';
import { cleanEntry, type EntryInput } from './entry.ts';

type Entry = Omit<Counterparty, 'createdAt' | 'updatedAt'>;

/** What the audit trail keeps of an entry: what the user set, no dates. */
const audited = (c: Counterparty | null): Entry | null => c && { address: c.address, name: c.name, tags: c.tags, ours: c.ours, chains: c.chains, note: c.note };

function write(db: WritableDB, entry: Entry, now: Date): Counterparty {
  const before = getCounterparty(db, entry.address);
  const at = now.toISOString();
  const saved: Counterparty = { ...entry, createdAt: before?.createdAt ?? at, updatedAt: at };
  putCounterparty(db, saved);
  recordEdit(db, { entity: 'counterparty', key: entry.address, action: before ? 'update' : 'create', before: audited(before), after: audited(saved) }, now);
  return saved;
}

/** Adds an entry, or replaces the entry of its address whole. */
export function saveCounterparty(db: WritableDB, input: EntryInput, now = new Date()): Counterparty {
  const entry = cleanEntry(input);
  return db.transaction(() => write(db, entry, now))();
}

export function removeCounterparty(db: WritableDB, address: string, now = new Date()): boolean {
  return db.transaction(() => {
    const before = getCounterparty(db, address);
    if (!before) return false;
    deleteCounterparty(db, before.address);
    recordEdit(db, { entity: 'counterparty', key: before.address, action: 'delete', before: audited(before), after: null }, now);
    return true;
  })();
}

/** Writes an import's entries (checked by planCounterpartyImport) in one transaction: all, or none. */
export function applyCounterpartyImport(db: WritableDB, entries: readonly Entry[], now = new Date()): void {
  db.transaction(() => {
    for (const e of entries) write(db, e, now);
  })();
}
