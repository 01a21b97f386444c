import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { groupByCollateral } from '../../src/renderer/src/lib/risk-groups.ts';
import { headroom } from '../../src/shared/headroom.ts';
import type { LendingRisk } from '../../src/shared/model.ts';
import { onChain, priceOn } from '../../src/sim/catalog.ts';
import { chainById } from '../../src/sim/chains.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { DAY_MS, declaredPositions } from '../../src/sim/positions.ts';
import { declaredQty } from '../../src/sim/templates.ts';
import { defaultHistory } from '../../src/sim/transactions.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The Risk view's figures for the demo's lending positions (issue 27), checked against the
 * reference world itself, not against the client's code: each position's collateral and debt on
 * the day come from the simulator's declaration (the legs' opening quantities and rates, its
 * price model, the liquidation threshold it declares), and the health, the headroom under a
 * stress and the liquidation price are computed here from those. A client that read the wrong
 * leg, the wrong sign, the wrong date or another position's threshold, or grouped or stressed
 * them wrongly, agrees with itself and fails here.
 *
 * "Exact" is to the digits the service sends: quantities to 6 decimals, values to the cent, the
 * collateral/debt ratio to 4 decimals. Each comparison allows exactly what that rounding can
 * move the figure (`wire` below), nothing more.
 */
const DEMO_WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
/** The close of the last complete month before the demo's clock, and a date well inside the history. */
const DATES = ['2026-10-31', '2025-06-30'] as const;
/** Falls of the collateral token the stress control is tried at. */
const STRESSES = [0.1, 0.25, 0.45, 0.52, 0.7];
let core: Core;

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
  for (const w of DEMO_WALLETS) await core.call('wallets.add', { address: w.address, chains: w.chains });
  for (const w of DEMO_WALLETS) await waitForJobs(core, await Promise.all(DATES.map((date) => core.call('sync.positions', { wallet: w.address, date }))));
}, 120_000);
afterAll(() => core?.close());

/** A lending position of the world on a day, from its declaration. */
interface WorldLoan {
  key: string;
  symbol: string;
  /** Collateral and debt quantities (debt as a positive amount) and their USD prices on the day. */
  supplyQty: number;
  debtQty: number;
  supplyPrice: number;
  debtPrice: number;
  threshold: number;
  /** supply value ÷ debt value: the collateral/debt ratio. */
  ratio: number;
  health: number;
  debtUsd: number;
  /** The collateral token's price at which the health is 1: debt ÷ (quantity × threshold). */
  liquidationPrice: number;
  /** How far the client's health may be from `health` by the service's rounding alone. */
  healthTolerance: number;
}

function worldLoans(date: string): WorldLoan[] {
  const day = Date.parse(`${date}T00:00:00Z`) / DAY_MS;
  const out: WorldLoan[] = [];
  for (const w of DEMO_WALLETS)
    for (const id of w.chains) {
      const chain = chainById(id)!;
      for (const p of declaredPositions(defaultHistory(1), w.address, chain)) {
        if (p.assetType !== 'lending' || day < p.openDay || day >= p.closeDay) continue;
        const supply = p.legs.find((l) => l.kind === 'supply')!;
        const borrow = p.legs.find((l) => l.kind === 'borrow')!;
        const supplyQty = declaredQty(supply, p.openDay, day);
        const debtQty = -declaredQty(borrow, p.openDay, day);
        const supplyPrice = priceOn(supply.key, day, chain.id);
        const debtPrice = priceOn(borrow.key, day, chain.id);
        const threshold = p.liqThreshold!;
        const supplyUsd = supplyQty * supplyPrice;
        const debtUsd = debtQty * debtPrice;
        const ratio = supplyUsd / debtUsd;
        // The service sends quantities to 6 decimals, values to the cent and the ratio to 4
        // decimals: the ratio it sends is within half its last digit of the ratio of the rounded
        // values, each of which is within half a cent (plus half a micro-unit's worth) of the true one.
        const valueError = (qty: number, price: number) => (0.005 + 5e-7 * price) / (qty * price);
        const ratioError = 5e-5 + ratio * (valueError(supplyQty, supplyPrice) + valueError(debtQty, debtPrice)) * 1.01;
        out.push({
          key: `${w.address}|${id}|${p.cid}`,
          symbol: onChain(supply.key, chain).symbol,
          supplyQty,
          debtQty,
          supplyPrice,
          debtPrice,
          threshold,
          ratio,
          health: ratio * threshold,
          debtUsd,
          liquidationPrice: debtUsd / (supplyQty * threshold),
          healthTolerance: ratioError * threshold,
        });
      }
    }
  return out;
}

const keyOf = (p: LendingRisk) => `${p.wallet}|${p.chain}|${p.cid}`;

describe.each(DATES)('the demo’s lending risk at %s, from the world’s declaration', (date) => {
  const world = () => new Map(worldLoans(date).map((l) => [l.key, l]));

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
