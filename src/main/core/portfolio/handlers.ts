/**
 * The operations that read a scope's portfolio at a date: the one portfolio view (cancellable),
 * what a screen shows of it (its summary, a page of its rows),
 * and the parts of it a view asks for alone: exposure, lending risk, the unlock ladder.
 */
import type { Handlers, ScopeContext } from '../handlers.ts';
import { portfolioNavUnlessAborted } from './nav.ts';
import { portfolioChange } from './change.ts';
import { rowsPage, summaryOf } from './summary.ts';
import { memoisedViews } from './memo.ts';

type PortfolioOperations =
  'portfolio.view' | 'portfolio.change' | 'portfolio.summary' | 'portfolio.rows' | 'nav.history' | 'exposure.get' | 'risk.lending' | 'risk.unlocks';

export function portfolioHandlers(c: ScopeContext): Pick<Handlers, PortfolioOperations> {
  // The views of a scope at a date, kept while the cache is unchanged (memo.ts): Overview,
  // Positions and Risk of one scope and date, and each page of its rows, build it once.
  const views = memoisedViews();
  return {
    'portfolio.view': ({ date, wallet: address, group }, { signal }) => views(c.db(), c.scopeWallets(address, group), date, signal),
    'portfolio.change': ({ date, since, wallet: address, group }, { signal }) =>
      portfolioChange(c.db(), c.scopeWallets(address, group), date, since, signal, views),
    // A screen's part of the same view (summary.ts): built whole, as the view always is, and cut here, so only what is shown crosses the contract.
    'portfolio.summary': async ({ date, wallet: address, group, rows, members, wallets, spam }, { signal }) =>
      summaryOf(await views(c.db(), c.scopeWallets(address, group), date, signal), { rows, members, wallets, spam }),
    'portfolio.rows': async ({ date, wallet: address, group, ...query }, { signal }) =>
      rowsPage(await views(c.db(), c.scopeWallets(address, group), date, signal), query),
    // In turns, cancellable (nav.ts): Overview asks for it after its totals, and leaving the screen stops it.
    'nav.history': ({ group, ...scope }, { signal }) => {
      const members = c.scopeOf(scope.wallet, group);
      return portfolioNavUnlessAborted(c.db(), { ...scope, ...(group !== undefined && { wallets: members ?? [] }) }, signal);
    },
    // The view's own parts, from the same kept view (memo.ts) and cancellable as it is: the Risk
    // screen asks for its lending and its unlocks one after the other, and the view is built once.
    'exposure.get': async ({ date, group }, { signal }) => (await views(c.db(), c.scopeWallets(undefined, group), date, signal)).exposure,
    'risk.lending': async ({ date, wallet: address, group }, { signal }) => (await views(c.db(), c.scopeWallets(address, group), date, signal)).risk,
    'risk.unlocks': async ({ date, wallet: address, group }, { signal }) => (await views(c.db(), c.scopeWallets(address, group), date, signal)).unlocks,
  };
}
