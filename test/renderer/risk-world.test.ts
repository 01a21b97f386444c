import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { groupByCollateral } from '../../src/renderer/src/lib/risk-groups.ts';
import { headroom } from '../../src/shared/headroom.ts';
import type { LendingRisk } from '../../src/shared/model.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { DEMO_WALLETS, worldLoans } from '../support/world.ts';

/**
 * The Risk view's figures for the demo's lending positions (issue 27), checked against the
 * reference world itself, not against the client's code: each position's collateral and debt on
 * the day come from the simulator's declaration (the legs' opening quantities and rates, its
 * price model, the liquidation threshold it declares), and the health, the headroom under a
 * stress and the liquidation price are computed from those (worldLoans, test/support/world.ts). A client that read the wrong
 * leg, the wrong sign, the wrong date or another position's threshold, or grouped or stressed
 * them wrongly, agrees with itself and fails here.
 *
 * "Exact" is to the digits the service sends: quantities to 6 decimals, values to the cent, the
 * collateral/debt ratio to 4 decimals. Each comparison allows exactly what that rounding can
 * move the figure (`healthTolerance`), nothing more.
 */

/** The close of the last complete month before the demo's clock, and a date well inside the history. */
const DATES = ['2026-10-31', '2025-06-30'] as const;
/** Falls of the collateral token the stress control is tried at. */
const STRESSES = [0.1, 0.25, 0.45, 0.52, 0.7];
let core: Core;

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
  for (const w of DEMO_WALLETS) await core.call('wallets.add', { address: w.address, chains: [...w.chains] });
  for (const w of DEMO_WALLETS) await waitForJobs(core, await Promise.all(DATES.map((date) => core.call('sync.positions', { wallet: w.address, date }))));
}, 120_000);
afterAll(() => core?.close());

const keyOf = (p: LendingRisk) => `${p.wallet}|${p.chain}|${p.cid}`;

describe.each(DATES)('the demo’s lending risk at %s, from the world’s declaration', (date) => {
  const world = () => new Map(worldLoans(DEMO_WALLETS, date).map((l) => [l.key, l]));

  it('lists exactly the world’s loans, each with its threshold, legs, health and liquidation price', async () => {
    const { risk } = await core.call('portfolio.view', { date });
    const loans = world();
    expect(risk.missing).toEqual([]);
    expect(risk.unknown).toEqual([]);
    expect(loans.size).toBeGreaterThanOrEqual(3);
    expect(new Set(risk.positions.map(keyOf))).toEqual(new Set(loans.keys()));
    for (const p of risk.positions) {
      const l = loans.get(keyOf(p))!;
      const what = `${keyOf(p)} ${l.symbol}`;
      expect(p.liqThreshold, what).toBe(l.threshold);
      expect(
        p.collateral.map((c) => [c.symbol, c.share]),
        what,
      ).toEqual([[l.symbol, 1]]);
      expect(p.collateral[0]!.qty, what).toBeCloseTo(l.supplyQty, 6);
      expect(p.debt[0]!.qty, what).toBeCloseTo(-l.debtQty, 6);
      expect(Math.abs(p.collateralNav! - l.supplyQty * l.supplyPrice), what).toBeLessThanOrEqual(0.006 + 5e-7 * l.supplyPrice);
      expect(Math.abs(p.debtNav! - l.debtUsd), what).toBeLessThanOrEqual(0.006 + 5e-7 * l.debtPrice);
      const h = headroom(p.collateralDebtRatio, p.liqThreshold)!;
      expect(Math.abs(h.health - l.health), `${what} health ${h.health} vs ${l.health}`).toBeLessThanOrEqual(l.healthTolerance);
      expect(Math.abs(h.debtRise - (l.health - 1)), what).toBeLessThanOrEqual(l.healthTolerance);
      // The liquidation price the Risk view implies: the collateral's price on the day (its value
      // ÷ its quantity, as sent) after the fall it shows to the threshold.
      const [group] = groupByCollateral([p], 0);
      const fall = group!.items[0]!.fall!;
      const price = p.collateral[0]!.nav! / p.collateral[0]!.qty!;
      const relative = l.healthTolerance / l.health + (0.005 + 5e-7 * l.supplyPrice) / (l.supplyQty * l.supplyPrice);
      expect(Math.abs(price * (1 - fall) - l.liquidationPrice) / l.liquidationPrice, `${what} liquidation price`).toBeLessThanOrEqual(relative * 1.01);
    }
  });

  it.each(STRESSES)('under a %s fall of the collateral: each loan’s stressed health, and which cross and what they owe', async (stress) => {
    const { risk } = await core.call('portfolio.view', { date });
    const loans = world();
    const groups = groupByCollateral(risk.positions, stress);
    // Grouped by collateral token as the world holds them.
    const bySymbol = new Map<string, string[]>();
    for (const l of loans.values()) bySymbol.set(l.symbol, [...(bySymbol.get(l.symbol) ?? []), l.key].sort());
    expect(new Map(groups.map((g) => [g.symbol, g.items.map((i) => keyOf(i.position)).sort()]))).toEqual(bySymbol);
    for (const g of groups) {
      const inGroup = g.items.map((i) => loans.get(keyOf(i.position))!);
      // The world's health after the collateral token falls by `stress`: collateral × (1 − stress) × threshold ÷ debt.
      const stressed = inGroup.map((l) => l.health * (1 - stress));
      for (const [i, it] of g.items.entries())
        expect(Math.abs(it.stressed - stressed[i]!), `${keyOf(it.position)} at ${stress}`).toBeLessThanOrEqual(inGroup[i]!.healthTolerance);
      // None of the world's loans sits so near the line that the service's rounding could put it on the other side.
      for (const [i, s] of stressed.entries()) expect(Math.abs(s - 1)).toBeGreaterThan(inGroup[i]!.healthTolerance);
      const crossing = inGroup.filter((_, i) => stressed[i]! < 1);
      expect([g.symbol, g.crossing], `crossing at ${stress}`).toEqual([g.symbol, crossing.length]);
      expect(g.crossingDebtKnown).toBe(true);
      expect(Math.abs(g.crossingDebt - crossing.reduce((a, l) => a + l.debtUsd, 0))).toBeLessThanOrEqual(0.006 * crossing.length + 1e-9);
    }
  });

  it('the stresses tried leave some loans safe and bring others to the threshold', () => {
    const healths = [...world().values()].map((l) => l.health);
    const crossing = (s: number) => healths.filter((h) => h * (1 - s) < 1).length;
    expect(STRESSES.some((s) => crossing(s) > 0 && crossing(s) < healths.length)).toBe(true);
  });
});
