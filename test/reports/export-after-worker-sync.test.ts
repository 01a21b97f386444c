import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A history written by the write worker (its own connection) exports the same rows as one
 * written on the main connection: the export reads on a connection of its own (see
 * transaction-export.ts), and must see every committed page whoever wrote it.
 */
const ctx = useSimulator({ txnsPerWallet: 3000 });

async function syncAndExport(workerFromRows: number): Promise<string> {
  const db = openDatabase(join(tempDir(), 'cache.sqlite'));
  try {
    addWallet(db, { address: WALLET, chains: ['eth'] });
    const { engine } = engineFor(ctx.sim, db, { transactionWorkerFromRows: workerFromRows });
    await engine.syncTransactions(WALLET).result;
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await exportCsv(db, { report: 'transactions', wallet: WALLET, filter: { actionTypes: ['swap'] } }, out);
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    db.close();
  }
}

it('a history written by the write worker exports the same swaps as one written on the main connection', async () => {
  const byWorker = await syncAndExport(1);
  const inThread = await syncAndExport(1_000_000);
  expect(inThread.trim().split('\r\n').length).toBeGreaterThan(100);
  expect(byWorker).toBe(inThread);
});
