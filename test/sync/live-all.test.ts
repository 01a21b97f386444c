import { describe, expect, it } from 'vitest';
import { expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { useSimulator } from '../support/sim.ts';

/** The four live modes at once (arrivals, a late gap, a reorg, bursts), on another seed. */
const ctx = useSimulator({ ...liveSimOptions({ modes: ['arrivals', 'late', 'reorg', 'burst'] }, 2640), seed: 11 });

describe('live: every mode at once', () => {
  it('the cache matches the service exactly after the next sync', async () => {
    const { first, second, afterSecond } = await syncTwice(ctx.sim);
    expect(first.complete && second.complete).toBe(true);
    expect(afterSecond.truth).toBe(2639);
    expectExact(afterSecond);
  });
});
