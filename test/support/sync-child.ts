/**
 * A sync in a child process, for the crash test: syncs one wallet's transactions into the
 * cache at DB_PATH from the simulator at SIM_URL, printing the rows written so far.
 * The parent kills it with SIGKILL in the middle.
 */
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { addWallet, getWallet } from '../../src/main/core/store/wallets.ts';
import { SyncEngine } from '../../src/main/core/sync/engine.ts';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const db = openDatabase(env('DB_PATH'));
if (!getWallet(db, env('WALLET'))) addWallet(db, { address: env('WALLET'), chains: ['eth'] });
const client = createServiceClient({ baseUrl: env('SIM_URL'), accessKey: env('ACCESS_KEY'), concurrency: 4 });
// BATCH_ROWS / BATCH_MS: how pages are grouped into transactions (the engine's default otherwise).
const batch = process.env['BATCH_ROWS'] ? { maxRows: Number(process.env['BATCH_ROWS']), maxMs: Number(process.env['BATCH_MS'] ?? 60_000) } : undefined;
// WORKER_FROM_ROWS: after how many rows the writes move to the write worker (the engine's default otherwise).
const workerFrom = process.env['WORKER_FROM_ROWS'] ? { transactionWorkerFromRows: Number(process.env['WORKER_FROM_ROWS']) } : {};
const engine = new SyncEngine({
  db,
  client,
  now: () => Number(env('NOW_MS')),
  transactionPageSize: 100,
  ...(batch && { transactionBatch: batch }),
  ...workerFrom,
});
engine.onProgress((i) => {
  process.stdout.write(`${i.done}\n`);
  // With WORKER_FROM_ROWS: whether this connection held no write transaction as the page was reported (the worker writes).
  if (process.env['WORKER_FROM_ROWS'] && !db.inTransaction) process.stdout.write('off-main\n');
});
await engine.syncTransactions(env('WALLET')).result;
process.stdout.write('finished\n');
