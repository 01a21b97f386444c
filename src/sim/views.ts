import type { LiquidityDetails, LiquidityPosition, Position, UnderlyingDetails, UnderlyingGroup } from '../shared/service/wire.ts';
import { type Leg, type SimPosition } from './positions.ts';
import { round } from './random.ts';

/**
 * The three position endpoints' views of one model. Each derives its figures from the
 * same legs, so NAV per token, per position and in total agree across endpoints.
 */

const isReward = (l: Leg) => l.kind === 'reward';

/** Ids of the legs on the other side of a lending position: debts for a supply, collateral for a borrow. */
function links(p: SimPosition, l: Leg): { debts?: string[]; collateral?: string[] } {
  if (l.kind === 'supply') return { debts: p.legs.filter((x) => x.kind === 'borrow').map((x) => x.internalId) };
  if (l.kind === 'borrow') return { collateral: p.legs.filter((x) => x.kind === 'supply').map((x) => x.internalId) };
  return {};
}

export function allPositionsView(chainId: string, positions: SimPosition[]): Position[] {
  return positions.map((p) => ({
    asset_type: p.assetType,
    chain_id: chainId,
    protocol_id: p.protocolId,
    cid: p.cid,
    name: p.name,
    symbol: p.symbol,
    principal_nav: round(
      p.legs.filter((l) => !isReward(l)).reduce((s, l) => s + l.nav, 0),
      2,
    ),
    reward_nav: round(
      p.legs.filter(isReward).reduce((s, l) => s + l.nav, 0),
      2,
    ),
    underlying: p.legs.map((l) => {
      const details: UnderlyingDetails = { is_reward: isReward(l), type: l.kind };
      const { debts, collateral } = links(p, l);
      if (debts) details.debt_positions = debts;
      if (collateral) details.collateral = collateral;
      if (p.liqThreshold !== undefined && (l.kind === 'supply' || l.kind === 'borrow')) {
        details.liq_threshold = p.liqThreshold;
        details.collateral_debt_ratio = p.collateralDebtRatio!;
      }
      if (l.unlockTime !== undefined) details.unlock_time = l.unlockTime;
      if (l.votingPower !== undefined) details.voting_power = l.votingPower;
      if (l.exchangeRate !== undefined) details.exchange_rate = l.exchangeRate;
      return { internal_id: l.internalId, name: l.name, symbol: l.symbol, qty: l.qty, nav: l.nav, details };
    }),
  }));
}

export function byUnderlyingView(chainId: string, positions: SimPosition[]): UnderlyingGroup[] {
  const groups = new Map<string, UnderlyingGroup>();
  for (const p of positions) {
    for (const l of p.legs) {
      let g = groups.get(l.internalId);
      if (!g) {
        g = { token_id: l.internalId, token_name: l.name, token_symbol: l.symbol, token_cid: l.tokenCid, total_qty: 0, total_nav: 0, breakdown: [] };
        groups.set(l.internalId, g);
      }
      g.breakdown.push({
        chain_id: chainId,
        pos_id: p.cid,
        asset_type: p.assetType,
        cid: p.cid,
        protocol_id: p.protocolId,
        name: p.name,
        qty: l.qty,
        nav: l.nav,
      });
    }
  }
  // Totals from the breakdown, rounded once, so they match the per-position figures.
  for (const g of groups.values()) {
    g.total_qty = round(
      g.breakdown.reduce((s, b) => s + b.qty, 0),
      6,
    );
    g.total_nav = round(
      g.breakdown.reduce((s, b) => s + b.nav, 0),
      2,
    );
  }
  return [...groups.values()].sort((a, b) => b.total_nav - a.total_nav);
}

export function liquidityView(chainId: string, positions: SimPosition[]): LiquidityPosition[] {
  return positions.map((p) => ({
    asset_type: p.assetType,
    chain_id: chainId,
    protocol_id: p.protocolId,
    cid: p.cid,
    principal_token_name: p.name,
    principal_token_symbol: p.symbol,
    principal_qty: p.principalQty,
    principal_total_supply: p.principalTotalSupply,
    principal_pct_ownership: pct(p.principalQty, p.principalTotalSupply),
    underlying: p.legs.map((l) => {
      const details: LiquidityDetails = { is_reward: isReward(l) };
      const { debts, collateral } = links(p, l);
      if (debts) details.debt_positions = debts;
      if (collateral) details.collaterals = collateral;
      if (p.liqThreshold !== undefined && (l.kind === 'supply' || l.kind === 'borrow')) details.liq_threshold = p.liqThreshold;
      if (l.slippage !== undefined) details.slippage = l.slippage;
      if (l.unlockTime !== undefined) details.unlocked_time = l.unlockTime;
      if (l.votingPower !== undefined) details.voting_power = l.votingPower;
      if (l.exchangeRate !== undefined) details.exchange_rate = l.exchangeRate;
      return { name: l.name, symbol: l.symbol, qty: l.qty, total_supply: l.totalSupply, pct_ownership: pct(Math.abs(l.qty), l.totalSupply), details };
    }),
  }));
}

function pct(part: number, whole: number): number {
  return whole === 0 ? 0 : round((100 * part) / whole, 6);
}

/** The liquidity endpoint's `asset_type` filter: one type or a comma-separated list. */
export function filterByAssetType(positions: SimPosition[], assetType: string | null): SimPosition[] {
  if (!assetType) return positions;
  const wanted = new Set(assetType.split(',').map((s) => s.trim()));
  return positions.filter((p) => wanted.has(p.assetType));
}
