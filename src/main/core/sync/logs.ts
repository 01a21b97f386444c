import type { ServiceClient } from '../api/client.ts';
import { allLogs, judgeLogs } from '../api/paging.ts';
import { loadConventions, recordAnomaly, saveObservedPoints, type LearnedPoint } from '../store/conventions.ts';
import type { Database } from '../store/db.ts';
import { countStoredLogs, getLogSet, type LogSet, saveLogSet } from '../store/logs.ts';

/**
 * Reads every log of a transaction with what was learned of the logs endpoint, judges the
 * read against the service's `total`, learns from it (meaning of `total`, `log_index`, the
 * page cap), and stores it with whether it is whole. A read that cannot be proved whole is
 * stored anyway (it is what the service gave) but flagged, with an anomaly.
 */
export async function readAndStoreLogs(db: Database, client: ServiceClient, chain: string, txnHash: string, signal?: AbortSignal): Promise<LogSet> {
  const c = loadConventions(db);
  const read = await allLogs(client, { txnHash, chain }, signal, { pageBase: c.pageBase, logsTotal: c.logsTotal, logsPageCap: Math.min(c.logsPageCap ?? c.pageSizeMax, c.pageSizeMax) });
  const verdict = judgeLogs(read, c.logsTotal);
  const points: LearnedPoint[] = [];
  const { logsTotal, logIndex, logsPageCap } = verdict.learned;
  if (logsTotal && c.logsTotal === 'unknown') points.push({ key: 'logsTotal', value: logsTotal, status: 'learned', evidence: `a read of ${read.logs.length} logs in ${read.pages} page(s) had total ${read.total}` });
  if (logIndex && c.logIndex !== logIndex) points.push({ key: 'logIndex', value: logIndex, status: 'learned', evidence: logIndex === 'per-page' ? 'log_index repeated across pages of one transaction' : 'log_index distinct across pages of one transaction' });
  if (logsPageCap && c.logsPageCap !== logsPageCap) points.push({ key: 'logsPageCap', value: logsPageCap, status: 'learned', evidence: `asked ${read.pageSize} logs a page, got ${logsPageCap} with more on the next page` });
  if (points.length) saveObservedPoints(db, points);
  const set: LogSet = {
    chain, txnHash, total: read.total, header: read.header, logs: read.logs, requestId: read.requestId,
    fetchedAt: new Date().toISOString(), complete: verdict.complete, note: verdict.note,
  };
  saveLogSet(db, set);
  // Every log read must be stored: a count that differs means rows overwrote each other.
  const stored = countStoredLogs(db, chain, txnHash);
  let note = verdict.note;
  if (stored !== read.logs.length) note = `${read.logs.length} logs read but ${stored} stored`;
  if (note) {
    recordAnomaly(db, { kind: 'logs-count-mismatch', wallet: null, chain, detail: `${txnHash.toLowerCase()}: ${note}` });
    if (note !== verdict.note) saveLogSet(db, { ...set, complete: false, note });
  }
  return getLogSet(db, chain, txnHash)!;
}
