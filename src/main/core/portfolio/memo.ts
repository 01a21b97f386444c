/**
 * The last portfolio views built, kept while the cache is unchanged (issue 40 item 2). Overview,
 * Positions and Risk each ask for the view of the same scope at the same date, and a screen
 * reading `portfolio.rows` page by page asks again for each page: at 1,000 wallets × 6 chains a
 * view takes seconds to build (bench/RESULTS.md), so each of those was that wait again.
 *
 * A kept view is given again only when nothing in the file can have changed since it was built.
 * The view is a function of the cache alone (the snapshots, the wallets, the spam marks, lists
 * and history its judge reads; no clock, no setting outside the file), so "nothing changed" is
 * read from SQLite itself (`dataVersion`: this connection's row changes and other connections'
 * commits) rather than from the core's change events, which a write could miss. It is read
 * before and after a build: a view during whose build the file changed is handed out but not
 * kept. A different connection (a restore, another service's cache) has its own memo.
 *
 * Callers must not change a view they are given: it may be the one handed to the next caller.
 */
import type { Wallet } from '../../../shared/model.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import type { ReadableDB } from '../store/handles.ts';
import { dataVersion } from '../store/data-version.ts';
import { portfolioViewUnlessAborted } from './view.ts';

/** How many views are kept per cache: a screen's date and one other (the pack's two ends, a comparison). */
const KEPT = 2;

interface Kept {
  key: string;
  version: string;
  view: PortfolioView;
}

export type ViewReader = (db: ReadableDB, wallets: readonly Wallet[], date: string, signal: AbortSignal) => Promise<PortfolioView>;

/** A reader of portfolio views that keeps the last ones built per connection. */
export function memoisedViews(build: ViewReader = portfolioViewUnlessAborted): ViewReader {
  const kept = new WeakMap<ReadableDB, Kept[]>();
  return async (db, wallets, date, signal) => {
    // The scope as the view reads it: each wallet's address, label and chains, in order.
    const key = JSON.stringify([date, wallets.map((w) => [w.address, w.label, w.chains])]);
    const before = dataVersion(db);
    const list = kept.get(db) ?? [];
    const hit = list.find((k) => k.key === key && k.version === before);
    if (hit) return hit.view;
    const view = await build(db, wallets, date, signal);
    if (dataVersion(db) === before) {
      const fresh = list.filter((k) => k.key !== key && k.version === before);
      kept.set(db, [{ key, version: before, view }, ...fresh].slice(0, KEPT));
    }
    return view;
  };
}
