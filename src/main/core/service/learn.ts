import type { ServiceClient } from './client.ts';
import { conventionEvidence } from '../../../shared/convention-evidence.ts';
import { RequestError } from './errors.ts';
import type { Transaction } from '../../../shared/service/schemas.ts';
import { ASSUMED_CONVENTIONS, type LearnedConventions } from '../../../shared/conventions.ts';
import type { LearnedPoint } from './store/conventions.ts';

/**
 * Learns how a service reads the transaction endpoint's open points (page base, time unit,
 * page-size cap, paging, a page past the end, ordering, bounds) with a bounded number of
 * requests: four small ones, then up to seven in one parallel round. It needs a wallet with
 * history; with none, the data-dependent points stay as assumed and the run is inconclusive
 * (the next sync, perhaps of another wallet, tries again).
 */

/** The largest page the client asks for; more is not a page size the spec suggests. */
export const MAX_PAGE_SIZE = 1000;
/** Tried in turn when the largest page size is refused. */
const SMALLER_PAGES = [500, 250, 100, 50, 20, 10];
/** Rows asked around one second for the bounds probes: a few transactions can share it. */
const BOUNDS_PAGE = 10;

export interface LearnResult {
  conventions: LearnedConventions;
  points: LearnedPoint[];
  requests: number;
  /** False when the wallet showed no history in any reading: nothing data-dependent was proved. */
  conclusive: boolean;
}

interface Probe {
  rows: Transaction[] | null; // null: the service rejected the request (4xx)
}

const hashes = (rows: readonly Transaction[] | null) => (rows ?? []).map((r) => r.txn_hash.toLowerCase());
const samePage = (a: Probe, b: Probe) => {
  const x = hashes(a.rows);
  const y = hashes(b.rows);
  return x.length > 0 && x.length === y.length && x.every((h, i) => h === y[i]);
};
const nonEmpty = (p: Probe) => (p.rows?.length ?? 0) > 0;
/** Rows dated more than a day after now (clock skew allowed). */
const afterNow = (p: Probe, nowS: number) => (p.rows ?? []).some((t) => (secondsOf(t) ?? 0) > nowS + 86_400);
const secondsOf = (t: Transaction): number | null => (t.date ? Math.floor(Date.parse(t.date) / 1000) : null);

