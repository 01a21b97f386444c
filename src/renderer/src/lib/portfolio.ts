import type { PositionsResult } from '../../../shared/contract.ts';
import type { Position, UnderlyingGroup, LiquidityPosition } from '../../../shared/service/schemas.ts';
import { isAtRisk } from '../../../shared/risk.ts';

/** Pure helpers over cached snapshots, shared by the Overview and Positions views. */

export interface PositionRow {
  key: string;
  wallet: string;
  chain: string;
  position: Position;
  total: number | null;
  /** Lending: collateral/debt ratio and liquidation threshold, from the supply leg. */
  ratio: number | null;
  liqThreshold: number | null;
  atRisk: boolean;
}

export function positionRows(results: PositionsResult[]): PositionRow[] {
  const rows: PositionRow[] = [];
  for (const r of results) {
    for (const { chain, snapshot } of r.chains) {
      for (const snap of (snapshot?.data ?? []) as Array<{ positions: Position[] }>) {
        for (const p of snap.positions) {
          const leg = p.underlying.find((u) => u.details.collateral_debt_ratio !== undefined);
          const ratio = leg?.details.collateral_debt_ratio ?? null;
          const liqThreshold = leg?.details.liq_threshold ?? null;
          rows.push({
            key: `${r.wallet}:${chain}:${p.cid ?? p.name}`,
            wallet: r.wallet,
            chain,
            position: p,
            // A member the service sent unreadable makes the position's value unknown, not its other part.
            total:
              (p.principal_nav === null && p.reward_nav === null) || p._invalid?.['principal_nav'] !== undefined || p._invalid?.['reward_nav'] !== undefined
                ? null
                : (p.principal_nav ?? 0) + (p.reward_nav ?? 0),
            ratio,
            liqThreshold,
            atRisk: isAtRisk(ratio, liqThreshold),
          });
        }
      }
    }
  }
  return rows;
}

export interface Totals {
  total: number | null;
  principal: number | null;
  reward: number | null;
  count: number;
}

export function totals(rows: PositionRow[]): Totals {
  const sum = (f: (r: PositionRow) => number | null) => {
    const vals = rows.map(f).filter((v): v is number => v !== null);
    return vals.length ? vals.reduce((a, b) => a + b, 0) : null;
  };
  const principal = sum((r) => r.position.principal_nav);
  const reward = sum((r) => r.position.reward_nav);
  // Principal plus rewards, as the stored totals are: a position whose value is unknown still adds its known part.
  return { total: principal === null && reward === null ? null : (principal ?? 0) + (reward ?? 0), principal, reward, count: rows.length };
}

export type AllocationKey = 'asset_type' | 'protocol_id' | 'chain';

/** Value by a dimension, largest first; negative totals (net debt) are kept out of shares. */
export function allocation(rows: PositionRow[], by: AllocationKey): Array<{ label: string; value: number }> {
  const map = new Map<string, number>();
  for (const r of rows) {
    const k = (by === 'chain' ? r.chain : r.position[by]) ?? 'unknown';
    map.set(k, (map.get(k) ?? 0) + (r.total ?? 0));
  }
  return [...map.entries()]
    .map(([label, value]) => ({ label, value }))
    .filter((x) => x.value > 0)
    .sort((a, b) => b.value - a.value);
}

export interface UnderlyingRow {
  key: string;
  wallet: string;
  chain: string;
  group: UnderlyingGroup;
}

export function underlyingRows(results: PositionsResult[]): UnderlyingRow[] {
  const rows: UnderlyingRow[] = [];
  for (const r of results)
    for (const { chain, snapshot } of r.chains)
      for (const snap of (snapshot?.data ?? []) as Array<{ positions: UnderlyingGroup[] }>)
        for (const g of snap.positions) rows.push({ key: `${r.wallet}:${chain}:${g.token_id}`, wallet: r.wallet, chain, group: g });
  return rows;
}

export interface LiquidityRow {
  key: string;
  wallet: string;
  chain: string;
  position: LiquidityPosition;
  maxSlippage: number | null;
  atRisk: boolean;
}

