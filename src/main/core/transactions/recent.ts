import type { LearnedConventions } from '../../../shared/conventions.ts';
import type { Transaction } from '../../../shared/service/schemas.ts';
import { provesWhole } from '../../../shared/service/completion-ratio.ts';
import { applyRestatements, changedFields, type Restatements, storedByHash, storedHash, storedInWindow } from './store/restatements.ts';
import { completeUntil, listRanges, nthNewestTime, upsertTransactions } from './store/transactions.ts';
import { type ServiceClient, judgePage, pageParam, pageSizeFor, queryBounds } from '../service/index.ts';
import type { ReadableDB, WritableDB } from '../store/db.ts';

/**
 * Correct over time (issue 30): a live service restates what it answered. On every sync the
 * client re-reads a recent window and reconciles the cache with it (docs/service.md, "Live
 * behaviours"), and re-reads the page seams a shifting list may have fooled.
 */

/** What the re-read needs of a transaction sync's options (transactions/sync.ts passes its own). */
export interface RecentOptions {
  db: WritableDB;
  client: ServiceClient;
  wallet: string;
  chain: string;
  historyStart: number;
  pageSize?: number;
  signal?: AbortSignal;
}

/** The recent window is at least this long (seconds): indexers backfill and reorgs land within hours. */
export const RECENT_WINDOW_S = 24 * 3600;
/** Seconds of missing rows verified one by one before removals are given up for this sync (a bound on requests). */
const MAX_VERIFIED_SECONDS = 100;
/** Seams re-read in one sync at most (a bound on requests); the rest are reported. */
const MAX_SEAMS = 500;

/** Where two consecutive pages of one read met: the seconds [lo, hi] spanned by the last row of one and the first of the next. */
export interface Seam {
  lo: number;
  hi: number;
  /** Both rows in one second: an order the service may not keep between requests. */
  tie: boolean;
  /** The next page began with a row of the previous one: the list shifted between the requests. */
  repeat: boolean;
}

const secondOf = (t: Transaction): number | null => (t.date ? Math.floor(Date.parse(t.date) / 1000) : null);

/** The seam between two consecutive pages of a time-ordered read, or null when it cannot be placed. */
export function seamBetween(previous: readonly Transaction[], rows: readonly Transaction[]): Seam | null {
  const a = previous[previous.length - 1];
  const b = rows[0];
  if (!a || !b) return null;
  const ta = secondOf(a);
  const tb = secondOf(b);
  if (ta === null || tb === null) return null;
  const hash = b.txn_hash.toLowerCase();
  return { lo: Math.min(ta, tb), hi: Math.max(ta, tb), tie: ta === tb, repeat: previous.some((t) => t.txn_hash.toLowerCase() === hash) };
}

/** Whether a read's pages come in time order (seams mean something only then). */
export const timeOrdered = (c: LearnedConventions): boolean => c.order === 'newest-first' || c.order === 'oldest-first';

interface WindowRead {
  /** By stored hash: the row, and the request that returned it last. */
  rows: Map<string, { row: Transaction; request: string }>;
  /** Proved whole: read to a proved end, every ratio stated was 1, and its own seams re-read. */
  whole: boolean;
  requests: number;
}

/** Reads the window [startS, endS] whole (every page, then its own seams), in memory. */
async function readWindow(o: RecentOptions, c: LearnedConventions, startS: number, endS: number, depth = 0): Promise<WindowRead> {
  const pageSize = pageSizeFor(c, o.pageSize);
  const bounds = queryBounds(c, startS, endS);
  const out: WindowRead = { rows: new Map(), whole: true, requests: 0 };
  const seams: Seam[] = [];
  let previous: Transaction[] | null = null;
  for (let n = 1; ; n++) {
    const page = pageParam(c, n);
    const res = await o.client.transactionsByWallet({ wallet: o.wallet, chain: o.chain, ...bounds, page, pageSize }, o.signal);
    out.requests++;
    const rows = res.data.flatMap((d) => d.transaction_history);
    const ratio = res.data[0]?.completion_ratio ?? null;
    if (ratio === null || !provesWhole(ratio)) out.whole = false;
    const verdict = judgePage(c, pageSize, rows, previous);
    if (verdict.kind === 'stuck') {
      out.whole = false;
      break;
    }
    if (verdict.kind === 'end' && !verdict.store) break;
    const request = `transactions ${o.chain} start_time=${bounds.startTime} end_time=${bounds.endTime} page=${page} pageSize=${pageSize}${res.requestId ? ` (request ${res.requestId})` : ''}`;
    for (const row of rows) out.rows.set(storedHash(row), { row, request });
    if (previous && timeOrdered(c)) {
      const seam = seamBetween(previous, rows);
      if (seam) seams.push(seam);
    }
    previous = rows;
    if (verdict.kind === 'end') break;
    // A window wider than the service pages whole, in one second: stop, unproved.
    if (n >= 10_000) {
      out.whole = false;
      break;
    }
  }
  // The seams where rows of one second met, or the list shifted, are re-read: a row hidden there
  // is found. (A row a removal's shift hid is not taken for removed: a cached row missing here is
  // asked for again by its own second before it is removed, see reconcileRecent.)
  if (depth === 0) {
    const suspect = seams.filter((s) => s.tie || s.repeat);
    for (const s of suspect.slice(0, MAX_SEAMS)) {
      const again = await readWindow(o, c, s.lo, s.hi, depth + 1);
      out.requests += again.requests;
      for (const [h, x] of again.rows) if (!out.rows.has(h)) out.rows.set(h, x);
      if (!again.whole) out.whole = false;
    }
    if (suspect.length > MAX_SEAMS) out.whole = false;
  }
  return out;
}

