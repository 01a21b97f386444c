/**
 * The operations that read a scope's portfolio at a date: the one portfolio view (cancellable),
 * and the parts of it a view asks for alone: exposure, lending risk, the unlock ladder.
 */
import type { Handlers, ScopeContext } from '../handlers.ts';
import { portfolioNav } from './nav.ts';
import { portfolioChange } from './change.ts';
import { exposureAt, lendingRisk, portfolioViewUnlessAborted, unlockLadder } from './view.ts';

type PortfolioOperations = 'portfolio.view' | 'portfolio.change' | 'nav.history' | 'exposure.get' | 'risk.lending' | 'risk.unlocks';

export function portfolioHandlers(c: ScopeContext): Pick<Handlers, PortfolioOperations> {
  return {
    'portfolio.view': ({ date, wallet: address, group }, { signal }) => portfolioViewUnlessAborted(c.db(), c.scopeWallets(address, group), date, signal),
    'portfolio.change': ({ date, since, wallet: address, group }, { signal }) => portfolioChange(c.db(), c.scopeWallets(address, group), date, since, signal),
    'nav.history': ({ group, ...scope }) => {
      const members = c.scopeOf(scope.wallet, group);
      return portfolioNav(c.db(), { ...scope, ...(group !== undefined && { wallets: members ?? [] }) });
    },
    'exposure.get': ({ date, group }) => exposureAt(c.db(), date, group !== undefined ? c.scopeOf(undefined, group) : undefined),
    'risk.lending': ({ date, wallet: address, group }) => lendingRisk(c.db(), date, c.scopeOf(address, group)),
    'risk.unlocks': ({ date, wallet: address, group }) => unlockLadder(c.db(), date, c.scopeOf(address, group)),
  };
}
