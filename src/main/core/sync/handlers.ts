/**
 * The operations that start, list and cancel the sync jobs of the cache open now, and read a
 * transaction's event logs (fetched once, then from the cache).
 */
import type { Handlers } from '../handlers.ts';
import type { SyncEngine } from './engine.ts';

type SyncOperations = 'logs.get' | 'sync.positions' | 'sync.backfill' | 'sync.transactions' | 'sync.all' | 'sync.cancel' | 'sync.jobs';

/** `engine`: the sync engine of the cache open now (it changes with the service). */
export function syncHandlers(engine: () => SyncEngine): Pick<Handlers, SyncOperations> {
  return {
    'logs.get': ({ chain, txnHash, refresh }) => engine().logs(chain, txnHash, { refresh: refresh ?? false }),
    'sync.positions': ({ wallet: address, date }) => engine().syncPositions(address, date ? { date } : {}).info,
    'sync.backfill': (req) => engine().backfill(req).info,
    'sync.transactions': ({ wallet: address }) => engine().syncTransactions(address).info,
    'sync.all': (req) =>
      engine()
        .syncAll({ ...(req?.wallet && { wallet: req.wallet }), ...(req?.date && { date: req.date }) })
        .map((j) => j.info),
    'sync.cancel': ({ jobId }) => engine().cancel(jobId),
    'sync.jobs': () => engine().jobs(),
  };
}
