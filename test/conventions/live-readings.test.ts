import { describe, expect, it } from 'vitest';
import { latestSnapshots, snapshotData } from '../../src/main/core/positions/store/latest.ts';
import { chainById } from '../../src/sim/chains.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot } from '../../src/shared/service/schemas.ts';
import { parseConventions } from '../../src/sim/conventions.ts';
import { DATETIME_READINGS } from '../../src/sim/readings.ts';
import { expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET, TIME_ORDERED_READINGS } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * The live modes added for issue 30's last items, under the conventions matrix's other readings
 * (src/sim/conventions.ts), beside test/sync/live-conventions.test.ts for the first four: a
 * same-second burst larger than a page (wide-burst) under every time-ordered reading, and
 * "today" moving between the three view requests under every datetime reading.
 */
const TIME_ORDERED = [[], ...TIME_ORDERED_READINGS];

for (const reading of TIME_ORDERED) {
  describe(`live wide-burst, ${reading.join(' ') || 'defaults'}`, () => {
    const ctx = useSimulator({ ...liveSimOptions({ modes: ['wide-burst', 'arrivals'], wideBurst: { size: 250 } }), conventions: parseConventions(reading) });
    it('a 250-row second read in pages of 100, while rows arrive: complete after the first sync, exact after the next', async () => {
      const { first, second, afterSecond } = await syncTwice(ctx.sim);
      expect(first.reasons).toEqual([]);
      expect(first.complete && second.complete).toBe(true);
      expectExact(afterSecond);
    });
  });
}

describe('live wide-burst, rows in no time order (order=unordered)', () => {
  const ctx = useSimulator({ ...liveSimOptions({ modes: ['wide-burst'], wideBurst: { size: 250 } }), conventions: parseConventions(['order=unordered']) });
  it('an order that changes between requests is never "ok": each sync says so', async () => {
    const { first, second } = await syncTwice(ctx.sim);
    for (const r of [first, second]) {
      expect(r.complete).toBe(false);
      expect(r.reasons.join(' ')).toMatch(/no time order, and its history or its order changed during the read/);
    }
  });
});

for (const datetime of DATETIME_READINGS) {
  describe(`live today, datetime=${datetime}`, () => {
    const ctx = useSimulator({ ...liveSimOptions({ modes: ['today'], today: { at: 2, every: 5 } }), conventions: parseConventions([`datetime=${datetime}`]) });
    it('the three views stored for the latest date describe one moment, unflagged', async () => {
      const db = createDB();
      addWallet(db, { address: WALLET, chains: ['eth'] });
      const { engine } = engineFor(ctx.sim, db);
      const job = engine.syncPositions(WALLET);
      const [asOf] = await job.result;
      expect(engine.jobs().find((j) => j.id === job.info.id)!.completeness?.reasons ?? []).toEqual([]);
      const [all] = latestSnapshots(db, 'allPositions', { date: asOf! });
      const [grouped] = latestSnapshots(db, 'positionsByUnderlying', { date: asOf! });
      const [liquidity] = latestSnapshots(db, 'liquidityAnalysis', { date: asOf! });
      const positions = (snapshotData(db, all!.id) as PositionSnapshot[]).flatMap((s) => s.positions);
      const cids = new Set((snapshotData(db, grouped!.id) as UnderlyingSnapshot[]).flatMap((s) => s.positions.flatMap((g) => g.breakdown.map((b) => b.cid))));
      const lp = (snapshotData(db, liquidity!.id) as LiquiditySnapshot[]).flatMap((s) => s.positions);
      expect([cids.size, lp.length]).toEqual([positions.length, positions.length]);
      expect([all, grouped, liquidity].map((s) => s!.quality)).toEqual([null, null, null]);
      // It was read again: the first three requests straddled the change.
      expect(ctx.sim.live!.todayServed(WALLET, chainById('eth')!).length).toBeGreaterThan(3);
    });
  });
}

/**
 * Issue 41: a gap the service says it has not indexed (completion_ratio below 1 for any range
 * over it) deep inside the history, backfilled between two syncs. Before, the first range was
 * split at its newest row and the part with the hole kept as complete: the next sync read only
 * the recent part, said "ok", and 160 of 2,000 rows stayed missing for good.
 */
for (const reading of TIME_ORDERED) {
  describe(`live gap, ${reading.join(' ') || 'defaults'}`, () => {
    const ctx = useSimulator({ ...liveSimOptions({ modes: ['gap', 'arrivals'] }), conventions: parseConventions(reading) });
    it('a gap in the middle of the history backfilled after the first sync: incomplete, then exact, never "ok" short', async () => {
      const { first, second, afterFirst, afterSecond } = await syncTwice(ctx.sim);
      // The service's truth before the gap is filled lacks the gap's rows too: count against after.
      expect(afterSecond.truth - afterFirst.cached).toBeGreaterThanOrEqual(160);
      expect(first.complete).toBe(false);
      expect(first.reasons.join(' ')).toMatch(/the service has indexed [\d.]+% of the range asked/);
      expect(second.reasons).toEqual([]);
      expect(second.complete).toBe(true);
      expectExact(afterSecond);
    });
  });
}

/**
 * Issue 41: a same-second burst of 2,700 rows in an unstable order that follows the page and
 * page size asked (an SQL LIMIT/OFFSET over tied sort keys): read again at one page size, every
 * read saw the same pages, and 30 reads ended "incomplete". Read again at other page sizes, whole.
 */
for (const reading of TIME_ORDERED) {
  describe(`live wide-burst of 2,700 rows ordered by page, ${reading.join(' ') || 'defaults'}`, () => {
    const ctx = useSimulator({
      ...liveSimOptions({ modes: ['wide-burst'], wideBurst: { size: 2700, order: 'page' } }, 3000),
      conventions: parseConventions(reading),
    });
    it('complete and exact after the first sync', async () => {
      const { first, afterFirst } = await syncTwice(ctx.sim);
      expect(first.reasons).toEqual([]);
      expect(first.complete).toBe(true);
      expectExact(afterFirst);
    });
  });
}