/** Liquidity rows; risk comes from the same position's lending figures in the all-positions view. */
export function liquidityRows(results: PositionsResult[], risk: Map<string, boolean>): LiquidityRow[] {
  const rows: LiquidityRow[] = [];
  for (const r of results)
    for (const { chain, snapshot } of r.chains)
      for (const snap of (snapshot?.data ?? []) as Array<{ positions: LiquidityPosition[] }>)
        for (const p of snap.positions) {
          const slips = p.underlying.map((u) => u.details.slippage).filter((s): s is number => typeof s === 'number');
          const key = `${r.wallet}:${chain}:${p.cid ?? p.principal_token_name}`;
          rows.push({ key, wallet: r.wallet, chain, position: p, maxSlippage: slips.length ? Math.max(...slips) : null, atRisk: risk.get(key) ?? false });
        }
  return rows;
}

/** Sorts rows by a key function; nulls last whatever the direction. */
export function sortBy<T>(rows: T[], key: (r: T) => string | number | null, dir: 'asc' | 'desc'): T[] {
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null && y === null) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return dir === 'asc' ? c : -c;
  });
}

/** Case-insensitive match of a filter text against any of the given fields. */
export function matches(text: string, ...fields: Array<string | null | undefined>): boolean {
  const t = text.trim().toLowerCase();
  return !t || fields.some((f) => f?.toLowerCase().includes(t));
}

/** Range presets of the NAV chart: where they start, and the step a history fill uses. */
export function rangeStart(range: '30d' | '90d' | '1y' | 'all', asOf: string): { from: string; every: 'day' | 'week' | 'month' } {
  const d = new Date(`${asOf}T00:00:00Z`);
  if (range === '30d') d.setUTCDate(d.getUTCDate() - 29);
  else if (range === '90d') d.setUTCDate(d.getUTCDate() - 89);
  else if (range === '1y') d.setUTCFullYear(d.getUTCFullYear() - 1);
  else return { from: '2024-01-01', every: 'month' };
  return { from: d.toISOString().slice(0, 10), every: range === '1y' ? 'week' : 'day' };
}

/**
 * What tells identically named positions apart (a table may hide the chain and wallet
 * columns in a narrow window): nothing for a unique name; else the chain if that alone
 * differs, else the pair of underlying tokens ("WBTC/USDC"), else a short id of the
 * position's contract. Returns the suffix to show after the name, by row key.
 */
export function distinguishers(rows: readonly PositionRow[]): Map<string, string> {
  const out = new Map<string, string>();
  const byName = new Map<string, PositionRow[]>();
  for (const r of rows) {
    const name = r.position.name ?? '';
    byName.set(name, [...(byName.get(name) ?? []), r]);
  }
  const pair = (r: PositionRow) => [...new Set(r.position.underlying.filter((u) => !u.details.is_reward).map((u) => u.symbol ?? '?'))].join('/');
  const short = (a: string) => `${a.slice(0, 6)}…`;
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    const once = (f: (r: PositionRow) => string, r: PositionRow) => group.filter((x) => f(x) === f(r)).length === 1;
    const manyChains = new Set(group.map((r) => r.chain)).size > 1;
    const manyWallets = new Set(group.map((r) => r.wallet)).size > 1;
    for (const [i, r] of group.entries()) {
      const where = [manyWallets ? short(r.wallet) : '', manyChains ? r.chain : ''].filter(Boolean).join(' · ');
      const whereKey = (x: PositionRow) => `${x.wallet}|${x.chain}`;
      if (where && once(whereKey, r)) out.set(r.key, where);
      else if (pair(r) && once(pair, r)) out.set(r.key, where ? `${where} · ${pair(r)}` : pair(r));
      else out.set(r.key, `${where ? `${where} · ` : ''}${r.position.cid ? `#${r.position.cid.slice(-4)}` : `#${i + 1}`}`);
    }
  }
  return out;
}

/** Underlying ids (debt_positions, collateral) as the tokens they are in the same position. */
export function tokensOf(position: Position, ids: readonly string[] | undefined): string {
  return (ids ?? []).map((id) => position.underlying.find((u) => u.internal_id === id)?.symbol ?? `${id.slice(0, 6)}…`).join(', ');
}

/** Aave-style health: collateral/debt × liquidation threshold; below 1 can be liquidated. */
export function health(ratio: number | null, liqThreshold: number | null): number | null {
  return ratio === null || liqThreshold === null ? null : ratio * liqThreshold;
}
