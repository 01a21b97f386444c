/**
 * The operations of the user's own data file: export it (a job), preview an import item by item,
 * import it in one transaction (nothing half-imported).
 */
import type { Handlers } from '../handlers.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { ExportTarget } from '../reports/index.ts';
import type { WritableDB } from '../store/db.ts';
import { applyUserData } from './store/user-data.ts';
import { startUserDataExport } from './export-job.ts';
import { readUserDataFile } from './format.ts';
import { planImport } from './plan.ts';

export type UserDataChange =
  | 'wallets.imported'
  | 'wallets.edited'
  | 'settings.edited'
  | 'counterparties.edited'
  | 'annotations.edited'
  | 'rules.imported'
  | 'alert-rules.imported'
  | 'spam.edited';

export interface UserDataContext {
  /** The cache open now and its job queue. */
  current(): { db: WritableDB; queue: JobQueue };
  target(): ExportTarget;
  /** Named in the file ("Folioscope 1.2.3"). */
  app: string;
  changed(change: UserDataChange): void;
}

type UserDataOperations = 'userData.export' | 'userData.preview' | 'userData.import';

export function userDataHandlers(c: UserDataContext): Pick<Handlers, UserDataOperations> {
  return {
    'userData.export': (input) => {
      const { db, queue } = c.current();
      return startUserDataExport(db, queue, c.target(), { passphrase: input?.passphrase, app: c.app });
    },
    'userData.preview': async ({ text, passphrase, replace }) => {
      const { doc, encrypted } = await readUserDataFile(text, passphrase);
      return planImport(c.current().db, doc, { encrypted, replace: replace ?? false }).preview;
    },
    'userData.import': async ({ text, passphrase, replace }) => {
      const { db } = c.current();
      const { doc, encrypted } = await readUserDataFile(text, passphrase);
      const { preview, writes } = planImport(db, doc, { encrypted, replace: replace ?? false });
      if (!preview.applicable) return preview;
      applyUserData(db, writes);
      // Wallets watched now change what is internal (the rules decide again); labels and groups, what closes name.
      c.changed(writes.addWallets.length ? 'wallets.imported' : 'wallets.edited');
      c.changed('settings.edited');
      if (writes.saveCounterparties.length) c.changed('counterparties.edited');
      if (writes.addAlertRules.length) c.changed('alert-rules.imported');
      if (writes.addRules.length) c.changed('rules.imported');
      if (writes.saveCategories.length || writes.setNotes.length) c.changed('annotations.edited');
      if (writes.saveSpamVerdicts.length || writes.saveSpamLists.length) c.changed('spam.edited');
      return { ...preview, applied: true };
    },
  };
}
