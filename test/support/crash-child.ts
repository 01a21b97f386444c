import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { countTransactions, listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import type { Simulator } from '../../src/sim/server.ts';
import { engineFor } from './engine.ts';
import { KEY, SIM_NOW, WALLET } from './sim.ts';
import { tempDir } from './store.ts';

/** A sync of WALLET in a child process (sync-child.ts), for the crash tests to SIGKILL midway. */
export interface SyncChild {
  /** The child's cache. */
  readonly path: string;
  /** Rows the child has reported written (in its open batch or committed). */
  readonly written: number;
  /** Pages the child reported written off the main connection (by the write worker). */
  readonly offMain: number;
  /** Whether the child reported its sync finished. */
  readonly finished: boolean;
  /** Waits until `ready()` holds; fails if the child ends first or takes over a minute. */
  until(ready: () => boolean): Promise<void>;
  /** SIGKILL; resolves with the signal the child ended by. */
  kill(): Promise<NodeJS.Signals | null>;
}

/**
 * Starts the child on a new cache, with batches of `batchRows` rows and no commit by time (the
 * batch boundaries are exact), and `env` added (WORKER_FROM_ROWS, for one).
 */
export function spawnSyncChild(sim: Simulator, batchRows: number, env: Record<string, string> = {}): SyncChild {
  const path = join(tempDir(), 'cache.sqlite');
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'sync-child.ts')], {
    env: {
      ...process.env,
      DB_PATH: path,
      SIM_URL: sim.url,
      ACCESS_KEY: KEY,
      WALLET,
      NOW_MS: String(SIM_NOW),
      BATCH_ROWS: String(batchRows),
      BATCH_MS: '600000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let written = 0;
  let offMain = 0;
  let finished = false;
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdout.on('data', (d) => {
    for (const line of String(d).split('\n')) {
      if (line.includes('finished')) finished = true;
      else if (line === 'off-main') offMain++;
      else if (/^\d+$/.test(line)) written = Math.max(written, Number(line));
    }
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return {
    path,
    get written() {
      return written;
    },
    get offMain() {
      return offMain;
    },
    get finished() {
      return finished;
    },
    async until(ready) {
      const deadline = Date.now() + 60_000;
      while (!ready()) {
        await new Promise((r) => setTimeout(r, 5));
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`child did not get far enough: ${written} rows written; ${stderr}`);
      }
    },
    kill() {
      child.kill('SIGKILL');
      return exited;
    },
  };
}

/**
 * What a crash in the middle of a batch must leave, and the sync after it: whole batches of
 * WALLET's newest rows (at least two), their resume point with them, and the next sync filling
 * the rest exactly, each transaction once.
 */
export async function expectWholeBatchesThenResume(db: WritableDB, sim: Simulator, o: { txns: number; page: number; batchRows: number }): Promise<void> {
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  const atCrash = countTransactions(db);
  // Whole batches only: what the child had written past the last commit is gone.
  expect(atCrash % o.batchRows).toBe(0);
  expect(atCrash).toBeGreaterThanOrEqual(2 * o.batchRows);
  expect(atCrash).toBeLessThan(o.txns);
  // The resume point was committed with the batch: the page after its last one.
  const [range] = listRanges(db, WALLET, 'eth');
  expect(range).toMatchObject({ state: 'in_progress', nextPage: atCrash / o.page + 1, rowsRead: atCrash });
  // The rows kept are exactly the newest `atCrash` of the history (pages 1..n, newest first): no gap.
  const oldestKept = (db.prepare('SELECT min(time) AS t FROM transactions').get() as { t: number }).t;
  const newerThanOldest = (db.prepare('SELECT count(*) AS n FROM transactions WHERE time >= ?').get(oldestKept) as { n: number }).n;
  expect(newerThanOldest).toBe(atCrash);

  const { engine } = engineFor(sim, db);
  await engine.syncTransactions(WALLET).result;
  expect(countTransactions(db)).toBe(o.txns);
  const distinct = db.prepare('SELECT count(DISTINCT txn_hash) AS n FROM transactions').get() as { n: number };
  expect(distinct.n).toBe(o.txns);
  expect(listRanges(db, WALLET, 'eth').every((r) => r.state === 'complete')).toBe(true);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
}
