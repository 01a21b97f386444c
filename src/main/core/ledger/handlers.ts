/**
 * The operations that read a scope's cached transactions: the timeline's pages, its count (what
 * its CSV export holds), its days and the place of a date in it, its filter choices, and the
 * change log of what the service restated.
 * The ledger's (docs/ARCHITECTURE.md): they join the history with its notes and names.
 */
import type { TimelineFacets } from '../../../shared/contract.ts';
import type { Handlers, ScopeContext } from '../handlers.ts';
import type { TimelineRow } from '../../../shared/model.ts';
import type { ReadableDB } from '../store/handles.ts';
import { timelineFacetValues, timelinePage } from './store/timeline.ts';
import { pickOptions } from './store/options.ts';
import { countExportTransactions } from './store/export.ts';
import { timelineDays, timelinePosition } from './store/days.ts';
import { listTransactionChanges } from '../transactions/index.ts';
import { categoriesOf, hasAnnotations } from './store/annotated.ts';
import { counterpartyNamer, partiesOf } from '../counterparties/index.ts';

type LedgerOperations = 'timeline.page' | 'timeline.count' | 'timeline.days' | 'timeline.position' | 'timeline.facets' | 'pickers.options' | 'changes.list';

/**
 * `facetsCache`: the filter choices per scope, kept until transactions or wallets change (the
 * core clears it on those events): distinct protocols need a scan of every row.
 */
/** What judges a page's rows for spam (docs/spam.md): given by the core, as the spam part reads the ledger. */
export type TimelineSpam = (db: ReadableDB) => (row: TimelineRow) => NonNullable<TimelineRow['spam']>;

export function ledgerHandlers(c: ScopeContext, facetsCache: Map<string, TimelineFacets>, spamOf?: TimelineSpam): Pick<Handlers, LedgerOperations> {
  return {
    'timeline.page': ({ group, ...query }) => {
      const members = c.scopeOf(query.wallet, group);
      const page = timelinePage(c.db(), { ...query, ...(group !== undefined && { wallets: members ?? [] }) });
      // Names for both ends of each row (the address book, watched wallets): read once per page.
      const namer = counterpartyNamer(c.db());
      const judge = spamOf?.(c.db());
      for (const r of page.rows) {
        r.parties = partiesOf(namer, r);
        if (!judge) continue;
        r.spam = judge(r);
        // Spam is no control flag: a poisoner's zero-value transferFrom reads as the wallet sending to an unknown address.
        if (r.spam.spam) r.parties.toUnknown = false;
      }
      return page;
    },
    'timeline.count': ({ group, ...filter }) => {
      const members = c.scopeOf(filter.wallet, group);
      // The count the CSV export of the same filters writes (the same query counts it).
      return countExportTransactions(c.db(), { ...filter, ...(group !== undefined && { wallets: members ?? [] }) });
    },
    // The days and a date's place: the same filters as the count, in the zone of the day headings.
    'timeline.days': ({ group, zone, ...filter }) => {
      const members = c.scopeOf(filter.wallet, group);
      return timelineDays(c.db(), { ...filter, ...(group !== undefined && { wallets: members ?? [] }) }, zone);
    },
    'timeline.position': ({ group, zone, date, ...filter }) => {
      const members = c.scopeOf(filter.wallet, group);
      return timelinePosition(c.db(), { ...filter, ...(group !== undefined && { wallets: members ?? [] }) }, date, zone);
    },
    'timeline.facets': ({ wallet: address, group }) => {
      const members = c.scopeOf(address, group);
      const key = members ? members.join(',') : '*';
      let f = facetsCache.get(key);
      if (!f) {
        // Chains are the watched wallets' own: no scan needed.
        const chains = [...new Set(c.scopeWallets(address, group).flatMap((w) => w.chains))].sort();
        facetsCache.set(key, (f = { ...timelineFacetValues(c.db(), members), chains }));
      }
      return f;
    },
    'pickers.options': ({ wallet, group, ...query }) => pickOptions(c.db(), { ...query, wallets: c.scopeOf(wallet, group) }),
    'changes.list': ({ wallet: address, group, limit }) => {
      const members = c.scopeOf(address, group) ?? c.scopeWallets(undefined, undefined).map((w) => w.address);
      // Newest first, over the scope's wallets (a few hundred entries at most in practice).
      const shown = listTransactionChanges(c.db(), { limit: 5000 })
        .filter((x) => members.includes(x.wallet))
        .slice(0, limit ?? 500);
      // A note on a transaction the service removed is kept (orphaned): the log says so beside the removal.
      const removed = shown.filter((x) => x.kind === 'removed');
      if (removed.length && hasAnnotations(c.db())) {
        const notes = categoriesOf(c.db(), removed);
        for (const x of removed) {
          const note = notes.get(`${x.wallet}|${x.chain}|${x.txnHash}`)?.note;
          if (note) x.note = note;
        }
      }
      return shown;
    },
  };
}
