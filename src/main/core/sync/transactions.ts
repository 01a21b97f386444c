import type { ServiceClient } from '../api/client.ts';
import { BadResponseError } from '../api/errors.ts';
import type { Transaction } from '../../../shared/service/schemas.ts';
import type { Database } from '../store/db.ts';
import { completeUntil, dropRangesWithin, listRanges, saveRange, type SyncRange, upsertTransactions } from '../store/transactions.ts';

export interface TxnSyncOptions {
  db: Database;
  client: ServiceClient;
  wallet: string;
  chain: string;
  /** Unix seconds. */
  now: number;
  /** Where history starts for a first sync (Unix seconds). */
  historyStart: number;
  pageSize: number;
  /** Pages requested at once (the client's limiter still caps requests overall). */
  pagesInFlight: number;
  signal?: AbortSignal;
  onPage?: (p: { rowsRead: number; pagesRead: number; range: SyncRange }) => void;
}

export interface TxnSyncResult {
  rowsRead: number;
  pagesRead: number;
  /** Whether everything up to now is indexed by the service (no range left incomplete). */
  complete: boolean;
  ranges: SyncRange[];
}

/**
 * Incremental, resumable transaction sync for one (wallet, chain):
 * 1. ranges left in progress by an interruption resume at their next page;
 * 2. a new range runs from the end of complete history to now.
 * Each page is written with its range's bookkeeping in one transaction, so a crash loses
 * at most the pages in flight; pages are newest first, so rows the service adds meanwhile
 * shift later pages down (overlap, de-duplicated by key), never up (a gap).
 * A range read to its end with completion_ratio below 1 is split: the part up to the
 * newest row received is complete, the rest stays incomplete and is polled again.
 */
export async function syncTransactions(o: TxnSyncOptions): Promise<TxnSyncResult> {
  const totals = { rowsRead: 0, pagesRead: 0 };
  for (const r of listRanges(o.db, o.wallet, o.chain)) {
    if (r.state === 'in_progress') await readRange(o, r, totals);
  }
  const until = completeUntil(listRanges(o.db, o.wallet, o.chain));
  const start = until === null ? o.historyStart : until + 1;
  if (start <= o.now) {
    const range: SyncRange = {
      wallet: o.wallet, chain: o.chain, startTime: start, endTime: o.now, state: 'in_progress', nextPage: 1,
      pageSize: o.pageSize, startBlock: null, endBlock: null, completionRatio: null, rowsRead: 0, updatedAt: new Date().toISOString(),
    };
    saveRange(o.db, range);
    await readRange(o, range, totals);
  }
  const ranges = listRanges(o.db, o.wallet, o.chain);
  return { ...totals, complete: ranges.every((r) => r.state === 'complete'), ranges };
}

interface PageResult {
  page: number;
  rows: Transaction[];
  ratio: number | null;
  startBlock: number | null;
  endBlock: number | null;
}

async function readRange(o: TxnSyncOptions, initial: SyncRange, totals: { rowsRead: number; pagesRead: number }): Promise<void> {
  const range = { ...initial };
  // Pages requested past the short one are aborted once the range is done.
  const abandon = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, abandon.signal]) : abandon.signal;
  const fetchPage = async (page: number): Promise<PageResult> => {
    const res = await o.client.transactionsByWallet(
      { wallet: o.wallet, chain: o.chain, startTime: range.startTime, endTime: range.endTime, page, pageSize: range.pageSize },
      signal,
    );
    const head = res.data[0];
    return { page, rows: res.data.flatMap((d) => d.transaction_history), ratio: head?.completion_ratio ?? null, startBlock: head?.start_block ?? null, endBlock: head?.end_block ?? null };
  };

  // A sliding window of pages in flight, committed strictly in page order.
  const inFlight = new Map<number, Promise<PageResult>>();
  let nextToRequest = range.nextPage ?? 1;
  let previousFirst: string | undefined;
  const fill = () => {
    while (inFlight.size < o.pagesInFlight) {
      const p = fetchPage(nextToRequest);
      p.catch(() => undefined); // awaited below; silence pages abandoned after a failure
      inFlight.set(nextToRequest, p);
      nextToRequest++;
    }
  };
  try {
    for (;;) {
      fill();
      const page = range.nextPage!;
      const result = await inFlight.get(page)!;
      inFlight.delete(page);
      const first = result.rows[0]?.txn_hash;
      if (first !== undefined && first === previousFirst) {
        throw new BadResponseError('(txn_by_wallet)', 'data[0].transaction_history', `page ${page} repeats page ${page - 1}: the service ignored paging`);
      }
      previousFirst = first;
      const last = result.rows.length < range.pageSize;
      if (result.ratio !== null) range.completionRatio = Math.min(range.completionRatio ?? 1, result.ratio);
      if (page === 1 || range.startBlock === null) {
        range.startBlock = result.startBlock;
        range.endBlock = result.endBlock;
      }
      range.rowsRead += result.rows.length;
      range.updatedAt = new Date().toISOString();
      o.db.transaction(() => {
        upsertTransactions(o.db, o.wallet, o.chain, result.rows);
        if (!last) {
          range.nextPage = page + 1;
          saveRange(o.db, range);
        } else {
          finishRange(o, range);
        }
      }).immediate();
      totals.rowsRead += result.rows.length;
      totals.pagesRead++;
      o.onPage?.({ ...totals, range: { ...range } });
      if (last) return;
    }
  } finally {
    // Pages fetched beyond the short one (or after a failure) are dropped unwritten.
    abandon.abort();
    inFlight.clear();
  }
}

/** Closes a range read to its end, in the caller's transaction. */
function finishRange(o: TxnSyncOptions, range: SyncRange): void {
  o.db.prepare('DELETE FROM txn_sync_ranges WHERE wallet = ? AND chain = ? AND start_time = ? AND end_time = ?').run(o.wallet, o.chain, range.startTime, range.endTime);
  const base = { ...range, nextPage: null };
  if (range.completionRatio === null || range.completionRatio >= 1) {
    const done: SyncRange = { ...base, state: 'complete' };
    saveRange(o.db, done);
    dropRangesWithin(o.db, o.wallet, o.chain, range.startTime, range.endTime, done);
    return;
  }
  // Indexed up to at most the newest row received, and at most what the ratio claims.
  const newest = o.db
    .prepare('SELECT max(time) AS t FROM transactions WHERE wallet = ? AND chain = ? AND time BETWEEN ? AND ?')
    .get(o.wallet, o.chain, range.startTime * 1000, range.endTime * 1000 + 999) as { t: number | null };
  const byRatio = range.startTime + Math.floor(range.completionRatio * (range.endTime - range.startTime));
  const boundary = newest.t === null ? range.startTime : Math.min(Math.floor(newest.t / 1000), byRatio);
  if (boundary > range.startTime) {
    const done: SyncRange = { ...base, endTime: boundary - 1, state: 'complete', completionRatio: 1 };
    saveRange(o.db, done);
    dropRangesWithin(o.db, o.wallet, o.chain, range.startTime, boundary - 1, done);
  }
  const open: SyncRange = { ...base, startTime: Math.max(boundary, range.startTime), state: 'incomplete' };
  saveRange(o.db, open);
  dropRangesWithin(o.db, o.wallet, o.chain, open.startTime, open.endTime, open);
}
