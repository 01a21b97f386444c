import { type ServiceClient, type ServiceResponse, latestSnapshotDay } from '../service/index.ts';
import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot, ValueFlag } from '../../../shared/service/schemas.ts';
import { VIEWS_FLAG } from '../../../shared/quality.ts';
import { viewsDisagree } from './moment.ts';
import type { WritableDB } from '../store/db.ts';
import { filingDay, hasCompleteDate, insertSnapshots } from './store/snapshots.ts';
import type { Step } from '../../../shared/contract.ts';
import type { Completeness } from '../../../shared/conventions.ts';

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

/** What the stored snapshots' data-quality flags add up to, across the units of a job. */
export interface QualityTally {
  /** Values the service sent that could not be read (stored as null, flagged). */
  unreadable: number;
  /** Snapshots the service dated another day than asked. */
  otherDay: number;
  /** Dates whose three views could not be read as one moment (stored, flagged; see readOneMoment). */
  moments?: number;
}

/** Reads of the three views of one date, at most, until they describe one moment. */
export const MAX_VIEW_READS = 4;

type Views = [ServiceResponse<PositionSnapshot>, ServiceResponse<UnderlyingSnapshot>, ServiceResponse<LiquiditySnapshot>];

/** A body with the request id the service writes into it taken out: two answers to one question compare equal. */
const sansId = (r: ServiceResponse<unknown>) => (r.requestId ? r.body.split(r.requestId).join('') : r.body);

/**
 * The three views of one (wallet, chain, date), read until they describe one moment: on a live
 * service "today" moves between the three requests (8 positions in one view, 7 in another), and
 * the three are stored as one snapshot. They are compared on the evidence every view carries
 * (positions-moment.ts); when they differ, all three are read again, at most MAX_VIEW_READS times.
 * Two reads in a row answered word for word alike (but for the request id) held still between
 * them: views that differ then differ by how the service builds them, not by a moment, and are
 * taken as they are. Otherwise the last read is returned with why the views do not agree.
 */
export async function readOneMoment(
  client: ServiceClient,
  q: { wallet: string; chain: string; date?: string },
  signal?: AbortSignal,
): Promise<{ views: Views; disagree: string | null; reads: number }> {
  const read = (): Promise<Views> =>
    Promise.all([client.allPositions(q, signal), client.positionsByUnderlying(q, signal), client.liquidityAnalysis(q, signal)]);
  let views = await read();
  let disagree = viewsDisagree(views[0].data, views[1].data, views[2].data);
  let reads = 1;
  while (disagree !== null && reads < MAX_VIEW_READS) {
    const before = views;
    views = await read();
    reads++;
    disagree = viewsDisagree(views[0].data, views[1].data, views[2].data);
    if (disagree !== null && views.every((v, i) => sansId(v) === sansId(before[i]!))) return { views, disagree: null, reads };
  }
  return { views, disagree, reads };
}

/**
 * Fetches the three views of one (wallet, chain, date) and stores them together in one
 * transaction: a date is cached whole or not at all. Views that could not be read as one
 * moment are stored flagged, saying so (shared/quality.ts VIEWS_FLAG). Returns the as-of date stored.
 */
export async function syncPositionsUnit(
  db: WritableDB,
  client: ServiceClient,
  unit: PositionsUnit,
  signal?: AbortSignal,
  tally?: QualityTally,
): Promise<string> {
  const q = { wallet: unit.wallet, chain: unit.chain, ...(unit.date && { date: unit.date }) };
  const { views, disagree, reads } = await readOneMoment(client, q, signal);
  let [all, grouped, liquidity] = views;
  const requestedDate = unit.date ?? null;
  const serviceDate = all.data[0]?.service_date ?? null;
  const latestDay = unit.date ? undefined : await latestSnapshotDay(client, q, serviceDate, signal);
  const base = { wallet: unit.wallet, chain: unit.chain, requestedDate, ...(latestDay && { latestDay }) };
  if (tally) {
    for (const r of [all, grouped, liquidity]) tally.unreadable += r.flags?.length ?? 0;
    if (filingDay(serviceDate, requestedDate, all.fetchedAt, latestDay).mismatch) tally.otherDay++;
    if (disagree !== null) tally.moments = (tally.moments ?? 0) + 1;
  }
  if (disagree !== null) {
    // Each view carries the flag: whichever is shown, it says the three are not of one moment.
    const flag: ValueFlag = { path: VIEWS_FLAG, value: `${disagree} (${reads} reads; the service's answers changed between the three requests every time)` };
    const flagged = <T>(r: ServiceResponse<T>): ServiceResponse<T> => ({ ...r, flags: [...(r.flags ?? []), flag] });
    [all, grouped, liquidity] = [flagged(all), flagged(grouped), flagged(liquidity)];
  }
  insertSnapshots(db, [
    { endpoint: 'allPositions', ...base, response: all },
    { endpoint: 'positionsByUnderlying', ...base, response: grouped },
    { endpoint: 'liquidityAnalysis', ...base, response: liquidity },
  ]);
  return filingDay(serviceDate, requestedDate, all.fetchedAt, latestDay).asOf;
}

/** The units of a backfill that still need fetching. */
export function plannedUnits(db: WritableDB, wallet: string, chains: readonly string[], dates: readonly string[], refresh: boolean): PositionsUnit[] {
  const units: PositionsUnit[] = [];
  for (const date of dates) for (const chain of chains) if (refresh || !hasCompleteDate(db, wallet, chain, date)) units.push({ wallet, chain, date });
  return units;
}

/**
 * Runs units with `inFlight` at once, in date order. Stops at the first failure (the
 * units already stored stay: each is whole); reports progress after each unit.
 */
export async function runUnits(
  db: WritableDB,
  client: ServiceClient,
  units: readonly PositionsUnit[],
  inFlight: number,
  signal: AbortSignal | undefined,
  onUnit: (done: number) => void,
  tally?: QualityTally,
): Promise<void> {
  let nextIndex = 0;
  let done = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (failure === null && nextIndex < units.length) {
      const unit = units[nextIndex++]!;
      try {
        await syncPositionsUnit(db, client, unit, signal, tally);
        onUnit(++done);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, units.length)) }, worker));
  if (failure !== null) throw failure;
}

/**
 * A positions job whose snapshots carry unreadable values is finished but not whole: those
 * figures are unknown (shown as "—", left out of totals). Null when everything was readable.
 */
export function qualityCompleteness(t: QualityTally): Completeness | null {
  if (!t.unreadable && !t.otherDay && !t.moments) return null;
  const reasons: string[] = [];
  if (t.unreadable)
    reasons.push(
      `the service sent ${t.unreadable} value${t.unreadable === 1 ? '' : 's'} that could not be read (not a number); stored as unknown and left out of totals`,
    );
  if (t.otherDay)
    reasons.push(`the service answered ${t.otherDay} request${t.otherDay === 1 ? '' : 's'} for a date with a snapshot of another day; filed under that day`);
  if (t.moments)
    reasons.push(
      `the three views (positions, by token, liquidity) of ${t.moments} snapshot${t.moments === 1 ? '' : 's'} did not agree in ${MAX_VIEW_READS} reads: the service's snapshot changed between the requests; stored, flagged as not one moment`,
    );
  return {
    state: 'incomplete',
    reasons,
    action: 'Positions and reports show which values; `folioscope doctor` shows what the service sends. Syncing again fetches them again.',
  };
}
