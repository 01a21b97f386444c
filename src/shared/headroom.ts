/**
 * Liquidation headroom from a lending position's collateral/debt ratio R and liquidation
 * threshold T alone (docs/analytics.md). The position is liquidated when the threshold-
 * weighted collateral no longer covers the debt: health H = R × T < 1.
 *
 * - collateral fall to liquidation: f = 1 − 1/(R·T)   (R·(1 − f)·T = 1), 0 when already H ≤ 1
 * - debt rise to liquidation:       g = R·T − 1        (R/(1 + g)·T = 1), 0 when already H ≤ 1
 * - a token that is only part of the collateral (share s of its value) must fall f/s; when
 *   f/s > 1 the token alone cannot bring the position to liquidation.
 */

import { RISK_MARGIN } from './portfolio/risk.ts';

export interface Headroom {
  health: number;
  /** Fraction (0..1) the whole collateral can fall before liquidation. */
  collateralFall: number;
  /** Fraction (≥ 0) the debt can rise before liquidation. */
  debtRise: number;
  /** H < 1: liquidatable now. */
  crossed: boolean;
  /** H below the app's risk margin (src/shared/portfolio/risk.ts): shown as at risk. */
  atRisk: boolean;
}

export function headroom(collateralDebtRatio: number, liqThreshold: number): Headroom | null {
  if (!Number.isFinite(collateralDebtRatio) || !Number.isFinite(liqThreshold) || collateralDebtRatio <= 0 || liqThreshold <= 0) return null;
  const health = collateralDebtRatio * liqThreshold;
  return {
    health,
    collateralFall: health <= 1 ? 0 : 1 - 1 / health,
    debtRise: health <= 1 ? 0 : health - 1,
    crossed: health < 1,
    atRisk: health < RISK_MARGIN,
  };
}

/** The fall of one collateral token (share of the collateral's value, 0 < share ≤ 1) that reaches the threshold; null if it cannot alone. */
export function tokenFallToThreshold(h: Headroom, share: number): number | null {
  if (!(share > 0)) return null;
  const f = h.collateralFall / Math.min(1, share);
  return f > 1 ? null : f;
}

/** Whether a fall of `fall` (0..1) in a token making up `share` of the collateral reaches the threshold. */
export function crossesAt(h: Headroom, share: number, fall: number): boolean {
  if (h.crossed) return true;
  const needed = tokenFallToThreshold(h, share);
  return needed !== null && fall >= needed;
}

/** The health after the token falls by `fall`: R·T·(1 − share·fall). */
export function stressedHealth(h: Headroom, share: number, fall: number): number {
  return h.health * (1 - Math.min(1, share) * fall);
}
