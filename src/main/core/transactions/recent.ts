import { type LearnedConventions, RECENT_WINDOW_MAX_LEARNED_S, RECENT_WINDOW_S } from '../../../shared/conventions.ts';
import { conventionEvidence } from '../../../shared/convention-evidence.ts';
import {
  loadRecentWindow,
  recentWindowWidth,
  saveRecentWindow,
  type ServiceClient,
  ServiceError,
  judgePage,
  pageParam,
  pageSizeFor,
  queryBounds,
  rowsOutside,
} from '../service/index.ts';
import type { Transaction } from '../../../shared/service/schemas.ts';
import { provesWhole } from '../../../shared/service/completion-ratio.ts';
import { applyRestatements, applySeamRead, changedFields, type Restatements, storedByHash, storedHash, storedInWindow } from './store/restatements.ts';
import { completeUntil, countStoredBetween, listRanges, nthNewestTime } from './store/transactions.ts';
import { countOwedSeams, owedSeams, oweSeams, seamNotProved, type SeamToRead, utcSecond } from './store/seams.ts';
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
  /** Reads of one seam or second whose order moves between requests, at most (default MAX_STABLE_READS). */
  seamReads?: number;
}

/** The recent window is at least this long by default (seconds): indexers backfill and reorgs land within hours. */
export { RECENT_WINDOW_S };
/** How much wider than the deepest restatement found the window is learned to be. */
const LEARN_MARGIN = 1.5;
/** Seconds of missing rows verified one by one before removals are given up for this sync (a bound on requests). */
const MAX_VERIFIED_SECONDS = 100;
/** Seams re-read in one sync at most (a bound on requests); the rest stay owed for the next sync. */
const MAX_SEAMS = 500;
/** Pages of one window read at most: a window wider than the service pages whole is not proved. */
const MAX_WINDOW_PAGES = 10_000;
/**
 * Reads of one seam or second whose order moves between requests: each read of a burst finds
 * about two thirds of the rows the last ones had not (offset pages of a shuffled list), so 30
 * reads leave a chance of about 1e-14 per row of missing it; the bound stops a service that
 * never settles.
 */
const MAX_STABLE_READS = 30;

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
  /** Proved whole: read to a proved end, every ratio stated was 1, and its own seams re-read and proved. */
  whole: boolean;
  /** Why it is not proved whole, in words (null when whole). */
  unproved: string | null;
  /** Stretches inside it (seams, seconds) whose re-read was not proved: owed a re-read by the next sync. */
  owed: SeamToRead[];
  requests: number;
}

/** One read of a window, page by page to a proved end. */
interface PagesRead extends WindowRead {
  /** Rows the pages returned, counting a row met twice twice: as many as the window holds, whatever the order (pages partition it). */
  stated: number;
  /** Where its pages met (a time-ordered reading only). */
  seams: Seam[];
}

const requestText = (chain: string, bounds: { startTime: number; endTime: number }, page: number, pageSize: number, requestId: string | null) =>
  `transactions ${chain} start_time=${bounds.startTime} end_time=${bounds.endTime} page=${page} pageSize=${pageSize}${requestId ? ` (request ${requestId})` : ''}`;

const span = (lo: number, hi: number) => (lo === hi ? `the second ${utcSecond(lo)} UTC` : `${utcSecond(lo)} to ${utcSecond(hi)} UTC`);

