/**
 * Pure helpers over cached snapshots, shared by the Overview and Positions views: rows for
 * the tables; the figures themselves come from src/shared/portfolio (one rule for the store,
 * the views and the reports).
 */
import type { PositionsResult } from '../../../shared/contract.ts';
import type { Position, UnderlyingGroup, LiquidityPosition } from '../../../shared/service/schemas.ts';
import { isAtRisk } from '../../../shared/portfolio/risk.ts';
import { lendingFigures } from '../../../shared/portfolio/lending.ts';
import { knownValue, positionTotals, positionValue, type PositionTotals } from '../../../shared/portfolio/totals.ts';
import { allocation as allocate, type AllocationEntry } from '../../../shared/portfolio/allocation.ts';
import { maxSlippage } from '../../../shared/portfolio/pools.ts';

export interface PositionRow {
  key: string;
  wallet: string;
  chain: string;
  position: Position;
  total: number | null;
  /** Lending: collateral/debt ratio and liquidation threshold, from the leg that carries them (src/shared/portfolio/lending.ts). */
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
          const { ratio, liqThreshold } = lendingFigures(p);
          rows.push({
            key: `${r.wallet}:${chain}:${p.cid ?? p.name}`,
            wallet: r.wallet,
            chain,
            position: p,
            total: positionValue(p),
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

export function totals(rows: readonly PositionRow[]): PositionTotals {
  return positionTotals(rows.map((r) => r.position));
}

export type AllocationKey = 'asset_type' | 'protocol_id' | 'chain';

/** Value by a dimension, largest first (src/shared/portfolio/allocation.ts). */
export function allocation(rows: readonly PositionRow[], by: AllocationKey): AllocationEntry[] {
  return allocate(
    rows,
    (r) => (by === 'chain' ? r.chain : r.position[by]) ?? 'unknown',
    (r) => knownValue(r.position),
  );
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
          const key = `${r.wallet}:${chain}:${p.cid ?? p.principal_token_name}`;
          rows.push({ key, wallet: r.wallet, chain, position: p, maxSlippage: maxSlippage(p), atRisk: risk.get(key) ?? false });
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
