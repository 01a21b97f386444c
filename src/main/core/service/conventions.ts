/**
 * The conventions a sync reads with: those stored, learned first when they never were or an
 * anomaly asked for it (or `force`). One learning run at a time per cache: concurrent syncs
 * wait for the same run. When re-learning changes a point that decides which rows a range
 * holds, every range's bookkeeping is dropped so history is read again under the new reading
 * (rows are kept; reads de-duplicate).
 */

import type { ServiceClient } from './client.ts';
import type { LearnedConventions } from '../../../shared/conventions.ts';
import { learningState, loadConventions, saveLearningRun } from './store/conventions.ts';
import type { WritableDB } from '../store/db.ts';
import { learnConventions } from './learn.ts';

const running = new WeakMap<WritableDB, Promise<LearnedConventions>>();

/** Whether ranges read under `before` may hold the wrong rows under `after`. */
export function invalidatesRanges(before: LearnedConventions, after: LearnedConventions): boolean {
  return (
    before.timeUnit !== after.timeUnit ||
    before.pageBase !== after.pageBase ||
    (before.bounds === 'inclusive' && after.bounds !== 'inclusive') ||
    after.pageSizeCap < before.pageSizeCap ||
    (after.pagingWorks === false && before.pagingWorks !== false)
  );
}

export async function ensureConventions(
  db: WritableDB,
  client: ServiceClient,
  o: {
    wallet: string;
    chain: string;
    nowMs: number;
    /** Drops every range's bookkeeping (the transactions capability's), when a new reading invalidates it. */
    forgetRanges: (db: WritableDB) => void;
    force?: boolean;
    signal?: AbortSignal;
  },
): Promise<LearnedConventions> {
  const pending = running.get(db);
  if (pending) return pending;
  if (!o.force && !learningState(db).relearn) return loadConventions(db);
  const run = (async () => {
    // Ranges synced before any learning were read the old way: 1-based, seconds, bounds taken
    // as inclusive. Compare with that, so a service that reads them otherwise is read again.
    const firstRun = learningState(db).learnedAt === null;
    const before: LearnedConventions = firstRun ? { ...loadConventions(db), bounds: 'inclusive' } : loadConventions(db);
    const result = await learnConventions(client, { wallet: o.wallet, chain: o.chain, nowMs: o.nowMs, ...(o.signal && { signal: o.signal }) });
    saveLearningRun(
      db,
      result.points,
      { requests: result.requests, wallet: o.wallet, complete: result.conclusive },
      (after) => invalidatesRanges(before, after),
      o.forgetRanges,
    );
    return loadConventions(db);
  })().finally(() => running.delete(db));
  running.set(db, run);
  return run;
}
