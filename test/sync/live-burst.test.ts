import { describe, expect, it } from 'vitest';
import { listTransactionChanges } from '../../src/main/core/transactions/store/restatements.ts';
import { compare, expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { useSimulator } from '../support/sim.ts';

/**
 * Finding (issue 30): same-second bursts whose order is not stable across pages lost rows at
 * the page seams (325 of 2,700 in the issue; 11 of 2,000 here before the fix), with "ok". A seam
 * between two rows of one second is read again as a window of that second.
 */
const ctx = useSimulator(liveSimOptions({ modes: ['burst'], burst: { groups: 3, size: 40 } }));

describe('live: same-second bursts across page seams', () => {
  it('the first sync already holds every row; nothing is logged, since nothing was restated', async () => {
    const { db, first, afterFirst, afterSecond } = await syncTwice(ctx.sim);
    expect(first.complete).toBe(true);
    expectExact(afterFirst);
    expectExact(afterSecond);
    expect(first.recent!.seamRows).toBeGreaterThan(0);
    expect(listTransactionChanges(db)).toEqual([]);
    expect(compare(ctx.sim, db).truth).toBe(2000);
  });
});