/** The recent window to re-read: from RECENT_WINDOW_S, or the span of one page of the newest cached rows if longer, to the end of complete history. */
export function recentWindow(
  db: ReadableDB,
  o: Pick<RecentOptions, 'wallet' | 'chain' | 'historyStart'>,
  pageSize: number,
): { startS: number; endS: number } | null {
  const until = completeUntil(listRanges(db, o.wallet, o.chain));
  if (until === null) return null;
  const nth = nthNewestTime(db, o.wallet, o.chain, until * 1000 + 999, pageSize);
  const byPage = nth === undefined ? -Infinity : Math.floor(nth / 1000);
  const first = listRanges(db, o.wallet, o.chain).reduce((m, r) => Math.min(m, r.startTime), Infinity);
  const startS = Math.max(first, Math.min(until - RECENT_WINDOW_S, byPage));
  return startS <= until ? { startS, endS: until } : null;
}

export interface RecentResult {
  window: { startS: number; endS: number } | null;
  late: number;
  changed: number;
  removed: number;
  /** Rows found by re-reading the seams of this sync's reads (missed by the page shift). */
  seamRows: number;
  requests: number;
  /** Why removals could not be proved this sync (the window was not read whole), if so. */
  note: string | null;
}

/**
 * Re-reads the recent window and reconciles: rows the cache lacks are added (`late`), rows whose
 * block, status, fee, time or transfers differ are updated (`changed`), and cached rows the window
 * no longer holds, and that their own second asked again does not return, are removed
 * (`removed`); each recorded in the change log. Removals need a window read whole. Then the seams
 * of this sync's reads are re-read: those between rows of one second always, every one when the
 * list was seen to change (a removal shifts the rows behind it across a page seam).
 */
export async function reconcileRecent(o: RecentOptions, c: LearnedConventions, seams: readonly Seam[]): Promise<RecentResult> {
  const result: RecentResult = { window: null, late: 0, changed: 0, removed: 0, seamRows: 0, requests: 0, note: null };
  const window = recentWindow(o.db, o, pageSizeFor(c, o.pageSize));
  let shifted = seams.some((s) => s.repeat);
  if (window) {
    result.window = window;
    const read = await readWindow(o, c, window.startS, window.endS);
    result.requests += read.requests;
    const stored = storedInWindow(o.db, o.wallet, o.chain, window.startS, window.endS);
    // Rows the service returned that the window's cached rows do not hold may be cached at another time (moved).
    const elsewhere = storedByHash(
      o.db,
      o.wallet,
      o.chain,
      [...read.rows.keys()].filter((h) => !stored.has(h)),
    );
    const r: Restatements = { late: [], changed: [], removed: [] };
    for (const [h, { row, request }] of read.rows) {
      const before = stored.get(h) ?? elsewhere.get(h);
      if (!before) r.late.push({ row, request });
      else {
        const fields = changedFields(o.wallet, o.chain, before, row);
        if (fields.length) r.changed.push({ row, before, fields, request });
      }
    }
    const gone = [...stored.values()].filter((s) => !read.rows.has(s.txn_hash));
    if (gone.length && !read.whole)
      result.note = `${gone.length} cached transaction(s) were not returned by a re-read that was not proved whole: kept until a whole re-read`;
    else if (gone.length) {
      // Asked again for its own second: a row the page shift hid is found there, not removed.
      const seconds = [...new Set(gone.map((g) => Math.floor(g.time / 1000)))];
      if (seconds.length > MAX_VERIFIED_SECONDS) {
        result.note = `${gone.length} cached transaction(s) were not returned by the re-read, too many to verify in one sync: kept`;
      } else {
        const found = new Map<string, { row: Transaction; request: string }>();
        let verified = true;
        for (const s of seconds) {
          const again = await readWindow(o, c, s, s);
          result.requests += again.requests;
          if (!again.whole) verified = false;
          for (const [h, x] of again.rows) found.set(h, x);
        }
        for (const g of gone) {
          const back = found.get(g.txn_hash);
          if (back) {
            const fields = changedFields(o.wallet, o.chain, g, back.row);
            if (fields.length) r.changed.push({ row: back.row, before: g, fields, request: back.request });
          } else if (verified) r.removed.push({ before: g, request: `${[...read.rows.values()][0]?.request ?? 'transactions'}; its second asked again` });
        }
        if (!verified) result.note = 'a transaction missing from the re-read could not be verified (its second was not read whole): kept';
      }
    }
    applyRestatements(o.db, o.wallet, o.chain, r);
    result.late = r.late.length;
    result.changed = r.changed.length;
    result.removed = r.removed.length;
    if (r.removed.length || r.changed.some((x) => x.fields.includes('time'))) shifted = true;
  }
  // The seams of this sync's reads: those of one second always; all when the list shifted.
  const toRead = seams.filter((s) => s.tie || shifted);
  const known = new Set<string>();
  let found: Transaction[] = [];
  for (const s of toRead.slice(0, MAX_SEAMS)) {
    const again = await readWindow(o, c, s.lo, s.hi, 1);
    result.requests += again.requests;
    for (const [h, { row }] of again.rows) {
      if (known.has(h)) continue;
      known.add(h);
      found.push(row);
    }
  }
  if (toRead.length > MAX_SEAMS) result.note = `${toRead.length - MAX_SEAMS} page seam(s) were not re-read this sync (at most ${MAX_SEAMS})`;
  if (found.length) {
    const cached = storedByHash(o.db, o.wallet, o.chain, found.map(storedHash));
    found = found.filter((t) => !cached.has(storedHash(t)));
    if (found.length) upsertTransactions(o.db, o.wallet, o.chain, found);
    result.seamRows = found.length;
  }
  return result;
}
