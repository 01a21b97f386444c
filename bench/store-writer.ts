import type { Database } from '../src/main/core/store/db.ts';
import { upsertTransactions } from '../src/main/core/store/transactions.ts';
import type { Transaction } from '../src/shared/service/schemas.ts';

/** The store's write path as sync uses it: one transaction per page. */
export function storeWriter(db: Database, wallet: string, chain: string) {
  return {
    batchRows: 1000,
    describe: 'upsertTransactions, one transaction per 1,000-row page',
    page(rows: readonly Transaction[]): void {
      db.transaction(() => upsertTransactions(db, wallet, chain, rows)).immediate();
    },
    flush(): void {},
  };
}
