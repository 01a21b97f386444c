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
