import { describe, expect, it } from 'vitest';
import { learnedWidth } from '../../src/main/core/transactions/recent.ts';
import { conventionsReport, loadRecentWindow, recentWindowWidth } from '../../src/main/core/service/store/conventions.ts';
import { updateSettings } from '../../src/main/core/store/settings.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { RECENT_WINDOW_MAX_LEARNED_S, RECENT_WINDOW_S } from '../../src/shared/conventions.ts';
import { chainById } from '../../src/sim/chains.ts';
import type { LiveOptions } from '../../src/sim/live.ts';
import { historyOf, timeOf } from '../../src/sim/transactions.ts';
import { compare, expectExact, liveSimOptions } from '../support/live.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * The recent window's width, learned or set (issue 30, item 3). It was fixed at 24 h (or a page):
 * a service that restates deeper than that was never read there again, and rows it indexed late
 * stayed missing with "ok". Now a restatement found deep in the window widens it (1.5 × its
 * depth, in whole hours, at most 30 days), kept per service; and a user may set it wider.
 *
 * The scenario comes from the simulator's own generator: 6,000 rows over four months (one every
 * 23 minutes) in pages of 20 (so the window is its 24 hours, not a page), a reorg during the first sync whose deepest row is 17–22 h behind the
 * newest, and two rows indexed late, after the first sync, between 24.5 h and the learned width.
 */
const H = 3600;
const N = 6000;
const eth = chainById('eth')!;
const NOW_S = Math.floor(SIM_NOW / 1000);
const base = liveSimOptions({ modes: [] }, N);
const h = historyOf({ seed: 7, txnsPerWallet: N, historyStart: base.historyStart!, historyEnd: base.historyEnd! }, WALLET, eth);
const depth = (i: number) => NOW_S - timeOf(h, i);
/** The reorg restates rows N−b−1 … N−b−21 (live.ts); its deepest 17–22 h behind the newest. */
const reorgBehind = Array.from({ length: 300 }, (_, b) => b + 1).find((b) => depth(N - b - 21) >= 17 * H && depth(N - b - 21) <= 22 * H)!;
const deepestReorg = depth(N - reorgBehind - 21);
const learned = learnedWidth(deepestReorg);
/** Two rows indexed late (live.ts: rows N−L−2 and N−L−1), older than 24.5 h, younger than the learned width by half an hour. */
const lateBehind = Array.from({ length: 300 }, (_, k) => reorgBehind + 22 + k).find(
  (L) => depth(N - L - 1) >= RECENT_WINDOW_S + H / 2 && depth(N - L - 2) <= learned - H / 2,
)!;
const late = { rows: 2, at: 1e9, behind: lateBehind };

function fresh(sim: Parameters<typeof engineFor>[0]) {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  return { db, engine: engineFor(sim, db, { transactionPageSize: 20, now: () => SIM_NOW }).engine };
}

describe('the recent window, learned', () => {
  const live: LiveOptions = { modes: ['reorg', 'late'], reorg: { behind: reorgBehind }, late };
  const ctx = useSimulator(liveSimOptions(live, N));

  it('a reorg found 17–22 h deep widens it to 1.5 × that, kept for the service; the next sync then finds rows indexed late beyond 24 h', async () => {
    expect([reorgBehind, lateBehind].every(Number.isInteger)).toBe(true);
    expect(learned).toBeGreaterThan(RECENT_WINDOW_S);
    const { db, engine } = fresh(ctx.sim);
    const [first] = await engine.syncTransactions(WALLET).result;
    expect(first!.recent!.window!.endS - first!.recent!.window!.startS).toBe(RECENT_WINDOW_S);
    expect(first!.recent!.removed + first!.recent!.changed).toBeGreaterThan(0);
    expect(loadRecentWindow(db)!.seconds).toBe(learned);
    expect(loadRecentWindow(db)!.evidence).toMatch(/^a transaction changed [\d.]+ h behind the newest synced history .* on eth\), with a margin of 1.5 ×$/);
    const point = conventionsReport(db).points.find((p) => p.key === 'recentWindow')!;
    expect(point).toMatchObject({ label: 'Recent window re-read', value: `${learned / H} h`, status: 'learned' });

    // The gap is indexed now, deeper than 24 h.
    ctx.sim.live!.settle(WALLET, eth);
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(second!.recent!.window!.endS - second!.recent!.window!.startS).toBe(learned);
    expect(second!.recent!.late).toBe(2);
    expect(second!.complete).toBe(true);
    expectExact(compare(ctx.sim, db));
  });

  it('learns 1.5 × the depth in whole hours, never past 30 days; 24 h until something is learned', () => {
    expect(learnedWidth(20 * H)).toBe(30 * H);
    expect(learnedWidth(20 * H + 1)).toBe(31 * H);
    expect(learnedWidth(400 * 86_400)).toBe(RECENT_WINDOW_MAX_LEARNED_S);
    const db = createDB();
    expect(recentWindowWidth(db).seconds).toBe(RECENT_WINDOW_S);
  });
});

describe('the recent window, set', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['late'], late }, N));

  it('a width set for the service is read back at least that wide, so rows indexed late that deep are found', async () => {
    const { db, engine } = fresh(ctx.sim);
    const hours = Math.ceil(depth(N - lateBehind - 2) / H) + 1;
    updateSettings(db, { recentWindowHours: hours });
    expect(recentWindowWidth(db)).toMatchObject({ seconds: hours * H, setHours: hours, learned: null });
    await engine.syncTransactions(WALLET).result;
    ctx.sim.live!.settle(WALLET, eth);
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(second!.recent!.window!.endS - second!.recent!.window!.startS).toBe(hours * H);
    expect(second!.recent!.late).toBe(2);
    expectExact(compare(ctx.sim, db));
    expect(conventionsReport(db).points.find((p) => p.key === 'recentWindow')!.evidence).toContain(`set to at least ${hours} h in Settings`);
  });

  it('is validated: whole hours from 1 to 2160, or null for automatic; a bad one changes nothing', () => {
    const db = createDB();
    for (const bad of [0, -1, 1.5, 2161, '48' as unknown as number]) expect(() => updateSettings(db, { recentWindowHours: bad })).toThrow();
    expect(recentWindowWidth(db).setHours).toBeNull();
    updateSettings(db, { recentWindowHours: 2160 });
    expect(recentWindowWidth(db).seconds).toBe(2160 * H);
    updateSettings(db, { recentWindowHours: null });
    expect(recentWindowWidth(db).seconds).toBe(RECENT_WINDOW_S);
  });
});
