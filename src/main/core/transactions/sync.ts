import {
  type ServiceClient,
  listAnomalies,
  loadConventions,
  recordAnomaly,
  requestRelearn,
  resolveAnomalies,
  saveObservedPoints,
  ensureConventions,
  judgePage,
  pageParam,
  pageSizeFor,
  queryBounds,
  rowsOutside,
} from '../service/index.ts';
import { conventionEvidence } from '../../../shared/convention-evidence.ts';
import { hasPositionActivity } from '../positions/index.ts';
import type { LearnedConventions } from '../../../shared/conventions.ts';
import { combineRatios, isFraction, provesWhole } from '../../../shared/service/completion-ratio.ts';
import type { Transaction } from '../../../shared/service/schemas.ts';
import type { WritableDB } from '../store/db.ts';
import {
  capRangesAt,
  completeUntil,
  deleteRange,
  forgetAllRanges,
  hasTransactions,
  listRanges,
  rangeReason,
  saveRange,
  type SyncRange,
} from './store/transactions.ts';
import type { WriteBatchOptions } from './store/write-batch.ts';
import { PageWindow } from './page-window.ts';
import { RangeWriter } from './range-writer.ts';
import type { PageWrite } from './store/page-writes.ts';
import { inThreadWriter } from './store/page-writer.ts';
import { type ReadThrough, readThroughNow, reconcileRecent, type RecentResult, type Seam, seamBetween, seamReason, timeOrdered } from './recent.ts';
import { owedSeamReason, owedSeams, type SeamToRead } from './store/seams.ts';

export interface TxnSyncOptions {
  db: WritableDB;
  client: ServiceClient;
  wallet: string;
  chain: string;
  /** Unix seconds. */
  now: number;
  /** Where history starts for a first sync (Unix seconds). */
  historyStart: number;
  /** Upper bound on the page size asked; default: the largest the service serves. */
  pageSize?: number;
  /** Pages requested at once (the client's limiter still caps requests overall). */
  pagesInFlight: number;
  signal?: AbortSignal;
  /** How pages are grouped into transactions (see WriteBatch). */
  batch?: WriteBatchOptions;
  /** Rows read in a range before its writes move to the write worker (default 10,000; Infinity: never). */
  workerFromRows?: number;
  /** Re-read and reconcile the recent window after the reads (default true; see recent.ts). */
  recheckRecent?: boolean;
  /** Reads of one page seam or second whose order moves between requests, at most (default: recent.ts's bound). */
  seamReads?: number;
  /** After each page is written; `oldestTime` is its oldest row's time (Unix seconds), if dated. */
  onPage?: (p: { rowsRead: number; pagesRead: number; range: SyncRange; oldestTime: number | null }) => void;
}

export interface TxnSyncResult {
  chain: string;
  rowsRead: number;
  pagesRead: number;
  /** Whether everything up to now is proved complete (no range left incomplete). */
  complete: boolean;
  /** Why not, one line each (the service's completion ratio, an anomaly, a page that could not be read). */
  reasons: string[];
  ranges: SyncRange[];
  /** The recent window re-read and what it restated (null when no history is complete yet). */
  recent: RecentResult | null;
}

/**
 * Incremental, resumable transaction sync for one (wallet, chain):
 * 0. the service's conventions are learned first if they never were (or an anomaly asked);
 * 1. ranges left in progress by an interruption resume at their next page;
 * 2. a new range runs from the end of complete history to now.
 * Each page is written whole with its range's bookkeeping (in a savepoint of a batch of
 * pages, see WriteBatch), so a crash loses at most the pages in flight (fetched, or written
 * but not yet committed) and the committed resume point matches the committed pages. A range is complete only on proof (an empty page, a page past
 * the end repeating the last one, or a short page of a proven page size), and only when the
 * service says it indexed all of it (every page that stated a completion_ratio said 1): a range
 * read to its end with completion_ratio below 1 is split, the part up to the newest row received
 * complete, the rest polled again; one with no ratio, or a ratio that is not a fraction, stays
 * incomplete whole, saying so (closeRange).
 * Anomalies (rows outside the range asked, an empty history while positions show activity)
 * leave the range incomplete, ask for the conventions to be learned again, and are retried
 * once under what is re-learned.
 */
