/**
 * Rows of the three position views from cached snapshots, for one or many wallets: the core's
 * portfolio view (src/main/core/portfolio/view.ts) builds its tables with these, and the views
 * total and allocate what they show (a filtered table) with the same rules.
 */
import type { LiquidityPosition, Position, UnderlyingGroup } from '../service/schemas.ts';
import { isAtRisk } from './risk.ts';
import { lendingFigures } from './lending.ts';
import { knownValue, positionTotals, positionValue, type PositionTotals } from './totals.ts';
import { allocation as allocate, type AllocationEntry } from './allocation.ts';
import { maxSlippage } from './pools.ts';

/** Snapshots per wallet and chain (null: not cached), as the store hands them out. */
export type SnapshotResults = ReadonlyArray<{
  wallet: string;
  chains: ReadonlyArray<{ chain: string; snapshot: { data: readonly unknown[] } | null }>;
}>;

export interface PositionRow {
  key: string;
  wallet: string;
  chain: string;
  position: Position;
  /** The position's value: null when unknown (./totals.ts). */
  total: number | null;
  /** Lending: collateral/debt ratio and liquidation threshold, from the leg that carries them (./lending.ts). */
  ratio: number | null;
  liqThreshold: number | null;
  atRisk: boolean;
}

export function positionRows(results: SnapshotResults): PositionRow[] {
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

export function totals(rows: ReadonlyArray<Pick<PositionRow, 'position'>>): PositionTotals {
  return positionTotals(rows.map((r) => r.position));
}

export type AllocationKey = 'asset_type' | 'protocol_id' | 'chain';

/** What a row is counted under in the allocation by a dimension. */
export const allocationLabel = (r: Pick<PositionRow, 'position' | 'chain'>, by: AllocationKey): string =>
  (by === 'chain' ? r.chain : r.position[by]) ?? 'unknown';

/** Value by a dimension, largest first (./allocation.ts). */
export function allocation(rows: ReadonlyArray<Pick<PositionRow, 'position' | 'chain'>>, by: AllocationKey): AllocationEntry[] {
  return allocate(
    rows,
    (r) => allocationLabel(r, by),
    (r) => knownValue(r.position),
  );
}

export interface UnderlyingRow {
  key: string;
  wallet: string;
  chain: string;
  group: UnderlyingGroup;
}

export function underlyingRows(results: SnapshotResults): UnderlyingRow[] {
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

/** Liquidity rows; risk comes from the same position's lending figures in the all-positions view (by row key). */
export function liquidityRows(results: SnapshotResults, risk: ReadonlyMap<string, boolean>): LiquidityRow[] {
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
