import { describe, expect, it } from 'vitest';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { refreshTransferDays } from '../../src/main/core/transactions/store/transfer-days.ts';
import { countTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { spawnSyncChild } from '../support/crash-child.ts';
import { useSimulator, WALLET } from '../support/sim.ts';

/**
 * The daily transfer sums the page writer keeps (transfer-days-keeper.ts) are committed with
 * the rows: a sync killed in the middle of a batch, on this thread or in the write worker,
 * leaves the sums of exactly the rows committed, current, and nothing of the batch lost.
 */
const TXNS = 12_000;
const BATCH_ROWS = 3000;
const ctx = useSimulator({ txnsPerWallet: TXNS, latencyMs: 10 });

const table = (db: WritableDB) =>
  (db.prepare('SELECT * FROM transfer_days ORDER BY wallet, chain, day, token_cid').all() as Array<{ inflow: number; outflow: number }>).map((r) => ({
    ...r,
    inflow: Number(r.inflow.toPrecision(9)),
    outflow: Number(r.outflow.toPrecision(9)),
  }));

async function killMidBatch(workerFromRows: string): Promise<string> {
  const child = spawnSyncChild(ctx.sim, BATCH_ROWS, { WORKER_FROM_ROWS: workerFromRows });
  await child.until(() => child.written >= BATCH_ROWS + BATCH_ROWS / 2);
  await child.kill();
  return child.path;
}

describe('a crash in the middle of a batch', () => {
  for (const [where, workerFromRows] of [
    ['in the write worker', '1'],
    ['on this thread', 'Infinity'],
  ] as const) {
    it(`${where}: leaves the daily transfer sums of exactly the committed rows, current`, async () => {
      const db = openDatabase(await killMidBatch(workerFromRows));
      try {
        const atCrash = countTransactions(db);
        expect(atCrash % BATCH_ROWS).toBe(0);
        expect(atCrash).toBeGreaterThanOrEqual(BATCH_ROWS);
        expect(atCrash).toBeLessThan(TXNS);
        // Kept with the committed rows, up to the last of them.
        expect(db.prepare('SELECT built_to_id FROM transfer_days_state WHERE wallet = ?').pluck().get(WALLET)).toBe(atCrash);
        const kept = table(db);
        expect(kept.length).toBeGreaterThan(0);
        expect(refreshTransferDays(db, [{ wallet: WALLET, chain: 'eth' }])).toBe(0);
        db.exec('DELETE FROM transfer_days_state');
        expect(refreshTransferDays(db, [{ wallet: WALLET, chain: 'eth' }])).toBe(atCrash);
        expect(kept).toEqual(table(db));
      } finally {
        db.close();
      }
    }, 90_000);
  }
});
