import type { LearnedConventions } from '../../../shared/conventions.ts';
import type { Transaction } from '../../../shared/service/schemas.ts';

/**
 * Applying learned conventions to a read: the bounds and page numbers to send, and what a
 * page proves. Pure functions, so every reading's consequence is testable on its own.
 */

/** start_time / end_time for the inclusive range [startS, endS] of Unix seconds. */
export function queryBounds(c: LearnedConventions, startS: number, endS: number): { startTime: number; endTime: number } {
  // Not proven inclusive: widen by one unit each side. Rows just outside are rows of the
  // neighbouring range, de-duplicated by key, so widening never loses or doubles anything.
  const pad = c.bounds === 'inclusive' ? 0 : 1;
  if (c.timeUnit === 'ms') return { startTime: Math.max(0, startS * 1000 - pad), endTime: endS * 1000 + 999 + pad };
  return { startTime: Math.max(0, startS - pad), endTime: endS + pad };
}

/** The `page` to send for the client's n-th page (1 = first). */
export function pageParam(c: LearnedConventions, ordinal: number): number {
  return c.pageBase + ordinal - 1;
}

/** The page size to ask for: the largest the service serves, within the caller's limit. */
export function pageSizeFor(c: LearnedConventions, limit?: number): number {
  return Math.max(1, Math.min(limit ?? c.pageSizeCap, c.pageSizeCap));
}

export type PageVerdict =
  | { kind: 'more' }
  /** The read is proved finished; `store`: whether this page's rows are new. */
  | { kind: 'end'; store: boolean; proof: string }
  /** The read cannot be finished correctly: the range stays incomplete with this reason. */
  | { kind: 'stuck'; reason: string };

/** The same rows, in whatever order: a service whose order moves between requests repeats a page in another order. */
function sameRows(a: readonly Transaction[], b: readonly Transaction[]): boolean {
  if (a.length !== b.length || !a.length) return a.length === b.length;
  // Consecutive pages share no row as a rule: a scan for the first row says so without a set.
  const first = a[0]!.txn_hash.toLowerCase();
  if (!b.some((t) => t.txn_hash.toLowerCase() === first)) return false;
  const inB = new Set(b.map((t) => t.txn_hash.toLowerCase()));
  return a.every((t) => inB.has(t.txn_hash.toLowerCase()));
}

/**
 * What a page proves, given the previous page of the same read:
 * - an empty page ends the read;
 * - a page that repeats the previous one ends it when the service is known to page (a page
 *   past the end that repeats the last one), and makes it stuck when it ignores `page`;
 * - a short page ends it only when the page size asked is proven served whole;
 * - anything else asks for the next page.
 */
export function judgePage(c: LearnedConventions, asked: number, rows: readonly Transaction[], previous: readonly Transaction[] | null): PageVerdict {
  if (rows.length === 0) return { kind: 'end', store: false, proof: 'an empty page' };
  if (previous && sameRows(rows, previous)) {
    if (c.pagingWorks === true) return { kind: 'end', store: false, proof: 'a page past the end repeated the last one' };
    return {
      kind: 'stuck',
      reason:
        c.pagingWorks === false
          ? `the service ignores the page number: only the first ${previous.length} rows of this range can be read`
          : 'a page repeated the previous one and it is not known whether the service pages',
    };
  }
  if (c.capProven && rows.length < Math.min(asked, c.pageSizeCap))
    return { kind: 'end', store: true, proof: `a short page (${rows.length} of ${Math.min(asked, c.pageSizeCap)})` };
  return { kind: 'more' };
}

/** Rows dated outside [startS - 1, endS + 1] (Unix seconds): the service did not honour the range. */
export function rowsOutside(rows: readonly Transaction[], startS: number, endS: number): Transaction[] {
  return rows.filter((t) => {
    if (!t.date) return false;
    const s = Math.floor(Date.parse(t.date) / 1000);
    return s < startS - 1 || s > endS + 1;
  });
}
