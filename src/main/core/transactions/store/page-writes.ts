import type { Transaction } from '../../../../shared/service/schemas.ts';
import type { WritableDB } from '../../store/db.ts';
import { provesWhole } from '../../../../shared/service/completion-ratio.ts';
import { oweSeams, type SeamToRead } from './seams.ts';
import { deleteRange, dropRangesWithin, newestTransactionTime, ratioReason, saveRange, type SyncRange, upsertTransactions } from './transactions.ts';

/**
 * One page of a transaction sync as data: its rows and the bookkeeping written with them, so
 * it can be written on this thread or posted to the write worker (plain, cloneable values).
 */
export interface PageWrite {
  wallet: string;
  chain: string;
  /** The page's rows, or null when the page is not stored (the repeat that proves an end). */
  rows: Transaction[] | null;
  /** The range as it stands after this page (its next page when `close` is null). */
  range: SyncRange;
  /** Set on the range's last page: the range is closed (complete, or incomplete with a why). */
  close: { anomaly: string | null } | null;
  /** Where this page met the previous one in a way that may hide rows: owed a re-read (transactions/store/seams.ts) from this page's commit on. */
  seams?: SeamToRead[];
}

/** Writes a page and its range's bookkeeping (no transaction of its own: the caller's batch holds it). */
export function writePage(db: WritableDB, p: PageWrite): void {
  if (p.rows) upsertTransactions(db, p.wallet, p.chain, p.rows);
  if (p.seams?.length) oweSeams(db, p.wallet, p.chain, p.seams);
  if (p.close) closeRange(db, p.range, p.close.anomaly);
  else saveRange(db, p.range);
}

/**
 * Closes a range read to its end. With an anomaly it stays incomplete (read again next sync).
 * Complete only when the service says it indexed all of it: every page of the range that stated
 * a completion_ratio said 1 (`range.completionRatio` combines them, see combineRatios). A
 * fraction below 1 splits it: the part up to the newest row received (and at most what the
 * ratio claims) is complete, the rest incomplete, to be polled again. No ratio at all, or one
 * that is not a fraction (above 1, negative), proves nothing: the whole range stays incomplete,
 * with a reason naming it, and is read again. Ranges the closed ones cover are dropped.
 */
export function closeRange(db: WritableDB, range: SyncRange, anomaly: string | null): void {
  deleteRange(db, range.wallet, range.chain, range.startTime, range.endTime);
  const base = { ...range, nextPage: null };
  if (anomaly) {
    saveRange(db, { ...base, state: 'incomplete', reason: anomaly });
    return;
  }
  const unproved = ratioReason(range.completionRatio);
  if (unproved) {
    const open: SyncRange = { ...base, state: 'incomplete', reason: unproved };
    saveRange(db, open);
    dropRangesWithin(db, range.wallet, range.chain, range.startTime, range.endTime, open);
    return;
  }
  const ratio = range.completionRatio!;
  if (provesWhole(ratio)) {
    const done: SyncRange = { ...base, state: 'complete' };
    saveRange(db, done);
    dropRangesWithin(db, range.wallet, range.chain, range.startTime, range.endTime, done);
    return;
  }
  const newest = newestTransactionTime(db, range.wallet, range.chain, range.startTime, range.endTime);
  const byRatio = range.startTime + Math.floor(ratio * (range.endTime - range.startTime));
  const boundary = newest === null ? range.startTime : Math.min(newest, byRatio);
  if (boundary > range.startTime) {
    const done: SyncRange = { ...base, endTime: boundary - 1, state: 'complete', completionRatio: 1 };
    saveRange(db, done);
    dropRangesWithin(db, range.wallet, range.chain, range.startTime, boundary - 1, done);
  }
  const open: SyncRange = { ...base, startTime: Math.max(boundary, range.startTime), state: 'incomplete' };
  saveRange(db, open);
  dropRangesWithin(db, range.wallet, range.chain, open.startTime, open.endTime, open);
}
