/**
 * The address book's operations (issue 28, item 1; docs/address-book.md): list, save, remove,
 * import a CSV (preview first, then all rows or none) and export it in the form import reads.
 */
import type { Handlers } from '../handlers.ts';
import { getCounterparty, listCounterparties } from './store/counterparties.ts';
import type { WritableDB } from '../store/handles.ts';
import { getSettings } from '../store/settings.ts';
import { applyCounterpartyImport, removeCounterparty, saveCounterparty } from './book.ts';
import { counterpartiesCsv, planCounterpartyImport } from './csv.ts';
import { checkVersion, lastEdit, versionsOf } from '../store/versions.ts';
import { addressKey } from '../store/address-key.ts';

type CounterpartyOperations =
  'counterparties.list' | 'counterparties.save' | 'counterparties.remove' | 'counterparties.preview' | 'counterparties.import' | 'counterparties.export';

export interface BookContext {
  /** The current cache (the profile changes when the user switches service). */
  db(): WritableDB;
  /** Says the book changed (names in the timeline, the reports). */
  changed(): void;
}

/** Refuses an edit of an entry changed since the editor loaded `expected` (store/versions.ts). */
function check(db: WritableDB, address: string, expected: number | undefined): void {
  if (expected === undefined) return;
  const key = addressKey(address.trim());
  const entry = getCounterparty(db, key);
  checkVersion(db, 'counterparty', key, entry?.name ?? key, expected, entry !== null);
}

export function counterpartyHandlers(c: BookContext): Pick<Handlers, CounterpartyOperations> {
  const plan = (text: string, replace: boolean | undefined) =>
    planCounterpartyImport(text, listCounterparties(c.db()), getSettings(c.db()).chains, { replace: replace ?? false });
  return {
    'counterparties.list': () => {
      const db = c.db();
      const versions = versionsOf(db, 'counterparty');
      return listCounterparties(db).map((e) => ({ ...e, version: versions.get(e.address) ?? 0 }));
    },
    'counterparties.save': ({ expectedVersion, ...input }) => {
      const db = c.db();
      // The check and the edit in one transaction, so nobody's edit lands between them.
      const saved = db
        .transaction(() => {
          check(db, input.address, expectedVersion);
          const entry = saveCounterparty(db, input);
          return { ...entry, version: lastEdit(db, 'counterparty', entry.address).version };
        })
        .immediate();
      c.changed();
      return saved;
    },
    'counterparties.remove': ({ address, expectedVersion }) => {
      const db = c.db();
      const removed = db
        .transaction(() => {
          check(db, address, expectedVersion);
          return removeCounterparty(db, address);
        })
        .immediate();
      if (removed) c.changed();
      return removed;
    },
    'counterparties.preview': ({ text, replace }) => plan(text, replace).preview,
    'counterparties.import': ({ text, replace }) => {
      const { preview, entries } = plan(text, replace);
      if (!preview.applicable) return preview;
      applyCounterpartyImport(c.db(), entries);
      if (entries.length) c.changed();
      return { ...preview, applied: true };
    },
    'counterparties.export': () => {
      const book = listCounterparties(c.db());
      return { csv: counterpartiesCsv(book), count: book.length };
    },
  };
}
