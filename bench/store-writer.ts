import type { WritableDB } from '../src/main/core/store/db.ts';
import { transferDaysKeeper } from '../src/main/core/transactions/store/transfer-days-keeper.ts';
import { upsertTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { WriteBatch } from '../src/main/core/transactions/store/write-batch.ts';
import { WORKER_BATCH } from '../src/main/core/transactions/range-writer.ts';
import type { Transaction } from '../src/shared/service/schemas.ts';

/**
 * The store's write path as a whale sync uses it: each page written whole in a batch of pages,
 * on a connection that writes nothing else (the write worker's, see write-worker.ts), with the
 * daily transfer sums kept as the rows are written (transfer-days-keeper.ts), as the worker does.
 */
export function storeWriter(db: WritableDB, wallet: string, chain: string) {
  const batch = new WriteBatch(db, { ...WORKER_BATCH, exclusive: true }, transferDaysKeeper(db));
  return {
    batchRows: WORKER_BATCH.maxRows!,
    describe: `upsertTransactions per page in the write worker's batches, transfer sums kept: ${WORKER_BATCH.maxRows!.toLocaleString('en-US')} rows or ${WORKER_BATCH.maxMs} ms`,
    page(rows: readonly Transaction[]): void {
      batch.write(rows.length, () => upsertTransactions(db, wallet, chain, rows));
    },
    flush(): void {
      batch.commit();
    },
  };
}