export async function learnConventions(
  client: ServiceClient,
  o: { wallet: string; chain: string; nowMs: number; maxPageSize?: number; signal?: AbortSignal },
): Promise<LearnResult> {
  const maxPage = o.maxPageSize ?? MAX_PAGE_SIZE;
  let requests = 0;
  const probe = async (q: { startTime: number; endTime: number; page: number; pageSize: number }): Promise<Probe> => {
    requests++;
    try {
      const res = await client.transactionsByWallet({ wallet: o.wallet, chain: o.chain, ...q }, o.signal);
      return { rows: res.data.flatMap((d) => d.transaction_history) };
    } catch (err) {
      // A 4xx is an answer (e.g. "page must be ≥ 1"); anything else fails the run.
      if (err instanceof RequestError) return { rows: null };
      throw err;
    }
  };
  const nowS = Math.floor(o.nowMs / 1000);
  const c: LearnedConventions = { ...ASSUMED_CONVENTIONS };
  const points: LearnedPoint[] = [];
  const learned = <K extends keyof LearnedConventions>(key: K, value: LearnedConventions[K], evidence: string, status: LearnedPoint['status'] = 'learned') => {
    c[key] = value;
    points.push({ key, value, evidence, status });
  };

  // Round 1: the whole history in seconds and in milliseconds, pages 0 and 1, two rows each.
  // In seconds, a millisecond service sees January 1970 (empty); in milliseconds, a seconds
  // service sees everything up to the far future. Two rows a page tell 0-based from 1-based.
  const [s0, s1, m0, m1] = await Promise.all([
    probe({ startTime: 0, endTime: nowS, page: 0, pageSize: 2 }),
    probe({ startTime: 0, endTime: nowS, page: 1, pageSize: 2 }),
    probe({ startTime: 0, endTime: o.nowMs, page: 0, pageSize: 2 }),
    probe({ startTime: 0, endTime: o.nowMs, page: 1, pageSize: 2 }),
  ]);
  let unit: 's' | 'ms';
  if (nonEmpty(s0) || nonEmpty(s1)) {
    unit = 's';
    learned('timeUnit', 's', conventionEvidence('timeUnitSeconds'));
  } else if ((nonEmpty(m0) || nonEmpty(m1)) && !afterNow(m0, nowS) && !afterNow(m1, nowS)) {
    // Rows dated after now would mean a seconds service read the millisecond bound as the far
    // future: that is no evidence of milliseconds.
    unit = 'ms';
    learned('timeUnit', 'ms', conventionEvidence('timeUnitMs'));
  } else {
    return { conventions: c, points, requests, conclusive: false };
  }
  const [p0, p1] = unit === 's' ? [s0, s1] : [m0, m1];
  const end = unit === 's' ? nowS : o.nowMs;
  let base: 0 | 1 | null = null;
  // Pages 0 and 1 over the whole history move with a live service: two rows arriving between
  // the two requests make a 0-based page 1 repeat page 0 (issue 30). The base is first read
  // where the newest end cannot move it: the seconds of the two oldest rows seen (so at least
  // two rows, and a page past the end repeating the last cannot pass for page 0), one row a page.
  const seen = [...new Map((p0.rows ?? []).concat(p1.rows ?? []).map((t) => [t.txn_hash.toLowerCase(), secondsOf(t)])).values()]
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b);
  if (seen.length >= 2) {
    const [a, b] = [seen[0]!, seen[1]!];
    const [lo, hi] = unit === 's' ? [a - 1, b + 1] : [(a - 1) * 1000, (b + 1) * 1000 + 999];
    const [q0, q1] = await Promise.all([
      probe({ startTime: lo, endTime: hi, page: 0, pageSize: 1 }),
      probe({ startTime: lo, endTime: hi, page: 1, pageSize: 1 }),
    ]);
    if (nonEmpty(q1) && (q0.rows === null || !nonEmpty(q0) || samePage(q0, q1))) {
      base = 1;
      learned('pageBase', 1, conventionEvidence(q0.rows === null ? 'baseRefusedNear' : nonEmpty(q0) ? 'baseAgainNear' : 'baseEmptyNear'));
    } else if (nonEmpty(q0) && !samePage(q0, q1)) {
      base = 0;
      learned('pageBase', 0, conventionEvidence('baseZeroNear'));
    }
  }
  if (base !== null) {
    // Read where the newest end cannot move it.
  } else if (p0.rows === null) {
    base = 1;
    learned('pageBase', 1, conventionEvidence('baseRefused'));
  } else if (samePage(p0, p1)) {
    base = 1;
    learned('pageBase', 1, conventionEvidence('baseSame'));
  } else if (!nonEmpty(p0) && nonEmpty(p1)) {
    base = 1;
    learned('pageBase', 1, conventionEvidence('baseEmpty'));
  } else {
    base = 0;
    learned('pageBase', 0, conventionEvidence('baseZero'));
  }

  // Round 2: the largest page, the page after it, the second two-row page, a page far past
  // the end, and (from a row's time T) bounds [T, T] and [T, T+1].
  const sample = (p0.rows ?? []).concat(p1.rows ?? []).find((t) => secondsOf(t) !== null)!;
  const T = secondsOf(sample)!;
  const tU = unit === 's' ? T : T * 1000;
  let asked = maxPage;
  const [firstBig, firstNext, second, past, exact, halfOpen] = await Promise.all([
    probe({ startTime: 0, endTime: end, page: base, pageSize: asked }),
    probe({ startTime: 0, endTime: end, page: base + 1, pageSize: asked }),
    probe({ startTime: 0, endTime: end, page: base + 1, pageSize: 2 }),
    probe({ startTime: 0, endTime: end, page: base + 1_000_000, pageSize: 1 }),
    probe({ startTime: tU, endTime: tU, page: base, pageSize: BOUNDS_PAGE }),
    probe({ startTime: tU, endTime: tU + 1, page: base, pageSize: BOUNDS_PAGE }),
  ]);
  let [big, next] = [firstBig, firstNext];
  // The largest page refused: smaller sizes in turn (a bounded number), then the page after it.
  for (const size of SMALLER_PAGES) {
    if (big.rows !== null || size >= asked) break;
    asked = size;
    [big, next] = await Promise.all([
      probe({ startTime: 0, endTime: end, page: base, pageSize: asked }),
      probe({ startTime: 0, endTime: end, page: base + 1, pageSize: asked }),
    ]);
  }
  if (big.rows === null) {
    points.push({
      key: 'pageSizeMax',
      value: 2,
      status: 'unknown',
      evidence: conventionEvidence('sizeAllRefused', { max: maxPage, min: SMALLER_PAGES.at(-1)! }),
    });
    c.pageSizeMax = 2;
    c.pageSizeCap = 2;
  } else {
    learned(
      'pageSizeMax',
      asked,
      asked === maxPage ? conventionEvidence('sizeAccepted', { max: maxPage }) : conventionEvidence('sizeSmaller', { max: maxPage, asked }),
    );
  }
  const n = big.rows?.length ?? 0;
  const firstPage = base === 0 ? p0 : p1;

  // Paging: the second two-row page differs from the first (when there are more than two rows).
  if (nonEmpty(second) && !samePage(second, firstPage)) learned('pagingWorks', true, conventionEvidence('pagingWorks'));
  else if (n > 2 && (samePage(second, firstPage) || !nonEmpty(second)))
    learned('pagingWorks', false, conventionEvidence(nonEmpty(second) ? 'pagingRepeats' : 'pagingEmpty', { n }));
  else points.push({ key: 'pagingWorks', value: null, status: 'unknown', evidence: conventionEvidence('pagingUnknown') });

  // Page-size cap: a page of n < asked followed by a non-empty, different page proves the cap is n.
  if (big.rows === null) {
    // Nothing accepted: the reads will fail and say so.
  } else if (n >= asked) {
    learned('pageSizeCap', asked, conventionEvidence('capWhole', { n: asked }));
    learned('capProven', true, conventionEvidence('capWhole', { n: asked }));
  } else if (nonEmpty(next) && !samePage(next, big)) {
    learned('pageSizeCap', n, conventionEvidence('capMore', { asked, n }));
    learned('capProven', true, conventionEvidence('capProvenMore', { asked, n }));
  } else {
    points.push({
      key: 'pageSizeCap',
      value: asked,
      status: 'assumed',
      evidence: conventionEvidence('capFits', { n }),
    });
    points.push({ key: 'capProven', value: false, status: 'assumed', evidence: conventionEvidence('capShort', { asked }) });
    c.pageSizeCap = asked;
    c.capProven = false;
  }

  if (past.rows !== null && !nonEmpty(past)) learned('pastEnd', 'empty', conventionEvidence('pastEmpty'));
  else if (nonEmpty(past)) learned('pastEnd', 'repeat-last', conventionEvidence('pastRepeat'));
  else points.push({ key: 'pastEnd', value: 'unknown', status: 'unknown', evidence: conventionEvidence('pastRefused') });

  // Ordering, from the times of the largest page.
  const times = (big.rows ?? []).map(secondsOf).filter((t): t is number => t !== null);
  if (new Set(times).size >= 2) {
    const desc = times.every((t, i) => i === 0 || t <= times[i - 1]!);
    const asc = times.every((t, i) => i === 0 || t >= times[i - 1]!);
    learned('order', desc ? 'newest-first' : asc ? 'oldest-first' : 'unordered', conventionEvidence('orderTimes', { n: times.length }));
  } else {
    points.push({ key: 'order', value: 'unknown', status: 'unknown', evidence: conventionEvidence('orderUnknown') });
  }

  // Bounds, from a row at time T: [T, T] includes it only if both bounds are inclusive.
  const has = (p: Probe) => hashes(p.rows).includes(sample.txn_hash.toLowerCase());
  if (has(exact)) learned('bounds', 'inclusive', conventionEvidence('boundsInclusive'));
  else if (has(halfOpen)) learned('bounds', 'half-open', conventionEvidence('boundsHalfOpen', { unit }));
  else learned('bounds', 'exclusive', conventionEvidence('boundsExclusive', { unit }));

  return { conventions: c, points, requests, conclusive: true };
}