/** Reads the window [startS, endS] once: every page to a proved end, in memory (pages of `size` rows, or the size the sync asks). */
async function readPages(o: RecentOptions, c: LearnedConventions, startS: number, endS: number, size?: number): Promise<PagesRead> {
  const pageSize = size ?? pageSizeFor(c, o.pageSize);
  const bounds = queryBounds(c, startS, endS);
  const out: PagesRead = { rows: new Map(), whole: true, unproved: null, owed: [], requests: 0, stated: 0, seams: [] };
  let previous: Transaction[] | null = null;
  for (let n = 1; ; n++) {
    const page = pageParam(c, n);
    const res = await o.client.transactionsByWallet({ wallet: o.wallet, chain: o.chain, ...bounds, page, pageSize }, o.signal);
    out.requests++;
    const rows = res.data.flatMap((d) => d.transaction_history);
    const ratio = res.data[0]?.completion_ratio ?? null;
    if (ratio === null || !provesWhole(ratio)) {
      out.whole = false;
      out.unproved ??= `the service's completion_ratio for ${span(startS, endS)} was ${ratio ?? 'absent'}, not 1`;
    }
    const verdict = judgePage(c, pageSize, rows, previous);
    if (verdict.kind === 'stuck') {
      out.whole = false;
      out.unproved = `${span(startS, endS)} could not be read to its end: ${verdict.reason}`;
      break;
    }
    if (verdict.kind === 'end' && !verdict.store) break;
    const request = requestText(o.chain, bounds, page, pageSize, res.requestId);
    out.stated += rows.length;
    for (const row of rows) out.rows.set(storedHash(row), { row, request });
    if (previous && timeOrdered(c)) {
      const seam = seamBetween(previous, rows);
      if (seam) out.seams.push(seam);
    }
    previous = rows;
    if (verdict.kind === 'end') break;
    // A window wider than the service pages whole (10,000 pages): stop, unproved.
    if (n >= MAX_WINDOW_PAGES) {
      out.whole = false;
      out.unproved = `${span(startS, endS)} holds more than ${MAX_WINDOW_PAGES} pages: it was not read to its end`;
      break;
    }
  }
  return out;
}

/**
 * Reads [lo, hi] (a page seam, or one second) until its set of rows is proved: pages partition
 * the rows a window holds whatever order each request uses, so one read counts them (`stated`,
 * its pages added up). A read whose rows are all distinct saw every one; when the service's
 * order moves between requests (a same-second burst larger than a page, in another order on
 * every request), one read meets some rows twice and misses as many, and the window is read
 * again, the rows of every read kept, until they number what the last two reads counted (at
 * most MAX_STABLE_READS reads). What no bound of reads proves is said, never taken for whole.
 */
async function readStable(o: RecentOptions, c: LearnedConventions, lo: number, hi: number): Promise<WindowRead> {
  const out: WindowRead = { rows: new Map(), whole: false, unproved: null, owed: [], requests: 0 };
  let counted = -1;
  const reads = o.seamReads ?? MAX_STABLE_READS;
  for (let k = 1; k <= reads; k++) {
    // The largest pages the service serves (the fewer pages, the fewer places a moving order can
    // hide a row), one row fewer on each read again: a service whose order follows the page asked
    // rather than the request still partitions the rows another way each time.
    const read = await readPages(o, c, lo, hi, Math.max(1, pageSizeFor(c) - ((k - 1) % 16)));
    out.requests += read.requests;
    for (const [h, x] of read.rows) out.rows.set(h, x);
    if (!read.whole) return { ...out, unproved: read.unproved };
    if (read.rows.size === read.stated && out.rows.size === read.stated) return { ...out, whole: true };
    if (out.rows.size === read.stated && counted === read.stated) return { ...out, whole: true };
    counted = read.stated;
  }
  return {
    ...out,
    unproved:
      `the service returned the ${counted} transactions of ${span(lo, hi)} in another order on every request (more than a page), ` +
      `and ${reads} reads found ${out.rows.size} different ones: some may be missing`,
  };
}

/**
 * Reads the window [startS, endS] whole (every page, then its own seams where rows may hide), in
 * memory; `pages`: its pages already read (by readThroughNow).
 */
async function readWindow(o: RecentOptions, c: LearnedConventions, startS: number, endS: number, pages?: PagesRead): Promise<WindowRead> {
  const read = pages ?? (await readPages(o, c, startS, endS));
  const out: WindowRead = { rows: read.rows, whole: read.whole, unproved: read.unproved, owed: [], requests: read.requests };
  // A window the service did not answer for whole (a completion_ratio below 1, a read that could
  // not reach its end) is owed whole: where rows may be missing in it is not known, and a gap the
  // service fills later is found only by a read of it proved whole, whichever sync makes it.
  if (!read.whole) out.owed.push({ lo: startS, hi: endS, reason: read.unproved ?? SEAM_UNPROVED });
  // The seams where rows of one second met, or the list shifted, are re-read: a row hidden there
  // is found. (A row a removal's shift hid is not taken for removed: a cached row missing here is
  // asked for again by its own second before it is removed, see reconcileRecent.) A seam whose
  // re-read is not proved is owed: the next sync reads it again, and the history there is unproved.
  const suspect = distinctSeams(read.seams.filter((s) => s.tie || s.repeat));
  for (const s of suspect.slice(0, MAX_SEAMS)) {
    const again = await readStable(o, c, s.lo, s.hi);
    out.requests += again.requests;
    for (const [h, x] of again.rows) if (!out.rows.has(h)) out.rows.set(h, x);
    if (!again.whole) {
      out.whole = false;
      out.unproved ??= again.unproved;
      out.owed.push({ lo: s.lo, hi: s.hi, reason: again.unproved ?? SEAM_UNPROVED });
    }
  }
  if (suspect.length > MAX_SEAMS) {
    out.whole = false;
    out.unproved ??= `${suspect.length - MAX_SEAMS} page seam(s) of the recent window were not read again (at most ${MAX_SEAMS} in one sync)`;
    for (const s of suspect.slice(MAX_SEAMS)) out.owed.push({ lo: s.lo, hi: s.hi, reason: seamReason(s) });
  }
  return out;
}

