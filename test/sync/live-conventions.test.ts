import { describe, expect, it } from 'vitest';
import { parseConventions } from '../../src/sim/conventions.ts';
import { expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { useSimulator, TIME_ORDERED_READINGS } from '../support/sim.ts';

/**
 * The live modes under other readings of the spec's open points (the conventions matrix's
 * readings, src/sim/conventions.ts). Before the fix, `page-base=0` with arrivals left 102 of
 * 2,000 rows missing with "ok" (two rows arriving between the probe's page 0 and page 1 made them
 * equal, and the client learned 1-based), and `order=unordered` 601 of 1,999.
 */
const TIME_ORDERED = TIME_ORDERED_READINGS;

for (const reading of TIME_ORDERED) {
  describe(`live, every mode, ${reading.join(' ')}`, () => {
    const ctx = useSimulator({ ...liveSimOptions({ modes: ['arrivals', 'late', 'reorg', 'burst'] }), conventions: parseConventions(reading) });
    it('the cache matches the service exactly after the next sync', async () => {
      const { first, second, afterSecond } = await syncTwice(ctx.sim);
      expect(first.complete && second.complete).toBe(true);
      expectExact(afterSecond);
    });
  });
}

describe('live, rows in no time order (order=unordered)', () => {
  const arriving = useSimulator({ ...liveSimOptions({ modes: ['arrivals', 'late', 'reorg'] }), conventions: parseConventions(['order=unordered']) });
  it('a history that changed during the read leaves it incomplete, saying why, and the next sync reads it again whole', async () => {
    const { first, second, afterSecond } = await syncTwice(arriving.sim);
    expect(first.complete).toBe(false);
    expect(first.reasons.join(' ')).toMatch(/no time order, and its history or its order changed during the read/);
    expect(second.complete).toBe(true);
    expectExact(afterSecond);
  });

  const bursting = useSimulator({ ...liveSimOptions({ modes: ['burst'] }), conventions: parseConventions(['order=unordered']) });
  it('an order that changes between requests is never "ok": each sync says so', async () => {
    const { first, second } = await syncTwice(bursting.sim);
    for (const r of [first, second]) {
      expect(r.complete).toBe(false);
      expect(r.reasons.join(' ')).toMatch(/no time order, and its history or its order changed during the read/);
    }
  });
});
