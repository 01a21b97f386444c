import { describe, expect, it } from 'vitest';
import { listTransactionChanges } from '../../src/main/core/transactions/store/restatements.ts';
import { expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { useSimulator } from '../support/sim.ts';

/**
 * Finding (issue 30): a gap the indexer backfilled inside a range already read was never read
 * (160 of 2,000 in the issue; 30 of 2,000 here before the fix), and the sync said "ok". The
 * recent window is read again on every sync, and each row found there is logged as late.
 */
const ctx = useSimulator(liveSimOptions({ modes: ['late'] }));

describe('live: rows indexed late inside a range already read', () => {
  it('the 30 late rows are cached and logged, each with the request that showed it', async () => {
    const { db, first, second, afterSecond } = await syncTwice(ctx.sim);
    expect(first.complete && second.complete).toBe(true);
    expectExact(afterSecond);
    const late = listTransactionChanges(db).filter((c) => c.kind === 'late');
    expect(late).toHaveLength(30);
    expect(first.recent!.late + second.recent!.late).toBe(30);
    for (const c of late) {
      expect(c.request).toMatch(/^transactions eth start_time=\d+ end_time=\d+ page=\d+ pageSize=100 \(request [0-9a-f]+\)$/);
      expect(c.after).toMatchObject({ block: expect.any(Number), status: expect.any(Number) });
      expect(c.before).toBeNull();
    }
    // The gap lies behind the newest rows: inside the range the first read closed.
    const newest = Math.max(...first.ranges.map((r) => r.endTime)) * 1000;
    expect(late.every((c) => c.time < newest)).toBe(true);
  });
});
