/**
 * Lending risk over a scope at a date, from the portfolio view's positions: each lending
 * position's ratio and threshold (headroom is computed from those alone, src/shared/headroom.ts),
 * the legs whose figures are missing, and the members not cached (the view's).
 */
import type { LendingRisk, RiskOverview, UnlockLadder, UnlockRow } from '../../../shared/model.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import { lendingLegs, riskLeg } from '../../../shared/portfolio/lending.ts';
import type { PositionRow } from '../../../shared/portfolio/rows.ts';

/**
 * `byMember`: the view's positions by wallet and chain as the cache orders them (memberOrder),
 * then as the service listed them (not by value). The view hands them so, its members' rows in
 * that order: a sort of every row here took longer than the rest of the risk.
 */
export function lendingRiskOf(view: Pick<PortfolioView, 'date' | 'missing'>, byMember: readonly PositionRow[]): RiskOverview {
  const positions: LendingRisk[] = [];
  const unknown: RiskOverview['unknown'] = [];
  for (const { wallet, chain, position: p, ratio, liqThreshold: threshold } of byMember) {
    if (!riskLeg(p) && p.asset_type !== 'lending') continue;
    if (ratio === null || threshold === null) {
      unknown.push({ wallet, chain, name: p.name, reason: ratio === null ? 'no collateral_debt_ratio' : 'no liq_threshold' });
      continue;
    }
    const { collateral, debt, collateralNav, debtNav } = lendingLegs(p);
    positions.push({
      wallet,
      chain,
      protocolId: p.protocol_id,
      cid: p.cid,
      name: p.name,
      collateralDebtRatio: ratio,
      liqThreshold: threshold,
      // A token's share of the collateral's value; 1 when the values are not known (a conservative reading: the smallest fall).
      collateral: collateral.map((u) => ({
        tokenId: u.internal_id,
        symbol: u.symbol,
        qty: u.qty,
        nav: u.nav,
        share: collateralNav && u.nav !== null ? u.nav / collateralNav : 1,
      })),
      debt: debt.map((u) => ({ tokenId: u.internal_id, symbol: u.symbol, qty: u.qty, nav: u.nav })),
      collateralNav,
      debtNav,
    });
  }
  return { date: view.date, positions, unknown, missing: view.missing.map((m) => ({ wallet: m.wallet, chain: m.chain })) };
}

/** Locked tokens whose unlock time is on or after the view's date, soonest first (`byMember` as lendingRiskOf's). */
export function unlocksOf(view: Pick<PortfolioView, 'date' | 'missing'>, byMember: readonly PositionRow[]): UnlockLadder {
  const unlocks: UnlockRow[] = [];
  for (const { wallet, chain, position: p } of byMember)
    for (const u of p.underlying) {
      const at = u.details['unlock_time'];
      if (typeof at !== 'string' || at.slice(0, 10) < view.date) continue;
      const vp = u.details['voting_power'];
      unlocks.push({
        wallet,
        chain,
        protocolId: p.protocol_id,
        position: p.name,
        tokenId: u.internal_id,
        symbol: u.symbol,
        unlockTime: at,
        qty: u.qty,
        nav: u.nav,
        votingPower: typeof vp === 'number' ? vp : null,
      });
    }
  unlocks.sort((a, b) => a.unlockTime.localeCompare(b.unlockTime) || a.wallet.localeCompare(b.wallet));
  return { date: view.date, unlocks, missing: view.missing.map((m) => ({ wallet: m.wallet, chain: m.chain })) };
}

/** Wallet, then chain, by code units as the cache's ORDER BY has them (a stable sort keeps the rest). */
export function memberOrder(a: { wallet: string; chain: string }, b: { wallet: string; chain: string }): number {
  const byte = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return byte(a.wallet, b.wallet) || byte(a.chain, b.chain);
}
