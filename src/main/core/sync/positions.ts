import type { ServiceClient } from '../api/client.ts';
import type { Database } from '../store/db.ts';
import { hasCompleteDate, insertSnapshot } from '../store/snapshots.ts';
import type { Step } from '../../../shared/model.ts';
export type { Step };


/** Dates from `from` to `to` inclusive at a step (months keep the day, clamped to month end). */
export function datesBetween(from: string, to: string, every: Step): string[] {
  const out: string[] = [];
  const start = new Date(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let i = 0; ; i++) {
    const d = new Date(start);
    if (every === 'day') d.setUTCDate(start.getUTCDate() + i);
    else if (every === 'week') d.setUTCDate(start.getUTCDate() + 7 * i);
    else {
      d.setUTCDate(1);
      d.setUTCMonth(start.getUTCMonth() + i);
      const monthEnd = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(start.getUTCDate(), monthEnd));
    }
    if (d.getTime() > end) return out;
    out.push(d.toISOString().slice(0, 10));
  }
}

export interface PositionsUnit {
  wallet: string;
  chain: string;
  /** YYYY-MM-DD, or undefined for the service's latest snapshot. */
  date?: string;
}

/**
 * Fetches the three views of one (wallet, chain, date) and stores them together in one
 * transaction: a date is cached whole or not at all. Returns the as-of date stored.
 */
export async function syncPositionsUnit(db: Database, client: ServiceClient, unit: PositionsUnit, signal?: AbortSignal): Promise<string> {
  const q = { wallet: unit.wallet, chain: unit.chain, ...(unit.date && { date: unit.date }) };
  const [all, grouped, liquidity] = await Promise.all([
    client.allPositions(q, signal),
    client.positionsByUnderlying(q, signal),
    client.liquidityAnalysis(q, signal),
  ]);
  const requestedDate = unit.date ?? null;
  db.transaction(() => {
    insertSnapshot(db, { endpoint: 'allPositions', wallet: unit.wallet, chain: unit.chain, requestedDate, response: all });
    insertSnapshot(db, { endpoint: 'positionsByUnderlying', wallet: unit.wallet, chain: unit.chain, requestedDate, response: grouped });
    insertSnapshot(db, { endpoint: 'liquidityAnalysis', wallet: unit.wallet, chain: unit.chain, requestedDate, response: liquidity });
  }).immediate();
  return (all.data[0]?.date ?? unit.date ?? all.fetchedAt).slice(0, 10);
}

/** The units of a backfill that still need fetching. */
export function plannedUnits(db: Database, wallet: string, chains: readonly string[], dates: readonly string[], refresh: boolean): PositionsUnit[] {
  const units: PositionsUnit[] = [];
  for (const date of dates) for (const chain of chains) if (refresh || !hasCompleteDate(db, wallet, chain, date)) units.push({ wallet, chain, date });
  return units;
}

/**
 * Runs units with `inFlight` at once, in date order. Stops at the first failure (the
 * units already stored stay: each is whole); reports progress after each unit.
 */
export async function runUnits(
  db: Database,
  client: ServiceClient,
  units: readonly PositionsUnit[],
  inFlight: number,
  signal: AbortSignal | undefined,
  onUnit: (done: number) => void,
): Promise<void> {
  let nextIndex = 0;
  let done = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null && nextIndex < units.length) {
      const unit = units[nextIndex++]!;
      try {
        await syncPositionsUnit(db, client, unit, signal);
        onUnit(++done);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, units.length)) }, worker));
  if (failure !== null) throw failure;
}
