import { afterEach, describe, expect, it } from 'vitest';
import { countTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * A daily refresh with nothing new (issue 40 item 4) costs the fewest requests that prove it:
 * one per wallet and chain, the new range since the last sync and the recent window before it
 * asked together (transactions/recent.ts readThroughNow), and that through a rate quota with no
 * job failed. Before, each wallet and chain cost three: the new range's empty page, the window's
 * page and the page proving the window's end.
 *
 * Pages of at most 100 rows, 150 transactions per wallet and chain: the conventions learned
 * prove the page size (a short page then proves an end).
 */
const ctx = useSimulator({ txnsPerWallet: 150, conventions: { pageSizeCap: 100 } });
afterEach(() => ctx.sim.setQuota(null));

const CHAINS = ['eth', 'arb', 'base'];
const wallets = [...Array(5).keys()].map((i) => `0x${(0x5e1f0 + i * 613).toString(16).padStart(40, '0')}`);
const DAY_MS = 86_400_000;

/** Every wallet synced once at `yesterday`, without a quota. */
async function syncedAt(yesterday: number): Promise<WritableDB> {
  const db = createDB();
  for (const w of wallets) addWallet(db, { address: w, chains: CHAINS, label: '' });
  const { engine } = engineFor(ctx.sim, db, { now: () => yesterday });
  const first = await Promise.all(wallets.map((w) => engine.syncTransactions(w).result));
  expect(first.flat().every((r) => r.complete)).toBe(true);
  return db;
}

/** Today's sync of every wallet through a quota of `perSecond`; what the service saw. */
async function refresh(db: WritableDB, perSecond: number) {
  const { engine } = engineFor(ctx.sim, db, { now: () => SIM_NOW });
  ctx.sim.setQuota({ perSecond, retryAfter: false });
  const mark = ctx.sim.requests.length;
  const jobs = wallets.map((w) => engine.syncTransactions(w));
  const settled = await Promise.allSettled(jobs.map((j) => j.result));
  ctx.sim.setQuota(null);
  const seen = ctx.sim.requests.slice(mark);
  const served = seen.filter((r) => r.status === 200);
  return {
    settled,
    states: jobs.map((j) => j.info.state),
    refused: seen.filter((r) => r.status === 429).length,
    servedEach: (w: string, chain: string) =>
      served.filter((r) => r.endpoint === 'transactionsByWallet' && r.query['wallet'] === w && r.query['chains'] === chain).length,
    served: served.length,
  };
}

describe('a daily refresh with nothing new, through a rate quota', () => {
  it('asks once per wallet and chain, and every job completes, its history proved complete', { timeout: 120_000 }, async () => {
    // The simulator's histories end on 2026-11-01: a sync a day before SIM_NOW found them all.
    const db = await syncedAt(SIM_NOW - DAY_MS);
    const cached = countTransactions(db);
    const run = await refresh(db, 4);
    expect(run.states).toEqual(wallets.map(() => 'done'));
    for (const s of run.settled) {
      expect(s.status).toBe('fulfilled');
      if (s.status === 'fulfilled')
        for (const r of s.value) expect({ chain: r.chain, complete: r.complete, reasons: r.reasons }).toEqual({ chain: r.chain, complete: true, reasons: [] });
    }
    for (const w of wallets) for (const chain of CHAINS) expect(run.servedEach(w, chain), `${w} on ${chain}`).toBe(1);
    expect(run.served).toBe(wallets.length * CHAINS.length);
    // The quota was met (a refresh asked faster than it allows proves nothing of the pacing).
    expect(run.refused).toBeGreaterThan(0);
    expect(countTransactions(db)).toBe(cached);
  });

  it('with something new, still reads it all: the one request that did not prove nothing new costs a request, not a row', { timeout: 120_000 }, async () => {
    // A sync a month before the histories end: October's transactions are new today.
    const db = await syncedAt(Date.UTC(2026, 9, 1));
    const before = countTransactions(db);
    const run = await refresh(db, 20);
    expect(run.states).toEqual(wallets.map(() => 'done'));
    expect(countTransactions(db)).toBe(wallets.length * CHAINS.length * 150);
    expect(before).toBeLessThan(wallets.length * CHAINS.length * 150);
    for (const s of run.settled) if (s.status === 'fulfilled') expect(s.value.every((r) => r.complete)).toBe(true);
  });
});
