import { describe, expect, it } from 'vitest';
import { groupByCollateral } from '../../src/renderer/src/lib/risk-groups.ts';
import type { LendingRisk } from '../../src/shared/model.ts';

describe('grouping by collateral token', () => {
  const pos = (wallet: string, chain: string, symbol: string, r: number, debtNav: number | null): LendingRisk => ({
    wallet,
    chain,
    protocolId: 'aave_v3',
    cid: `${wallet}${chain}${symbol}`,
    name: `${symbol} loan`,
    collateralDebtRatio: r,
    liqThreshold: 0.8,
    collateral: [{ tokenId: `${chain}:${symbol}`, symbol, qty: 1, nav: 100, share: 1 }],
    debt: [],
    collateralNav: 100,
    debtNav,
  });

  it('groups the same token across chains and wallets; the summary counts and values the loans that cross', () => {
    // Health 0.8·R: falls to threshold 1 − 1/(0.8R): R=1.5 → 16.7%, R=2 → 37.5%, R=4 → 68.75%.
    const groups = groupByCollateral(
      [pos('a', 'eth', 'WETH', 1.5, 50), pos('b', 'arb', 'WETH', 2, 30), pos('a', 'eth', 'WBTC', 4, 10), pos('c', 'eth', 'WETH', 4, null)],
      0.25,
    );
    const weth = groups.find((g) => g.symbol === 'WETH')!;
    expect(weth.items).toHaveLength(3);
    expect(weth.crossing).toBe(1);
    expect(weth.crossingDebt).toBe(50);
    expect(weth.items.map((i) => i.position.wallet)).toEqual(['a', 'b', 'c']); // nearest to the threshold first
    const at40 = groupByCollateral([pos('a', 'eth', 'WETH', 1.5, 50), pos('b', 'arb', 'WETH', 2, 30), pos('c', 'eth', 'WETH', 4, null)], 0.4).find(
      (g) => g.symbol === 'WETH',
    )!;
    expect([at40.crossing, at40.crossingDebt, at40.crossingDebtKnown]).toEqual([2, 80, true]);
    const at70 = groupByCollateral([pos('a', 'eth', 'WETH', 1.5, 50), pos('c', 'eth', 'WETH', 4, null)], 0.7).find((g) => g.symbol === 'WETH')!;
    expect([at70.crossing, at70.crossingDebtKnown]).toEqual([2, false]);
  });
});