/** Seams of one stretch once each (two seams of one second are one re-read). */
function distinctSeams(seams: readonly Seam[]): Seam[] {
  const seen = new Map<string, Seam>();
  for (const s of seams) {
    const k = `${s.lo}|${s.hi}`;
    const had = seen.get(k);
    seen.set(k, had ? { ...had, tie: had.tie || s.tie, repeat: had.repeat || s.repeat } : s);
  }
  return [...seen.values()];
}

/** Why a seam is owed a re-read, in words for the user. */
export function seamReason(s: Seam): string {
  // A row repeated between rows of one second is that second's order moving, as much as the list.
  if (s.tie)
    return 'two pages met between transactions of one second, whose order the service need not keep from one request to the next, so rows there may have been skipped';
  if (s.repeat) return 'a page began with a row of the page before it (the list moved between the requests), so rows there may have been skipped';
  return SHIFTED;
}

const SHIFTED =
  'the list moved during the read (a page began with a row of the page before it, or a transaction was removed or moved), so every page seam of the read is read again';
const SEAM_UNPROVED = 'its re-read was not proved whole';

/**
 * The recent window to re-read: from its width back (RECENT_WINDOW_S, widened by what was
 * learned, at least what is set: recentWindowWidth), or the span of a page less one row of the
 * newest cached rows if longer, to the end of complete history (or `until`, where it will end).
 * A page less one row: read with nothing new, the window's page is then short, and a short page
 * of a proven page size proves its own end, so a quiet wallet's window costs one request, not a
 * full page and an empty one after it.
 */
export function recentWindow(
  db: ReadableDB,
  o: Pick<RecentOptions, 'wallet' | 'chain' | 'historyStart'>,
  pageSize: number,
  until: number | null = completeUntil(listRanges(db, o.wallet, o.chain)),
): { startS: number; endS: number } | null {
  if (until === null) return null;
  const nth = nthNewestTime(db, o.wallet, o.chain, until * 1000 + 999, Math.max(1, pageSize - 1));
  const byPage = nth === undefined ? -Infinity : Math.floor(nth / 1000);
  const first = listRanges(db, o.wallet, o.chain).reduce((m, r) => Math.min(m, r.startTime), Infinity);
  const startS = Math.max(first, Math.min(until - recentWindowWidth(db).seconds, byPage));
  return startS <= until ? { startS, endS: until } : null;
}

/** The recent window read with the new range after it in one request (readThroughNow). */
export interface ReadThrough {
  window: { startS: number; endS: number };
  /** The page, as the window's read (every row in it; one page, no seams). */
  pages: PagesRead;
  /** Its rows after the end of complete history: the new range's rows. */
  newRows: Transaction[];
  ratio: number | null;
  startBlock: number | null;
  endBlock: number | null;
}

/**
 * The new range (after `until`, the end of complete history, to `now`) and the recent window
 * before it, asked in one request: the window as it will be once the new range is complete,
 * extended to `now`. When that one page proves its own end (empty, or short of a proven page
 * size), is proved indexed whole and holds no row outside what was asked, it is both reads: its
 * rows after `until` are the new range's whole content, and when there are none it is the
 * window's re-read too (with new rows the window moves, and is read on its own). A daily refresh
 * with nothing new costs one request per wallet and chain, where it cost the new range's empty
 * page, the window's page and the page proving its end. Null when the page proves none of that
 * (the sync reads as before: one request more than otherwise) or cannot: only asked when the
 * window fits one page with room (its cached rows fewer than a page) and a short page can prove an
 * end (the page size is proven, or the window holds no rows, so an empty page is the answer).
 */
