import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { listTransactionChanges } from '../../src/main/core/transactions/store/restatements.ts';
import { owedSeams } from '../../src/main/core/transactions/store/seams.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { compare, expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';
import { parseConventions } from '../../src/sim/conventions.ts';

/**
 * A same-second burst larger than a page, in another order on every request (issue 30, item 3):
 * no read of that second, however narrow, pages it whole. Before the fix a burst of 250 rows read
 * in pages of 100 left a row missing with "ok", after the next sync too. The second is read again
 * until the rows found number what each read counts (its pages added up); a bound that stops
 * first leaves the history there unproved, saying why, and the next sync reads it again.
 */
// Pages of at most 100 rows (the service's cap): a second is re-read at the largest page the
// service serves, so the burst must be larger than that page, as well as the page the sync reads.
const ctx = useSimulator({ ...liveSimOptions({ modes: ['wide-burst'], wideBurst: { size: 250 } }), conventions: parseConventions(['page-size-cap=100']) });

describe('live: a same-second burst larger than a page', () => {
  it('the first sync holds every row of the second, proved, with nothing logged as restated', async () => {
    const { db, first, afterFirst, afterSecond } = await syncTwice(ctx.sim);
    expect(first.reasons).toEqual([]);
    expect(first.complete).toBe(true);
    expectExact(afterFirst);
    expectExact(afterSecond);
    expect(first.recent!.seamRows).toBeGreaterThan(0);
    expect(owedSeams(db, WALLET, 'eth')).toEqual([]);
    expect(listTransactionChanges(db)).toEqual([]);
    expect(afterFirst.truth).toBe(2000);
    // The ground truth has the burst: 250 rows of one second.
    const seconds = new Map<number, number>();
    for (const t of ctx.sim.live!.truth(WALLET, chainById('eth')!)) seconds.set(Date.parse(t.date!), (seconds.get(Date.parse(t.date!)) ?? 0) + 1);
    expect(Math.max(...seconds.values())).toBe(250);
  });

  it('reads of the second that stop before it is proved leave it unproved, never "ok", and the next sync proves it', async () => {
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    // One read of the second: its order moves under the read, so one read cannot prove it.
    const bounded = engineFor(ctx.sim, db, { transactionPageSize: 100, now: () => SIM_NOW, seamReads: 1 }).engine;
    const [first] = await bounded.syncTransactions(WALLET).result;
    expect(first!.complete).toBe(false);
    expect(first!.reasons.join(' ')).toMatch(
      /the transactions at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC are not proved complete: .*in another order on every request \(more than a page\).*The next sync reads them again/,
    );
    expect(owedSeams(db, WALLET, 'eth')).toHaveLength(1);
    const { engine } = engineFor(ctx.sim, db, { transactionPageSize: 100, now: () => SIM_NOW });
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(second!.reasons).toEqual([]);
    expect(second!.complete).toBe(true);
    expect(owedSeams(db, WALLET, 'eth')).toEqual([]);
    expectExact(compare(ctx.sim, db));
  });
});
