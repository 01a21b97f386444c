/**
 * A lending position's legs, read one way for the Positions and Risk views and the PDF report:
 * which leg carries its collateral/debt ratio and liquidation threshold, which legs are
 * collateral and which debt, and their values. A value that is not known makes the sum it
 * belongs to unknown: a collateral figure without one of its legs would look safer than it is.
 */
import { decimalSum } from '../decimal.ts';
import type { Position } from '../service/schemas.ts';

type Leg = Position['underlying'][number];

/** The leg carrying the position's ratio and threshold: the first non-reward leg with either. */
export function riskLeg(p: Position): Leg | undefined {
  return p.underlying.find((u) => !u.details.is_reward && (u.details.collateral_debt_ratio !== undefined || u.details.liq_threshold !== undefined));
}

/** The position's collateral/debt ratio and liquidation threshold; null each when not sent (or unreadable). */
export function lendingFigures(p: Position): { ratio: number | null; liqThreshold: number | null } {
  const leg = riskLeg(p);
  const ratio = leg?.details.collateral_debt_ratio;
  const liqThreshold = leg?.details.liq_threshold;
  return { ratio: typeof ratio === 'number' ? ratio : null, liqThreshold: typeof liqThreshold === 'number' ? liqThreshold : null };
}

const isCollateral = (u: Leg) => u.details.type === 'supply' || Array.isArray(u.details.debt_positions);
const isDebt = (u: Leg) => u.details.type === 'borrow' || Array.isArray(u.details.collateral) || (u.qty ?? 0) < 0;

export interface LendingLegs {
  collateral: Leg[];
  debt: Leg[];
  /** The collateral legs' value; null when one of them is not known. */
  collateralNav: number | null;
  /** The debt's size (the legs' values as positive amounts); null when one of them is not known. */
  debtNav: number | null;
}

export function lendingLegs(p: Position): LendingLegs {
  const legs = p.underlying.filter((u) => !u.details.is_reward);
  const collateral = legs.filter(isCollateral);
  const debt = legs.filter((u) => !isCollateral(u) && isDebt(u));
  const known = (xs: Leg[]) => xs.every((u) => u.nav !== null);
  return {
    collateral,
    debt,
    collateralNav: known(collateral) ? decimalSum(collateral.map((u) => u.nav!)) : null,
    debtNav: known(debt) ? decimalSum(debt.map((u) => Math.abs(u.nav!))) : null,
  };
}