export async function readThroughNow(o: RecentOptions, c: LearnedConventions, until: number, now: number): Promise<ReadThrough | null> {
  const pageSize = pageSizeFor(c, o.pageSize);
  const window = recentWindow(o.db, o, pageSize, now);
  if (!window || window.startS > until) return null;
  const cached = countStoredBetween(o.db, o.wallet, o.chain, window.startS, now, pageSize);
  if (cached >= pageSize || (cached > 0 && !c.capProven)) return null;
  const bounds = queryBounds(c, window.startS, now);
  const page = pageParam(c, 1);
  const res = await o.client.transactionsByWallet({ wallet: o.wallet, chain: o.chain, ...bounds, page, pageSize }, o.signal);
  const rows = res.data.flatMap((d) => d.transaction_history);
  const head = res.data[0];
  const ratio = head?.completion_ratio ?? null;
  if (!provesWhole(ratio) || judgePage(c, pageSize, rows, null).kind !== 'end' || rowsOutside(rows, window.startS, now).length) return null;
  const seconds = rows.map(secondOf);
  // A row that cannot be placed in time cannot be put in either read.
  if (seconds.some((t) => t === null)) return null;
  const newRows = rows.filter((_, i) => seconds[i]! > until);
  const request = requestText(o.chain, bounds, page, pageSize, res.requestId);
  const pages: PagesRead = { rows: new Map(), whole: true, unproved: null, owed: [], requests: 1, stated: rows.length, seams: [] };
  for (const row of rows) pages.rows.set(storedHash(row), { row, request });
  return { window, pages, newRows, ratio, startBlock: head?.start_block ?? null, endBlock: head?.end_block ?? null };
}

export interface RecentResult {
  window: { startS: number; endS: number } | null;
  late: number;
  changed: number;
  removed: number;
  /** Rows found by re-reading the seams owed (missed by the page shift or an unstable order). */
  seamRows: number;
  /** Seams still owed a re-read after this sync (transactions/store/seams.ts): the history there is not proved complete. */
  owed: number;
  requests: number;
  /** Why removals could not be proved this sync (the window was not read whole), if so. */
  note: string | null;
}

/** The width to learn from a restatement found `deepS` seconds behind the window's end: with a margin, in whole hours, capped. */
export function learnedWidth(deepS: number): number {
  return Math.min(RECENT_WINDOW_MAX_LEARNED_S, Math.ceil((deepS * LEARN_MARGIN) / 3600) * 3600);
}

/**
 * Learns the recent window's width from what this sync's re-read restated: a row indexed late,
 * changed or removed this far behind the newest complete history says the service restates that
 * deep (its indexing lag, and the time between syncs, together: what the window must span to
 * catch it). When the deepest one, with a margin, is wider than the width learned so far (or
 * the default), that is the width from now on, for every wallet of this service, capped.
 */
function learnWindow(o: RecentOptions, window: { startS: number; endS: number }, r: Restatements): void {
  const found = [
    ...r.late.map((x) => ({ kind: 'late', hash: x.row.txn_hash, s: secondOf(x.row) })),
    ...r.changed.map((x) => ({ kind: 'changed', hash: x.row.txn_hash, s: Math.min(secondOf(x.row) ?? Infinity, Math.floor(x.before.time / 1000)) })),
    ...r.removed.map((x) => ({ kind: 'removed', hash: x.before.txn_hash, s: Math.floor(x.before.time / 1000) })),
  ].filter((x): x is { kind: string; hash: string; s: number } => x.s !== null && Number.isFinite(x.s));
  if (!found.length) return;
  const deepest = found.reduce((a, b) => (b.s < a.s ? b : a));
  const deep = window.endS - deepest.s;
  const width = learnedWidth(deep);
  const known = loadRecentWindow(o.db)?.seconds ?? RECENT_WINDOW_S;
  if (width <= known) return;
  const hours = (s: number) => `${+(s / 3600).toFixed(1)} h`;
  saveRecentWindow(
    o.db,
    width,
    conventionEvidence(width === RECENT_WINDOW_MAX_LEARNED_S ? 'recentFoundCapped' : 'recentFound', {
      kind: deepest.kind === 'late' ? 'indexed late' : deepest.kind,
      deep: hours(deep),
      hash: deepest.hash.slice(0, 10),
      wallet: o.wallet.slice(0, 10),
      chain: o.chain,
      margin: LEARN_MARGIN,
      cap: hours(width),
    }),
  );
}

