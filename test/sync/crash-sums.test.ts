import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { refreshTransferDays } from '../../src/main/core/store/queries/transfer-days.ts';
import { countTransactions } from '../../src/main/core/store/transactions.ts';
import { KEY, SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

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
  const path = join(tempDir(), 'cache.sqlite');
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../support/sync-child.ts')], {
    env: {
      ...process.env,
      DB_PATH: path,
      SIM_URL: ctx.sim.url,
      ACCESS_KEY: KEY,
      WALLET,
      NOW_MS: String(SIM_NOW),
      BATCH_ROWS: String(BATCH_ROWS),
      BATCH_MS: '600000',
      WORKER_FROM_ROWS: workerFromRows,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let written = 0;
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdout.on('data', (d) => {
    for (const line of String(d).split('\n')) if (/^\d+$/.test(line)) written = Math.max(written, Number(line));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (written < BATCH_ROWS + BATCH_ROWS / 2) {
    await new Promise((r) => setTimeout(r, 5));
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`child did not get far enough: ${written} rows written; ${stderr}`);
  }
  child.kill('SIGKILL');
  await exited;
  return path;
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
