/**
 * The address book's operations (issue 28, item 1; docs/address-book.md): list, save, remove,
 * import a CSV (preview first, then all rows or none) and export it in the form import reads.
 */
import type { Handlers } from '../handlers.ts';
import { listCounterparties } from './store/counterparties.ts';
import type { WritableDB } from '../store/handles.ts';
import { getSettings } from '../store/settings.ts';
import { applyCounterpartyImport, removeCounterparty, saveCounterparty } from './book.ts';
import { counterpartiesCsv, planCounterpartyImport } from './csv.ts';

type CounterpartyOperations =
  'counterparties.list' | 'counterparties.save' | 'counterparties.remove' | 'counterparties.preview' | 'counterparties.import' | 'counterparties.export';

export interface BookContext {
  /** The current cache (the profile changes when the user switches service). */
  db(): WritableDB;
  /** Says the book changed (names in the timeline, the reports). */
  changed(): void;
}

export function counterpartyHandlers(c: BookContext): Pick<Handlers, CounterpartyOperations> {
  const plan = (text: string, replace: boolean | undefined) =>
    planCounterpartyImport(text, listCounterparties(c.db()), getSettings(c.db()).chains, { replace: replace ?? false });
  return {
    'counterparties.list': () => listCounterparties(c.db()),
    'counterparties.save': (input) => {
      const saved = saveCounterparty(c.db(), input);
      c.changed();
      return saved;
    },
    'counterparties.remove': ({ address }) => {
      const removed = removeCounterparty(c.db(), address);
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