/** Whether a failed re-read is left for the next sync (the service failed), rather than failing the job (cancelled, refused the key, or a fault of this program). */
function retryLater(err: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted || !(err instanceof ServiceError)) return false;
  return err.kind !== 'cancelled' && err.kind !== 'auth';
}

/**
 * Re-reads the recent window and reconciles: rows the cache lacks are added (`late`), rows whose
 * block, status, fee, time or transfers differ are updated (`changed`), and cached rows the window
 * no longer holds, and that their own second asked again does not return, are removed
 * (`removed`); each recorded in the change log. Removals need a window read whole. Then the seams
 * of this sync's reads are re-read: those between rows of one second always, every one when the
 * list was seen to change (a removal shifts the rows behind it across a page seam); with them
 * every seam an earlier sync could not prove. A seam stays owed (transactions/store/seams.ts) until a re-read
 * of it is proved whole: a failed one is tried again by the next sync.
 */
export async function reconcileRecent(o: RecentOptions, c: LearnedConventions, seams: readonly Seam[], through?: ReadThrough | null): Promise<RecentResult> {
  const result: RecentResult = { window: null, late: 0, changed: 0, removed: 0, seamRows: 0, owed: 0, requests: 0, note: null };
  const window = recentWindow(o.db, o, pageSizeFor(c, o.pageSize));
  let shifted = seams.some((s) => s.repeat);
  const triedNow = new Set<string>();
  if (window) {
    result.window = window;
    // The window was read with the new range, in one request, when nothing was new (readThroughNow).
    const same = through && !through.newRows.length && through.window.startS === window.startS && through.window.endS === window.endS;
    const read = await readWindow(o, c, window.startS, window.endS, same ? through.pages : undefined);
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
          const again = await readStable(o, c, s, s);
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
    learnWindow(o, window, r);
    // Seams or seconds inside the window whose re-read was not proved: owed, and the history there unproved.
    if (read.owed.length) oweSeams(o.db, o.wallet, o.chain, read.owed);
    for (const x of read.owed) triedNow.add(`${x.lo}|${x.hi}`);
    result.late = r.late.length;
    result.changed = r.changed.length;
    result.removed = r.removed.length;
    if (r.removed.length || r.changed.some((x) => x.fields.includes('time'))) shifted = true;
  }
  // The seams of this sync's reads where rows may hide (rows of one second met, or the list
  // shifted) are owed already, written with their pages; when the history changed during the
  // sync, every seam of its reads is. Every seam owed, this sync's and any an earlier sync could
  // not prove, is read again now; one proved is settled, the others stay owed, saying why.
  if (shifted)
    oweSeams(
      o.db,
      o.wallet,
      o.chain,
      distinctSeams(seams).map((s) => ({ lo: s.lo, hi: s.hi, reason: s.tie || s.repeat ? seamReason(s) : SHIFTED })),
    );
  for (const s of owedSeams(o.db, o.wallet, o.chain, MAX_SEAMS)) {
    // Read (and not proved) within the recent window a moment ago: the next sync tries again.
    if (triedNow.has(`${s.lo}|${s.hi}`)) continue;
    let again: WindowRead;
    try {
      again = await readStable(o, c, s.lo, s.hi);
    } catch (err) {
      if (!retryLater(err, o.signal)) throw err;
      // Kept owed with what stopped it; the rest wait for the next sync too (the service is failing now).
      seamNotProved(o.db, o.wallet, o.chain, s, `it failed (${(err as Error).message})`);
      break;
    }
    result.requests += again.requests;
    const rows = [...again.rows.values()].map((x) => x.row);
    result.seamRows += applySeamRead(o.db, o.wallet, o.chain, s, rows, again.whole ? null : (again.unproved ?? SEAM_UNPROVED));
  }
  result.owed = countOwedSeams(o.db, o.wallet, o.chain);
  return result;
}
