/**
 * The user's "clear cache": every cached response, transaction and log deleted, the watched
 * wallets and settings kept. The snapshots are positions' and the history the transactions', so
 * both are cleared here, above the two, as one transaction: all or nothing.
 */
import type { WritableDB } from '../store/handles.ts';
import { clearSnapshots } from '../positions/index.ts';
import { clearHistory } from '../transactions/index.ts';

export function clearCache(db: WritableDB): { snapshots: number; transactions: number } {
  return db.transaction(() => {
    const snapshots = clearSnapshots(db);
    const transactions = clearHistory(db);
    return { snapshots, transactions };
  })();
}
