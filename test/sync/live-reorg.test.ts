import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { listTransactionChanges } from '../../src/main/core/transactions/store/restatements.ts';
import { cached, expectExact, liveSimOptions, syncTwice } from '../support/live.ts';
import { KEY, useSimulator, WALLET } from '../support/sim.ts';

/**
 * Finding (issue 30): after a reorg the removed transaction was kept as a ghost, its replacement
 * missing, a changed block or status not updated, and a row the removal shifted across a page
 * seam during the read was skipped; all with "ok". Each restatement is now applied and logged.
 */
const ctx = useSimulator(liveSimOptions({ modes: ['reorg'] }));

describe('live: a reorg during and after the read', () => {
  it('removes the ghosts, adds the replacement, updates block, status, fee and transfers, and logs each', async () => {
    const { db, first, afterSecond } = await syncTwice(ctx.sim);
    expect(first.complete).toBe(true);
    expectExact(afterSecond);
    expect(afterSecond.truth).toBe(1999);
    const restated = ctx.sim.live!.restatements(WALLET, chainById('eth')!);
    const byKind = new Map(restated.map((r) => [r.kind, r]));
    const log = listTransactionChanges(db);
    const entry = (hash: string) => log.filter((c) => c.txnHash === hash);
    expect(entry(byKind.get('removed')!.hash).map((c) => c.kind)).toEqual(['removed']);
    expect(entry(byKind.get('replaced')!.hash).map((c) => c.kind)).toEqual(['removed']);
    expect(entry(byKind.get('replaced')!.replacement!).map((c) => c.kind)).toEqual(['late']);
    const changed = (kind: string) => entry(byKind.get(kind as never)!.hash);
    expect(changed('block').map((c) => c.fields)).toEqual([['block']]);
    expect((changed('block')[0]!.after!['block'] as number) - (changed('block')[0]!.before!['block'] as number)).toBe(2);
    expect(changed('status').map((c) => c.fields)).toEqual([['status', 'details']]);
    expect(changed('status')[0]!.after!['status']).toBe(0);
    expect(changed('fee').map((c) => c.fields)).toEqual([['txn_fee', 'gas_fee']]);
    expect(changed('transfers').map((c) => c.fields)).toEqual([['details']]);
    // The removed rows' last stored values are kept in the log, not in the cache.
    expect(cached(db).has(byKind.get('removed')!.hash)).toBe(false);
    expect(entry(byKind.get('removed')!.hash)[0]!.before).toMatchObject({ block: expect.any(Number), details: expect.any(String) });
    // Nothing else was logged, and the access key is in none of it.
    expect(log).toHaveLength(7);
    expect(JSON.stringify(log)).not.toContain(KEY);
    // The row the removal shifted across a page seam was found by reading the seams again.
    expect(first.recent!.seamRows).toBeGreaterThan(0);
  });
});
