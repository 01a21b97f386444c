import type { Transaction } from '../../../../shared/service/schemas.ts';
import type { WritableDB } from '../../store/db.ts';
import { provesWhole } from '../../../../shared/service/completion-ratio.ts';
import { oweSeams, type SeamToRead } from './seams.ts';
import { deleteRange, ratioReason, saveRange, supersedeRanges, type SyncRange, upsertTransactions } from './transactions.ts';

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
 * a completion_ratio said 1 (`range.completionRatio` combines them, see combineRatios). Anything
 * else leaves the whole range incomplete, owed until a read of it proves it whole: a fraction
 * below 1 says how much is indexed, not where the rest lies (a gap backfilled in the middle of a
 * range reads the same as recent rows still indexing), so no part of it is taken as whole. The
 * sync narrows such a range before it reads it (transactions/sync.ts `wholePrefix`), so what is
 * owed is the part from the first second not proved indexed. No ratio at all, or one that is not
 * a fraction (above 1, negative), proves nothing either, with a reason naming it. Ranges the
 * closed one covers are superseded (supersedeRanges).
 */
export function closeRange(db: WritableDB, range: SyncRange, anomaly: string | null): void {
  deleteRange(db, range.wallet, range.chain, range.startTime, range.endTime);
  const base = { ...range, nextPage: null };
  if (anomaly) {
    saveRange(db, { ...base, state: 'incomplete', reason: anomaly });
    return;
  }
  const closed: SyncRange = { ...base, state: provesWhole(range.completionRatio) ? 'complete' : 'incomplete', reason: ratioReason(range.completionRatio) };
  saveRange(db, closed);
  supersedeRanges(db, closed);
}
