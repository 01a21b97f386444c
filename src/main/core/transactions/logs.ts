import {
  type ServiceClient,
  allLogs,
  judgeLogs,
  LOGS_BOUNDS,
  type LogsBounds,
  type LogsRead,
  type LogsVerdict,
  readLogs,
  loadConventions,
  recordAnomaly,
  saveObservedPoints,
  type LearnedPoint,
} from '../service/index.ts';
import { conventionEvidence } from '../../../shared/convention-evidence.ts';
import type { LearnedConventions } from '../../../shared/conventions.ts';
import type { WritableDB } from '../store/db.ts';
import { beginLogRead, commitLogRead, countStoredLogs, discardLogRead, getLogSet, markLogSetIncomplete, stageLogs } from './store/logs.ts';
import type { LogSet } from '../../../shared/model.ts';

/**
 * Reads every log of a transaction with what was learned of the logs endpoint, judges the
 * read against the service's `total`, learns from it (meaning of `total`, `log_index`, the
 * page cap), and stores it with whether it is whole. A read that cannot be proved whole is
 * stored anyway (it is what the service gave) but flagged, with an anomaly.
 *
 * Bounded whatever the service sends (`bounds`, default LOGS_BOUNDS: logs and bytes kept, pages
 * asked, and the wall time of the whole call, a second read included): pages are staged in the
 * store as they come, so memory holds one page, and a read a bound stops is stored flagged
 * incomplete, its note saying which bound and what `total` claimed. Cancelling `signal` stores
 * nothing and leaves the cached set as it was.
 */
export async function readAndStoreLogs(
  db: WritableDB,
  client: ServiceClient,
  chain: string,
  txnHash: string,
  signal?: AbortSignal,
  bounds: Partial<LogsBounds> = {},
): Promise<LogSet> {
  const limits = { ...LOGS_BOUNDS, ...bounds };
  const deadline = Date.now() + limits.maxMs;
  const readWith = async (c: LearnedConventions) => {
    beginLogRead(db, chain, txnHash);
    const read = await readLogs(
      client,
      { txnHash, chain },
      {
        ...(signal && { signal }),
        reading: { pageBase: c.pageBase, logsTotal: c.logsTotal, logsPageCap: Math.min(c.logsPageCap ?? c.pageSizeMax, c.pageSizeMax) },
        bounds: limits,
        deadline,
        onPage: (logs, from) => stageLogs(db, chain, txnHash, from, logs),
      },
    );
    return { read, verdict: judgeLogs(read, c.logsTotal) };
  };
  try {
    let c = loadConventions(db);
    let { read, verdict } = await readWith(c);
    if (!verdict.complete && !read.stopped && c.logsTotal !== 'unknown') {
      // What `total` was learned to count does not fit this read: forget it and read again to
      // the empty page, which judges the read without it (and may learn it anew). A read a
      // bound stopped says nothing of `total`: it is not a reason to learn again.
      saveObservedPoints(db, [
        {
          key: 'logsTotal',
          value: 'unknown',
          status: 'unknown',
          evidence: conventionEvidence('logsNeither', { count: read.count, total: String(read.total) }),
        },
      ]);
      c = loadConventions(db);
      ({ read, verdict } = await readWith(c));
    }
    learnFromLogs(db, read, verdict, c);
    commitLogRead(db, {
      chain,
      txnHash,
      total: read.total,
      header: read.header,
      requestId: read.requestId,
      fetchedAt: new Date().toISOString(),
      complete: verdict.complete,
      note: verdict.note,
    });
    // Every log read must be stored: a count that differs means rows overwrote each other.
    const stored = countStoredLogs(db, chain, txnHash);
    let note = verdict.note;
    if (stored !== read.count) note = `${read.count} logs read but ${stored} stored`;
    if (note) {
      recordAnomaly(db, { kind: read.stopped ? 'logs-read-stopped' : 'logs-count-mismatch', wallet: null, chain, detail: `${txnHash.toLowerCase()}: ${note}` });
      if (note !== verdict.note) markLogSetIncomplete(db, chain, txnHash, note);
    }
    return getLogSet(db, chain, txnHash)!;
  } finally {
    try {
      discardLogRead(db, chain, txnHash);
    } catch {
      // The connection closed under the read (the app quitting): its temporary store went with it.
    }
  }
}

function learnFromLogs(db: WritableDB, read: LogsRead, verdict: LogsVerdict, c: LearnedConventions): void {
  const points: LearnedPoint[] = [];
  const { logsTotal, logIndex, logsPageCap } = verdict.learned;
  if (logsTotal && c.logsTotal === 'unknown')
    points.push({
      key: 'logsTotal',
      value: logsTotal,
      status: 'learned',
      evidence: conventionEvidence('logsTotal', { count: read.count, pages: read.pages, size: read.pageSize, total: String(read.total) }),
    });
  if (logIndex && c.logIndex !== logIndex)
    points.push({
      key: 'logIndex',
      value: logIndex,
      status: 'learned',
      evidence: conventionEvidence(logIndex === 'per-page' ? 'logIndexPerPage' : 'logIndexGlobal'),
    });
  if (logsPageCap && c.logsPageCap !== logsPageCap)
    points.push({
      key: 'logsPageCap',
      value: logsPageCap,
      status: 'learned',
      evidence: conventionEvidence('logsCap', { size: read.pageSize, cap: logsPageCap }),
    });
  if (points.length) saveObservedPoints(db, points);
}

/**
 * The service check's logs probe: one transaction's logs in pages of two (at most six pages),
 * which tells a `total` of logs from one of pages and shows whether `log_index` restarts per
 * page. Nothing is stored but what it teaches; a read not finished within six pages teaches nothing.
 */
export async function probeLogs(db: WritableDB, client: ServiceClient, chain: string, txnHash: string, signal?: AbortSignal): Promise<boolean> {
  const c = loadConventions(db);
  const read = await allLogs(client, { txnHash, chain, pageSize: 2 }, signal, { pageBase: c.pageBase, maxPages: 6 });
  if (!read.ended) return false;
  const verdict = judgeLogs(read, 'unknown');
  // A probe at two a page says nothing about the logs page cap: it is left out of what is learned.
  const learned = { ...verdict.learned };
  delete learned.logsPageCap;
  learnFromLogs(db, read, { ...verdict, learned }, { ...c, logsTotal: 'unknown' });
  return verdict.learned.logsTotal !== undefined;
}
