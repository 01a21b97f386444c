import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { expectWholeBatchesThenResume, spawnSyncChild } from '../support/crash-child.ts';
import { useSimulator } from '../support/sim.ts';

const TXNS = 20_000;
const PAGE = 100;
/** 30 pages to a transaction, and no commit by time: the batch boundaries are exact. */
const BATCH_ROWS = 3000;
const ctx = useSimulator({ txnsPerWallet: TXNS, latencyMs: 10 });

describe('a crash in the middle of a batch of pages', () => {
  it('loses only the uncommitted pages of the batch; the resume point matches what was kept, and the next sync fills the rest exactly', async () => {
    const child = spawnSyncChild(ctx.sim, BATCH_ROWS);
    // Kill it halfway through its third batch: 6,000 rows committed, more written but not.
    await child.until(() => child.written >= 2 * BATCH_ROWS + BATCH_ROWS / 2);
    expect(await child.kill()).toBe('SIGKILL');
    expect(child.finished).toBe(false);

    const db = openDatabase(child.path);
    try {
      await expectWholeBatchesThenResume(db, ctx.sim, { txns: TXNS, page: PAGE, batchRows: BATCH_ROWS });
    } finally {
      db.close();
    }
  });
});
