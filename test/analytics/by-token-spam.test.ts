import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { decimalSum } from '../../src/shared/decimal.ts';
import { chainById } from '../../src/sim/chains.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import type { SpamTruth } from '../../src/sim/spam.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * Positions "by token" and the change since a date (issue 39, item 4) in the simulator's hostile
 * world (src/sim/spam.ts): tokens that copy the symbol and name of one the wallet holds (USDC,
 * WETH, …) from another contract, with absurd values. Measured against the simulator's truth: no
 * copy is in any by-token row (so none merges into the genuine row), the genuine token is still
 * one row across its chains, and the change of the total is the change of the genuine total.
 */
const CHAINS = ['eth', 'arb'];
const WALLETS = [WALLET, WALLET_2];
const RANGE = ['2026-09-30', '2026-10-31'];
/** The two dates the backfill cached (a month's step from the 30th lands on the 30th), earlier first. */
let DATES: string[] = [];

let core: Core;
let sim: Simulator | null = null;
const truth: SpamTruth[] = [];

beforeAll(async () => {
  core = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    baseUrl: null,
    demo: async (accessKey) => (sim = await startSimulator({ accessKey, txnsPerWallet: 300, now: () => SIM_NOW, spam: true })),
    scheduleEveryMs: 0,
  });
  for (const w of WALLETS) await core.call('wallets.add', { address: w, chains: CHAINS });
  const jobs = [];
  for (const w of WALLETS) {
    jobs.push(await core.call('sync.transactions', { wallet: w }));
    jobs.push(await core.call('sync.backfill', { wallet: w, from: RANGE[0]!, to: RANGE[1]!, every: 'month' }));
  }
  const done = await waitForJobs(core, jobs);
  // Every sync finished (a failed one would leave dates uncached and this test proving nothing).
  expect(done.map((j) => [j.label, j.state, j.phase])).toEqual(done.map((j) => [j.label, 'done', j.phase]));
  DATES = (await core.call('positions.dates', {})).sort();
  expect(DATES).toHaveLength(2);
  for (const w of WALLETS) for (const c of CHAINS) truth.push(sim!.spam!.truth(w, chainById(c)!, {}));
}, 600_000);
afterAll(() => core?.close());

describe('by token, with spam on', () => {
  it('no impersonation is in any by-token row; the genuine token stays one row across chains', async () => {
    const view = await core.call('portfolio.view', { date: DATES[1]! });
    const copies = truth.flatMap((t) => t.tokens.filter((k) => k.kind === 'impersonation' && k.first_day <= DATES[1]!).map((k) => ({ ...k, chain: t.chain })));
    // The world has copies held at the date (else this test proves nothing).
    expect(copies.length).toBeGreaterThan(0);
    expect(view.spam.count).toBeGreaterThan(0);
    const held = new Set(view.tokens.flatMap((t) => t.holdings.map((h) => `${h.chain}|${h.contract ?? h.tokenId}`)));
    for (const c of copies) expect(held.has(`${c.chain}|${c.token_cid}`), `${c.symbol} copy ${c.token_cid} on ${c.chain}`).toBe(false);
    // The rows are one per token: no two contracts of one chain under one row, and none split for a clash.
    for (const t of view.tokens) {
      const perChain = new Map<string, Set<string>>();
      for (const h of t.holdings) perChain.set(h.chain, (perChain.get(h.chain) ?? new Set()).add(h.contract ?? h.tokenId));
      expect([...perChain.values()].every((s) => s.size === 1)).toBe(true);
      expect(t.contract).toBeNull();
    }
    // A copied token held on both chains is one row with both beneath.
    const copied = new Set(copies.map((c) => c.imitates!.symbol));
    expect(view.tokens.some((t) => copied.has(t.symbol ?? '') && t.chains.length === CHAINS.length)).toBe(true);
    // The rows add up to the genuine by-underlying table.
    expect(decimalSum(view.tokens.map((t) => t.nav ?? 0))).toBe(decimalSum(view.underlying.map((u) => u.group.total_nav ?? 0)));
  });

  it('the change since a date counts genuine positions only: the rows add up to the change of the total', async () => {
    const [then, now] = [await core.call('portfolio.view', { date: DATES[0]! }), await core.call('portfolio.view', { date: DATES[1]! })];
    const change = await core.call('portfolio.change', { date: DATES[1]!, since: DATES[0]! });
    expect(change.notCached).toEqual([]);
    expect(change.total).toBe(decimalSum([now.totals.total!, -then.totals.total!]));
    const spamKeys = new Set([...then.spam.rows, ...now.spam.rows].map((r) => r.key));
    expect(Object.keys(change.positions).some((k) => spamKeys.has(k))).toBe(false);
    expect(change.gone.some((g) => spamKeys.has(g.key))).toBe(false);
    // A date not before the as-of date is refused, not answered with a change of 0.
    await expect(core.call('portfolio.change', { date: DATES[0]!, since: DATES[1]! })).rejects.toThrow(/before/);
  });
});