export async function syncTransactions(o: TxnSyncOptions): Promise<TxnSyncResult> {
  const totals = { rowsRead: 0, pagesRead: 0 };
  // Where this sync's pages met (recent.ts): re-read after the reads when they may hide a row.
  const seams: Seam[] = [];
  // Set when a read in no time order met a row twice: the service's order moved under it.
  const unstable = { seen: false };
  // The ranges this sync read (Unix seconds), reopened if they cannot be trusted (below).
  const readSpans: Array<[number, number]> = [];
  let conv = await ensureConventions(o.db, o.client, {
    wallet: o.wallet,
    chain: o.chain,
    nowMs: o.now * 1000,
    forgetRanges: forgetAllRanges,
    ...(o.signal && { signal: o.signal }),
  });
  // The new range and the recent window, when one request read both (tried once: a second run
  // under conventions learned again reads as before).
  let through: ReadThrough | null = null;
  let triedThrough = false;
  const runOnce = async (c: LearnedConventions) => {
    const anomalies: string[] = [];
    // A read restarts (at most twice) when it finds the service cuts pages shorter than asked.
    const readToEnd = async (range: SyncRange, narrow = true): Promise<void> => {
      readSpans.push([range.startTime, range.endTime]);
      let current: SyncRange | undefined = range;
      for (let attempt = 0; current && attempt < 3; attempt++) {
        const outcome = await readRange(o, c, current, totals, anomalies, seams, unstable, narrow);
        if (outcome === 'done') return;
        if (outcome === 'narrow') {
          // Its first page says part of it is not indexed: the part proved indexed now is read
          // as a range of its own (whole), the rest as another, owed until a read proves it.
          const end = await wholePrefix(o, c, current);
          if (end === null) return readToEnd(current, false);
          deleteRange(o.db, o.wallet, o.chain, current.startTime, current.endTime);
          const head: SyncRange = { ...current, endTime: end };
          const tail: SyncRange = { ...current, startTime: end + 1 };
          saveRange(o.db, head);
          saveRange(o.db, tail);
          await readToEnd(head, false);
          return readToEnd(tail, false);
        }
        current = listRanges(o.db, o.wallet, o.chain).find((x) => x.startTime === range.startTime && x.endTime === range.endTime && x.state === 'in_progress');
      }
    };
    for (const r of listRanges(o.db, o.wallet, o.chain)) {
      if (r.state !== 'in_progress') continue;
      // Page numbers of a range are only valid at its page size: one the service does not
      // serve whole (learned since) is read again from its first page.
      const size = pageSizeFor(c, o.pageSize);
      if (r.pageSize > c.pageSizeCap || r.pageSize > c.pageSizeMax) await readToEnd({ ...r, nextPage: 1, pageSize: size });
      else await readToEnd(r);
    }
    const ranges = listRanges(o.db, o.wallet, o.chain);
    const until = completeUntil(ranges);
    const start = until === null ? o.historyStart : until + 1;
    // The new range, from the end of complete history to now, as a read begins it.
    const newRange = (read: Partial<Pick<SyncRange, 'startBlock' | 'endBlock' | 'completionRatio' | 'rowsRead'>> = {}): SyncRange => ({
      wallet: o.wallet,
      chain: o.chain,
      startTime: start,
      endTime: o.now,
      state: 'in_progress',
      nextPage: 1,
      pageSize: pageSizeFor(c, o.pageSize),
      startBlock: null,
      endBlock: null,
      completionRatio: null,
      rowsRead: 0,
      updatedAt: new Date().toISOString(),
      reason: null,
      ...read,
    });
    // A refresh of a history complete to its last sync: the new range and the recent window
    // re-read in one request when one page proves both (recent.ts readThroughNow).
    if (until !== null && start <= o.now && o.recheckRecent !== false && !triedThrough && ranges.every((r) => r.state === 'complete')) {
      triedThrough = true;
      through = await readThroughNow(o, c, until, o.now);
      if (through) {
        const range = newRange({
          startBlock: through.startBlock,
          endBlock: through.endBlock,
          completionRatio: through.ratio,
          rowsRead: through.newRows.length,
        });
        readSpans.push([start, o.now]);
        const rows = through.newRows;
        // Written as a read's last page is (its rows, the range closed, the daily sums kept).
        const writer = inThreadWriter(o.db, o.batch);
        await writer.write({ wallet: o.wallet, chain: o.chain, rows: rows.length ? rows : null, range, close: { anomaly: null } });
        await writer.close();
        totals.rowsRead += rows.length;
        totals.pagesRead++;
        o.onPage?.({ ...totals, range, oldestTime: rows.length ? oldestTime(rows) : null });
        return anomalies;
      }
    }
    if (start <= o.now) {
      const range = newRange();
      saveRange(o.db, range);
      await readToEnd(range);
    }
    return anomalies;
  };
  const relearn = () =>
    ensureConventions(o.db, o.client, {
      wallet: o.wallet,
      chain: o.chain,
      nowMs: o.now * 1000,
      forgetRanges: forgetAllRanges,
      force: true,
      ...(o.signal && { signal: o.signal }),
    });
  // History read before (complete ranges) yet empty, while positions show activity: the
  // reading may have changed or been wrong; learn again before reading on.
  const emptyButActive = () =>
    !hasTransactions(o.db, o.wallet, o.chain) &&
    hasPositionActivity(o.db, o.wallet, o.chain) &&
    listRanges(o.db, o.wallet, o.chain).some((r) => r.state === 'complete');
  const alreadyOpen = () =>
    listAnomalies(o.db, { wallet: o.wallet, openOnly: true }).some((a) => a.chain === o.chain && a.kind === 'empty-history-with-positions');
  // Learned again once per anomaly, not on every sync of a wallet that may truly have none.
  if (emptyButActive() && !alreadyOpen()) {
    recordAnomaly(o.db, { kind: 'empty-history-with-positions', wallet: o.wallet, chain: o.chain, detail: EMPTY_WITH_POSITIONS });
    conv = await relearn();
  }
  const anomalies = await runOnce(conv);
  if (anomalies.length) {
    // Learn again now; if that changes the reading, read again under it (once).
    const before = JSON.stringify(conv);
    conv = await relearn();
    if (JSON.stringify(conv) !== before && (await runOnce(conv)).length === 0) {
      resolveAnomalies(o.db, { wallet: o.wallet, chain: o.chain });
    }
  } else {
    const stillEmpty = !hasTransactions(o.db, o.wallet, o.chain) && hasPositionActivity(o.db, o.wallet, o.chain);
    resolveAnomalies(o.db, {
      wallet: o.wallet,
      chain: o.chain,
      kinds: stillEmpty ? RANGE_ANOMALIES.filter((k) => k !== 'empty-history-with-positions') : RANGE_ANOMALIES,
    });
  }
  // What the service answered for ends at its own clock (the Date of its answers): a range
  // asked up to this computer's "now", set ahead, is cut there, and the next sync reads on from it.
  const serviceNow = o.client.serviceNowMs?.() ?? null;
  if (serviceNow !== null && Math.floor(serviceNow / 1000) < o.now) capRangesAt(o.db, o.wallet, o.chain, Math.floor(serviceNow / 1000));
  // A live service restates what it answered: the recent window is read again and reconciled,
  // and the seams a shifting list may have fooled are read again (recent.ts, docs/service.md).
  const recent = o.recheckRecent === false ? null : await reconcileRecent(o, conv, seams, through);
  // Rows in no time order have no seams to read again: when the history changed during this
  // sync, offset pages may have skipped rows anywhere, so what this sync read is reopened (the
  // next sync reads it again) and the result says why.
  if (recent && !timeOrdered(conv) && (unstable.seen || recent.late + recent.changed + recent.removed > 0)) {
    for (const r of listRanges(o.db, o.wallet, o.chain)) {
      if (r.state === 'complete' && readSpans.some(([a, b]) => r.startTime <= b && a <= r.endTime))
        saveRange(o.db, { ...r, state: 'incomplete', reason: UNORDERED_LIVE });
    }
  }
  const ranges = listRanges(o.db, o.wallet, o.chain);
  // Unresolved anomalies of this wallet and chain keep the result incomplete, with their why.
  const open = listAnomalies(o.db, { wallet: o.wallet, openOnly: true }).filter((a) => a.chain === o.chain);
  // Seams still owed a re-read (this sync's or an earlier one's, transactions/store/seams.ts) leave the history there unproved.
  const owed = owedSeams(o.db, o.wallet, o.chain);
  const reasons = [
    ...new Set([
      ...ranges.filter((r) => r.state !== 'complete').map((r) => rangeReason(r)),
      ...open.map((a) => a.detail),
      ...(recent?.note ? [recent.note] : []),
      ...(owed.length ? [owedSeamReason(owed)!] : []),
    ]),
  ];
  return {
    chain: o.chain,
    ...totals,
    complete: ranges.length > 0 && ranges.every((r) => r.state === 'complete') && open.length === 0 && !recent?.note && owed.length === 0,
    reasons,
    ranges,
    recent: recent?.window ? recent : null,
  };
}

