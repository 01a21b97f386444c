import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { expectWholeBatchesThenResume, spawnSyncChild } from '../support/crash-child.ts';
import { useSimulator } from '../support/sim.ts';

const TXNS = 20_000;
const PAGE = 100;
/** 30 pages to a transaction, and no commit by time: the batch boundaries are exact. */
const BATCH_ROWS = 3000;
const ctx = useSimulator({ txnsPerWallet: TXNS, latencyMs: 10 });

describe('a crash in the middle of a batch of pages written by the write worker', () => {
  it("loses only the worker's uncommitted pages; the resume point matches what was kept, and the next sync fills the rest exactly", async () => {
    // The worker starts at the first page and takes the writes over at the first commit
    // after its thread has loaded (3,000 or 6,000 rows on a busy machine).
    const child = spawnSyncChild(ctx.sim, BATCH_ROWS, { WORKER_FROM_ROWS: '1' });
    // Kill it halfway through a batch of the worker's, after a whole one it committed: at least
    // 6,000 rows committed, more written but not.
    await child.until(() => child.offMain >= 1.5 * (BATCH_ROWS / PAGE) && child.written % BATCH_ROWS >= BATCH_ROWS / 2);
    expect(await child.kill()).toBe('SIGKILL');
    expect(child.finished).toBe(false);
    // The pages after the hand-over were written off the main connection (on this thread a
    // batch stays open between pages: at most one page in 30 is reported outside one).
    expect(child.offMain).toBeGreaterThanOrEqual(30);

    const db = openDatabase(child.path);
    try {
      await expectWholeBatchesThenResume(db, ctx.sim, { txns: TXNS, page: PAGE, batchRows: BATCH_ROWS });
    } finally {
      db.close();
    }
  });
});
