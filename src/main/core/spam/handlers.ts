/**
 * Spam's operations (docs/spam.md): the user's verdicts listed, marked and cleared; the lists
 * loaded, imported and removed; one token or transaction explained.
 */
import type { SpamListInfo } from '../../../shared/spam.ts';
import type { Handlers } from '../handlers.ts';
import { addressKey } from '../store/address-key.ts';
import type { WritableDB } from '../store/handles.ts';
import type { Wallet } from '../../../shared/model.ts';
import { explainToken, explainTransaction } from './explain.ts';
import { defaultList, DEFAULT_LIST_NAME, listCounts } from './lists.ts';
import { listStoredSpamLists } from './store/lists.ts';
import { listSpamMarks, markItem } from './store/verdicts.ts';
import { versionsOf } from '../store/versions.ts';
import { clearSpam, importSpamList, markSpam, removeSpamList } from './verdicts.ts';

type SpamOperations = 'spam.verdicts' | 'spam.mark' | 'spam.clear' | 'spam.lists' | 'spam.importList' | 'spam.removeList' | 'spam.explain';

export interface SpamContext {
  /** The current cache (the profile changes when the user switches service). */
  db(): WritableDB;
  /** A watched wallet, or a ValidationError naming it. */
  wallet(address: string): Wallet;
  /** Says spam changed (what the views show as spam). */
  changed(): void;
}

/** The loaded lists: the user's, newest first, then the shipped one (the order a token's entry is looked up in). */
export function spamLists(db: WritableDB): SpamListInfo[] {
  const versions = versionsOf(db, 'spam-list');
  return [
    ...listStoredSpamLists(db).map((l) => ({
      version: versions.get(l.name) ?? 0,
      name: l.name,
      source: 'user' as const,
      importedAt: l.importedAt,
      tokens: l.tokens,
      addresses: l.addresses,
      symbolPatterns: l.patterns,
    })),
    { name: DEFAULT_LIST_NAME, source: 'default', importedAt: null, ...listCounts(defaultList()) },
  ];
}

export function spamHandlers(c: SpamContext): Pick<Handlers, SpamOperations> {
  return {
    'spam.verdicts': (input) => {
      const versions = versionsOf(c.db(), 'spam-verdict');
      return listSpamMarks(c.db(), input?.wallet === undefined ? undefined : addressKey(input.wallet)).map((m) => ({
        ...m,
        version: versions.get(markItem(m)) ?? 0,
      }));
    },
    'spam.mark': ({ wallet, ...input }) => {
      // A verdict for one wallet is for a watched one (a data file may carry one for a wallet not watched here).
      const saved = markSpam(c.db(), { ...input, wallet: wallet === undefined ? null : c.wallet(wallet).address });
      c.changed();
      return saved;
    },
    'spam.clear': (input) => {
      const cleared = clearSpam(c.db(), input);
      if (cleared) c.changed();
      return cleared;
    },
    'spam.lists': () => spamLists(c.db()),
    'spam.importList': ({ text, name, expectedVersion }) => {
      const info = importSpamList(c.db(), text, name, undefined, expectedVersion);
      c.changed();
      return info;
    },
    'spam.removeList': ({ name, expectedVersion }) => {
      const removed = removeSpamList(c.db(), name, undefined, expectedVersion);
      if (removed) c.changed();
      return removed;
    },
    'spam.explain': ({ wallet, chain, txnHash, token, date }) => {
      const w = c.wallet(wallet).address;
      return txnHash !== undefined ? explainTransaction(c.db(), { wallet: w, chain, txnHash }) : explainToken(c.db(), { wallet: w, chain, cid: token!, date });
    },
  };
}
