/**
 * The operations that read a scope's portfolio from the cache: positions at a date and between
 * two, the one portfolio view (cancellable), NAV over dates, exposure and risk.
 */
import { VIEW_ENDPOINT, type PositionsResult } from '../../../shared/contract.ts';
import type { Handlers, ScopeContext } from '../handlers.ts';
import { diffDates, navHistory, cachedDates, latestSnapshot } from '../positions/index.ts';
import { healthHistory } from '../analytics/index.ts';
import { exposureAt, lendingRisk, portfolioViewUnlessAborted, unlockLadder } from './view.ts';

type PortfolioOperations =
  'positions.dates' | 'positions.get' | 'positions.diff' | 'portfolio.view' | 'nav.history' | 'exposure.get' | 'risk.lending' | 'risk.health' | 'risk.unlocks';

export function portfolioHandlers(c: ScopeContext): Pick<Handlers, PortfolioOperations> {
  return {
    'positions.dates': ({ wallet: address, group }) => {
      const members = c.scopeOf(address, group) ?? c.scopeWallets(undefined, undefined).map((w) => w.address);
      return [...new Set(members.flatMap((w) => cachedDates(c.db(), w)))].sort().reverse();
    },
    'positions.get': ({ wallet: address, date, view }) => {
      const w = c.wallet(address);
      const endpoint = VIEW_ENDPOINT[view];
      return {
        wallet: w.address,
        date,
        view,
        chains: w.chains.map((chain) => ({ chain, snapshot: latestSnapshot(c.db(), endpoint, w.address, chain, date) })),
      } as PositionsResult;
    },
    'positions.diff': ({ wallet: address, from, to }) => diffDates(c.db(), address, from, to),
    'portfolio.view': ({ date, wallet: address, group }, { signal }) => portfolioViewUnlessAborted(c.db(), c.scopeWallets(address, group), date, signal),
    'nav.history': ({ group, ...scope }) => {
      const members = c.scopeOf(scope.wallet, group);
      return navHistory(c.db(), { ...scope, ...(group !== undefined && { wallets: members ?? [] }) });
    },
    'exposure.get': ({ date, group }) => exposureAt(c.db(), date, group !== undefined ? c.scopeOf(undefined, group) : undefined),
    'risk.lending': ({ date, wallet: address, group }) => lendingRisk(c.db(), date, c.scopeOf(address, group)),
    'risk.health': ({ wallet: address, chain, cid }) => healthHistory(c.db(), { wallet: c.wallet(address).address, chain, cid }),
    'risk.unlocks': ({ date, wallet: address, group }) => unlockLadder(c.db(), date, c.scopeOf(address, group)),
  };
}