const UNORDERED_LIVE =
  'the service returns rows in no time order, and its history or its order changed during the read: pages may have skipped rows, so this range is read again on the next sync';

const EMPTY_WITH_POSITIONS =
  'the whole history came back empty although the wallet holds positions on this chain: the service may read the time range or pages another way';

const RANGE_ANOMALIES = ['rows-outside-range', 'empty-history-with-positions', 'repeated-page'];

interface PageResult {
  page: number;
  rows: Transaction[];
  ratio: number | null;
  startBlock: number | null;
  endBlock: number | null;
}

/**
 * Reads a range to its proved end ('done'), or stops to read it again at a smaller page size
 * ('restart'). Three parts, each with its own state: the pages in flight (PageWindow), where
 * they are written (RangeWriter: here, starting the worker, on the worker), and this loop, which
 * judges each page in order and says what to write with it.
 */
async function readRange(
  o: TxnSyncOptions,
  c: LearnedConventions,
  initial: SyncRange,
  totals: { rowsRead: number; pagesRead: number },
  anomalies: string[],
  seams: Seam[],
  unstable: { seen: boolean },
  narrow: boolean,
): Promise<'done' | 'restart' | 'narrow'> {
  const range = { ...initial, reason: null };
  const bounds = queryBounds(c, range.startTime, range.endTime);
  const pages = new PageWindow<PageResult>(
    async (page, signal) => {
      const res = await o.client.transactionsByWallet(
        { wallet: o.wallet, chain: o.chain, ...bounds, page: pageParam(c, page), pageSize: range.pageSize },
        signal,
      );
      const head = res.data[0];
      return {
        page,
        rows: res.data.flatMap((d) => d.transaction_history),
        ratio: head?.completion_ratio ?? null,
        startBlock: head?.start_block ?? null,
        endBlock: head?.end_block ?? null,
      };
    },
    range.nextPage ?? 1,
    o.pagesInFlight,
    o.signal,
  );
  const out = new RangeWriter(o.db, { batch: o.batch, workerFromRows: o.workerFromRows });
  let previous: Transaction[] | null = null;
  const seenInRead = new Set<string>();
  let failed = false;
  try {
    for (;;) {
      const page = range.nextPage!;
      const result = await pages.take(page);
      // A fresh range whose service says it has not indexed all of it: find where it has before reading on.
      if (narrow && page === 1 && range.rowsRead === 0 && result.ratio !== null && isFraction(result.ratio) && !provesWhole(result.ratio)) return 'narrow';
      const verdict = judgePage(c, range.pageSize, result.rows, previous);
      // A page shorter than asked followed by more rows: the service cuts pages to that size.
      // Read the range again at that size: a service may number pages by the size asked, so
      // pages read at a size it does not serve whole may have skipped rows.
      if (previous && previous.length < range.pageSize && result.rows.length > 0 && verdict.kind === 'more') {
        await out.beforeMainWrite();
        noteObservedCap(o.db, previous.length);
        saveRange(o.db, { ...range, nextPage: 1, pageSize: previous.length, updatedAt: new Date().toISOString() });
        return 'restart';
      }
      const store = verdict.kind === 'more' || (verdict.kind === 'end' && verdict.store);
      // Seams owed a re-read (rows of one second met, or the list shifted), written with the page.
      let owe: SeamToRead[] | undefined;
      if (previous && store && result.rows.length && timeOrdered(c)) {
        // (A page past the end repeating the last one is no seam: it is not stored.)
        const seam = seamBetween(previous, result.rows);
        if (seam) seams.push(seam);
        if (seam && (seam.tie || seam.repeat) && o.recheckRecent !== false) owe = [{ lo: seam.lo, hi: seam.hi, reason: seamReason(seam) }];
      } else if (!timeOrdered(c) && !unstable.seen && verdict.kind === 'more') {
        // No seams to place: a row met twice in one read says the order moved between requests.
        for (const t of result.rows) {
          const h = t.txn_hash.toLowerCase();
          if (seenInRead.has(h)) unstable.seen = true;
          seenInRead.add(h);
        }
      }
      previous = result.rows;
      // What every page said is kept: one below 1, or not a fraction, and the range is not whole.
      range.completionRatio = combineRatios(range.completionRatio, result.ratio);
      if (page === 1 || range.startBlock === null) {
        range.startBlock = result.startBlock;
        range.endBlock = result.endBlock;
      }
      if (store) range.rowsRead += result.rows.length;
      range.updatedAt = new Date().toISOString();
      const { anomaly, seenBefore } = await pageAnomaly(o, range, result.rows, verdict, () => out.beforeMainWrite());
      const finished = verdict.kind !== 'more' || anomaly !== null;
      if (!finished) {
        await out.beforePage(range.rowsRead - (initial.rowsRead ?? 0));
        range.nextPage = page + 1;
      }
      const written: PageWrite = {
        wallet: o.wallet,
        chain: o.chain,
        rows: store ? result.rows : null,
        range: { ...range },
        close: finished ? { anomaly } : null,
        ...(owe && { seams: owe }),
      };
      const rows = store ? result.rows.length : 0;
      const oldest = store ? oldestTime(result.rows) : null;
      // Progress counts written pages only.
      await out.write(written, () => {
        totals.rowsRead += rows;
        totals.pagesRead++;
        o.onPage?.({ ...totals, range: written.range, oldestTime: oldest });
      });
      if (anomaly && !seenBefore) {
        anomalies.push(anomaly);
        await out.beforeMainWrite();
        requestRelearn(o.db);
      }
      pages.widen();
      if (finished) {
        await out.drain();
        return 'done';
      }
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // The pages written are whole, with their resume point: keep them whatever stopped the read.
    pages.close();
    await out.close(failed);
  }
}

/** Narrowing stops when the part not proved indexed is known to within this many seconds. */
const NARROW_RESOLUTION_S = 3600;
/** Requests one narrowing may make at most (a ten-year range to the hour takes 17). */
const NARROW_PROBES = 24;
/** The prefix proved is shortened by 1/PREFIX_MARGIN of its length (see wholePrefix). */
const PREFIX_MARGIN = 100;

/**
 * The end of the longest prefix of `range` the service says it has indexed whole now (its
 * completion_ratio for [start, end] is 1), found by halving with one-row requests; null when no
 * prefix is proved. Asked before the prefix is read, so a ratio of 1 covers the rows that read
 * then returns (an indexer does not forget what it indexed). It assumes nothing of where the
 * part not indexed lies: recent rows still indexing and a gap backfilled in the middle of the
 * range are both found. A service whose ratio does not depend on the range asked proves no
 * prefix, and the range is read, and owed, whole.
 */
async function wholePrefix(o: TxnSyncOptions, c: LearnedConventions, range: SyncRange): Promise<number | null> {
  let whole = range.startTime - 1;
  let notWhole = range.endTime;
  for (let probe = 0; probe < NARROW_PROBES && notWhole - whole > NARROW_RESOLUTION_S; probe++) {
    const mid = whole + Math.floor((notWhole - whole) / 2);
    const res = await o.client.transactionsByWallet(
      { wallet: o.wallet, chain: o.chain, ...queryBounds(c, range.startTime, mid), page: pageParam(c, 1), pageSize: 1 },
      o.signal,
    );
    if (provesWhole(res.data[0]?.completion_ratio ?? null)) whole = mid;
    else notWhole = mid;
  }
  // A ratio is rounded by some services (four decimals: 1 for a prefix whose hole is under 0.005 %
  // of it), and halving finds the boundary exactly where rounding hides the hole's first seconds:
  // the prefix kept ends a hundredth of its length earlier, clear of any rounding to two decimals.
  const end = whole - Math.ceil((whole - range.startTime + 1) / PREFIX_MARGIN);
  return end >= range.startTime ? end : null;
}

/**
 * What a page says is wrong with the service's reading, recorded (after the pages posted are
 * committed): rows dated outside the range asked, a page repeated, or no history at all where
 * the wallet holds positions. `seenBefore`: that last one was already open, so no new learning run.
 */
async function pageAnomaly(
  o: TxnSyncOptions,
  range: SyncRange,
  rows: readonly Transaction[],
  verdict: ReturnType<typeof judgePage>,
  beforeMainWrite: () => Promise<void>,
): Promise<{ anomaly: string | null; seenBefore: boolean }> {
  const outside = rowsOutside(rows as Transaction[], range.startTime, range.endTime);
  if (outside.length) {
    const anomaly = `the service returned ${outside.length} row(s) dated outside the range asked (e.g. ${outside[0]!.date}): it may not read start_time/end_time as learned`;
    await beforeMainWrite();
    recordAnomaly(o.db, { kind: 'rows-outside-range', wallet: o.wallet, chain: o.chain, detail: anomaly });
    return { anomaly, seenBefore: false };
  }
  if (verdict.kind === 'stuck') {
    await beforeMainWrite();
    recordAnomaly(o.db, { kind: 'repeated-page', wallet: o.wallet, chain: o.chain, detail: verdict.reason });
    return { anomaly: verdict.reason, seenBefore: false };
  }
  if (verdict.kind !== 'more' && range.rowsRead === 0 && range.startTime <= o.historyStart && hasPositionActivity(o.db, o.wallet, o.chain)) {
    await beforeMainWrite();
    // Still unexplained since it was first seen (and learned again for): no new learning run.
    const seenBefore = listAnomalies(o.db, { wallet: o.wallet, openOnly: true }).some((a) => a.chain === o.chain && a.kind === 'empty-history-with-positions');
    recordAnomaly(o.db, { kind: 'empty-history-with-positions', wallet: o.wallet, chain: o.chain, detail: EMPTY_WITH_POSITIONS });
    return { anomaly: EMPTY_WITH_POSITIONS, seenBefore };
  }
  return { anomaly: null, seenBefore: false };
}

function oldestTime(rows: readonly Transaction[]): number | null {
  let oldest = Infinity;
  for (const r of rows) {
    const ms = r.date ? Date.parse(r.date) : NaN;
    if (ms < oldest) oldest = ms;
  }
  return Number.isFinite(oldest) ? Math.floor(oldest / 1000) : null;
}

function noteObservedCap(db: WritableDB, n: number): void {
  const c = loadConventions(db);
  if (c.capProven && c.pageSizeCap === n) return;
  saveObservedPoints(db, [
    { key: 'pageSizeCap', value: n, status: 'learned', evidence: conventionEvidence('syncCap', { n }) },
    { key: 'capProven', value: true, status: 'learned', evidence: conventionEvidence('syncCap', { n }) },
  ]);
}
