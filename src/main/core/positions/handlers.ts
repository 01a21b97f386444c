/**
 * The operations that read a scope's positions from the cache: the cached dates, positions at a
 * date and between two (NAV over dates is the portfolio's: it leaves spam out).
 */
import { VIEW_ENDPOINT, type PositionsResult } from '../../../shared/contract.ts';
import type { Handlers, ScopeContext } from '../handlers.ts';
import { diffDates } from './store/diff.ts';
import { cachedDates, completeMembersAt, latestSnapshot } from './store/snapshots.ts';

type PositionOperations = 'positions.dates' | 'positions.coverage' | 'positions.get' | 'positions.diff';

export function positionHandlers(c: ScopeContext): Pick<Handlers, PositionOperations> {
  return {
    'positions.dates': ({ wallet: address, group }) => {
      const members = c.scopeOf(address, group) ?? c.scopeWallets(undefined, undefined).map((w) => w.address);
      return [...new Set(members.flatMap((w) => cachedDates(c.db(), w)))].sort().reverse();
    },
    'positions.coverage': ({ wallet: address, group, date }) => {
      const chains = c.scopeWallets(address, group).flatMap((w) => w.chains.map((chain) => [w.address, chain] as const));
      return { cached: completeMembersAt(c.db(), chains, date), of: chains.length };
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
  };
}
