import type { ReadableDB } from '../db.ts';
import { listWallets } from '../wallets.ts';
import { flaggedCount, freshnessOf, latestSnapshots } from './latest.ts';
import { decimalSum } from '../../../../shared/decimal.ts';
import type { NavScope } from '../../../../shared/contract.ts';
import type { NavPoint, NavSeries } from '../../../../shared/model.ts';
export type { NavPoint, NavSeries };

// Exact in decimal: NAV totals are sums of the service's 2-decimal figures, written to CSV as they are.
const add = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : decimalSum([a, b]));

/**
 * NAV per date from cached snapshots only: per wallet, and in total (wallet omitted)
 * summed over every watched wallet and chain. A date where some chain is not cached says
 * so (chainsCached < chainsWatched) rather than pretending the sum is whole.
 */
export function navHistory(db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }): NavSeries {
  const rows = latestSnapshots(db, 'allPositions', {
    ...(scope.wallet && { wallet: scope.wallet }),
    ...(scope.from && { from: scope.from }),
    ...(scope.to && { to: scope.to }),
  });
  // A wallet group's members (`wallets`), one wallet, or all.
  const wallets = listWallets(db).filter(
    (w) => (!scope.wallet || w.address === scope.wallet.toLowerCase()) && (!scope.wallets || scope.wallets.includes(w.address)),
  );
  const watched = new Map(wallets.map((w) => [w.address, new Set(w.chains)]));
  const chainsWatched = [...watched.values()].reduce((n, s) => n + s.size, 0);
  const byDate = new Map<string, NavPoint>();
  for (const r of rows) {
    if (!watched.get(r.wallet)?.has(r.chain)) continue;
    const p = byDate.get(r.as_of) ?? {
      date: r.as_of,
      totalNav: null,
      principalNav: null,
      rewardNav: null,
      chainsCached: 0,
      chainsWatched,
      fetchedAt: r.fetched_at,
      flagged: 0,
    };
    p.totalNav = add(p.totalNav, r.total_nav);
    p.principalNav = add(p.principalNav, r.principal_nav);
    p.rewardNav = add(p.rewardNav, r.reward_nav);
    p.chainsCached++;
    p.flagged += flaggedCount(r.quality);
    if (r.fetched_at > p.fetchedAt) p.fetchedAt = r.fetched_at;
    byDate.set(r.as_of, p);
  }
  return { wallet: scope.wallet?.toLowerCase() ?? null, points: [...byDate.values()], freshness: freshnessOf(rows) };
}
