import type { WalletStatus } from '../../../shared/contract.ts';
import type { JobInfo } from '../../../shared/model.ts';
import { ago } from './format.ts';
import { words } from './words.ts';

export type FreshnessLevel = 'fresh' | 'stale' | 'failed' | 'offline' | 'never' | 'syncing';

/**
 * One line on how current a wallet's cache is. The one source of the sync status words, so
 * the sidebar, the Overview's wallet table and the timeline never disagree: a running job
 * says "Syncing", a failed last sync says "Sync failed" (never "Synced" beside it), offline
 * says what is cached and when.
 */
export function freshness(
  status: WalletStatus | undefined,
  offline: boolean,
  now = Date.now(),
  jobs: readonly JobInfo[] = [],
): { level: FreshnessLevel; text: string; short: string } {
  const running = jobs.some((j) => j.state === 'queued' || j.state === 'running');
  const times = [status?.positionsFetchedAt, status?.transactionsSyncedAt].filter((t): t is string => !!t).sort();
  const last = times.at(-1);
  const when = last ? ago(last, now) : null;
  if (running) return { level: 'syncing', text: `${words.sync.syncing}…${when ? words.sync.last(when) : ''}`, short: `${words.sync.syncing}…` };
  if (status?.lastError) return { level: 'failed', text: `${words.sync.failed}: ${status.lastError.message}`, short: words.sync.failed };
  if (!status || !last) return { level: 'never', text: words.sync.never, short: words.sync.never };
  if (offline) return { level: 'offline', text: `${words.sync.offline} ${when}`, short: `${words.sync.offline} ${when}` };
  const hours = (now - Date.parse(last)) / 3_600_000;
  // The first reason the service's data is not complete (why, and what to do), else the usual case.
  const incomplete = status.incomplete
    ? ` · ${status.incompleteReasons?.[0] ? `incomplete: ${shortReason(status.incompleteReasons[0])}` : words.sync.indexing}`
    : '';
  return {
    level: hours < 24 && !status.incomplete ? 'fresh' : 'stale',
    text: `${words.sync.synced} ${when}${incomplete}`,
    short: `${words.sync.synced} ${when}`,
  };
}

/** A reason the data is incomplete, short enough for a badge (the full text goes in a tooltip). */
export function shortReason(reason: string | undefined, max = 70): string {
  const why = reason?.split(' (')[0]?.split(': recent')[0] ?? 'recent transactions still indexing';
  return why.length > max ? `${why.slice(0, max - 1)}…` : why;
}
