/**
 * Position totals with the app's one null rule (docs/service.md, "float values"): a member the
 * service did not send, or sent unreadable, is unknown (null). A sum leaves unknown terms out and
 * is itself unknown only when no term is known ("—", never 0 by accident); what was left out is
 * said beside it (src/shared/quality.ts counts it). One position's own value is unknown as soon
 * as either of its members was unreadable: its known part alone would pass for the whole. Sums
 * are exact in decimal (src/shared/decimal.ts), so they do not depend on the order of the terms.
 */
import { addExact, decimalSumOrNull, exactNumber, exactSum, type ExactSum } from '../decimal.ts';
import type { Position } from '../service/schemas.ts';

type Navs = Pick<Position, 'principal_nav' | 'reward_nav' | '_invalid'>;

export interface PositionTotals {
  total: number | null;
  principal: number | null;
  reward: number | null;
  count: number;
}

export function positionTotals(positions: readonly Navs[]): PositionTotals {
  return positionTotalsOf([navSums(positions)]);
}

/** Positions' principal and reward sums kept exact: a part of a whole's (a portfolio member's), added by positionTotalsOf. */
export interface NavSums {
  principal: ExactSum;
  reward: ExactSum;
  count: number;
}

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

export function navSums(positions: readonly Navs[]): NavSums {
  return {
    principal: exactSum(positions.map((p) => p.principal_nav).filter(known)),
    reward: exactSum(positions.map((p) => p.reward_nav).filter(known)),
    count: positions.length,
  };
}

/** The totals of parts' positions together: the same figures as positionTotals over all of them. */
export function positionTotalsOf(parts: readonly NavSums[]): PositionTotals {
  const sum = (s: ExactSum) => (s.terms ? exactNumber(s) : null);
  const principal = sum(addExact(parts.map((p) => p.principal)));
  const reward = sum(addExact(parts.map((p) => p.reward)));
  return { total: decimalSumOrNull([principal, reward]), principal, reward, count: parts.reduce((n, p) => n + p.count, 0) };
}

/** What a position adds to a total: its known members (0 when none is known). */
export function knownValue(p: Navs): number {
  return decimalSumOrNull([p.principal_nav, p.reward_nav]) ?? 0;
}

/** A position's value as one figure: unknown when nothing is known or a member was sent unreadable. */
export function positionValue(p: Navs): number | null {
  if (p._invalid?.['principal_nav'] !== undefined || p._invalid?.['reward_nav'] !== undefined) return null;
  return decimalSumOrNull([p.principal_nav, p.reward_nav]);
}
