/**
 * Lending positions grouped by collateral token across wallets and chains, with their headroom
 * and a stress test. Tokens group by symbol: WETH on Ethereum and on Arbitrum fall together.
 */

import { crossesAt, headroom, type Headroom, stressedHealth, tokenFallToThreshold } from '../../../shared/headroom.ts';
import type { LendingRisk } from '../../../shared/model.ts';

export interface CollateralExposure {
  position: LendingRisk;
  headroom: Headroom;
  share: number;
  /** Fall of this token that reaches the threshold; null when it cannot alone. */
  fall: number | null;
  crosses: boolean;
  stressed: number;
}

export interface CollateralGroup {
  tokenId: string;
  symbol: string;
  items: CollateralExposure[];
  crossing: number;
  crossingDebt: number;
  crossingDebtKnown: boolean;
}

export function groupByCollateral(positions: readonly LendingRisk[], stress: number): CollateralGroup[] {
  const groups = new Map<string, CollateralGroup>();
  for (const p of positions) {
    const h = headroom(p.collateralDebtRatio, p.liqThreshold);
    if (!h) continue;
    for (const c of p.collateral) {
      const key = (c.symbol ?? c.tokenId).toUpperCase();
      const g = groups.get(key) ?? { tokenId: key, symbol: c.symbol ?? c.tokenId, items: [], crossing: 0, crossingDebt: 0, crossingDebtKnown: true };
      const crosses = crossesAt(h, c.share, stress);
      g.items.push({ position: p, headroom: h, share: c.share, fall: tokenFallToThreshold(h, c.share), crosses, stressed: stressedHealth(h, c.share, stress) });
      if (crosses) {
        g.crossing++;
        if (p.debtNav === null) g.crossingDebtKnown = false;
        else g.crossingDebt += p.debtNav;
      }
      groups.set(key, g);
    }
  }
  for (const g of groups.values()) g.items.sort((a, b) => (a.fall ?? 2) - (b.fall ?? 2));
  return [...groups.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
}
