import type { WritableDB } from '../src/main/core/store/db.ts';
import { upsertTransactions } from '../src/main/core/store/transactions.ts';
import { WriteBatch } from '../src/main/core/store/write-batch.ts';
import type { Transaction } from '../src/shared/service/schemas.ts';

/**
 * The store's write path as a whale sync uses it: each page written whole in a batch of pages,
 * on a connection that writes nothing else (the write worker's, see write-worker.ts).
 */
export function storeWriter(db: WritableDB, wallet: string, chain: string) {
  const batch = new WriteBatch(db, { exclusive: true });
  return {
    batchRows: 50_000,
    describe: "upsertTransactions per page in the write worker's batch of 50,000 rows",
    page(rows: readonly Transaction[]): void {
      batch.write(rows.length, () => upsertTransactions(db, wallet, chain, rows));
    },
    flush(): void {
      batch.commit();
    },
  };
}
