import { describe, expect, it } from 'vitest';
import { listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * Finding (issue 30): with the computer's clock far ahead, a range was marked complete to 2126,
 * and transactions the service indexed later were never read ("ok"). What a range is complete
 * to now follows the service's own clock (the Date of its answers).
 */
let serviceNow = SIM_NOW;
const ctx = useSimulator({ txnsPerWallet: 300, now: () => serviceNow });
const count = (db: ReturnType<typeof createDB>) => (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;

describe("a computer's clock set wrong", () => {
  it('far ahead: nothing is kept as read past the service’s clock, and the next sync reads on from it', async () => {
    serviceNow = SIM_NOW;
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    const ahead = SIM_NOW + 100 * 365 * 86_400_000; // 2126
    const { engine } = engineFor(ctx.sim, db, { now: () => ahead });
    const [first] = await engine.syncTransactions(WALLET).result;
    expect(first!.complete).toBe(true);
    const rows = count(db);
    expect(rows).toBe(300);
    const end = Math.max(...listRanges(db, WALLET, 'eth').map((r) => r.endTime));
    expect(end).toBeLessThanOrEqual(Math.floor(SIM_NOW / 1000));
    expect(end).toBeGreaterThan(Math.floor(SIM_NOW / 1000) - 5);

    // A day later by the service's clock: the next sync asks for the time since, not from 2126.
    serviceNow = SIM_NOW + 86_400_000;
    const mark = ctx.sim.requests.length;
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(second!.complete).toBe(true);
    const asked = ctx.sim.requests.slice(mark).filter((r) => r.endpoint === 'transactionsByWallet' && r.query['start_time'] !== undefined);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => Number(r.query['start_time']) <= end + 1)).toBe(true);
    expect(Math.max(...listRanges(db, WALLET, 'eth').map((r) => r.endTime))).toBeLessThanOrEqual(Math.floor(serviceNow / 1000));
    expect(count(db)).toBe(rows);
    db.close();
  });

  it('right: nothing changes (the ranges end at the computer’s now, which the service has reached)', async () => {
    serviceNow = SIM_NOW;
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    const { engine } = engineFor(ctx.sim, db, { now: () => SIM_NOW });
    await engine.syncTransactions(WALLET).result;
    expect(Math.max(...listRanges(db, WALLET, 'eth').map((r) => r.endTime))).toBe(Math.floor(SIM_NOW / 1000));
    db.close();
  });
});
