/** Liquidity pools: the largest slippage the service quotes for a pool's legs (0.01 = 1%). */
import type { LiquidityPosition } from '../service/schemas.ts';

/** Null when no leg quotes one: unknown, not 0. */
export function maxSlippage(p: LiquidityPosition): number | null {
  const slips = p.underlying.map((u) => u.details.slippage).filter((s): s is number => typeof s === 'number');
  return slips.length ? Math.max(...slips) : null;
}
