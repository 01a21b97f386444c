import { describe, expect, it } from 'vitest';
import { exposureOf } from '../../src/main/core/analytics/exposure.ts';
import type { PortfolioView } from '../../src/shared/portfolio/view.ts';

/** Exposure by token across wallets and chains (issue 39, Medium 17): UNI on two chains is one row. */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';

function row(wallet: string, chain: string, token_id: string, token_symbol: string | null, token_name: string | null, qty: number, nav: number) {
  return { wallet, chain, group: { token_id, token_symbol, token_name, token_cid: null, total_qty: qty, total_nav: nav, breakdown: [] } };
}

const view = (underlying: ReturnType<typeof row>[]) =>
  ({ date: '2026-11-20', underlying, members: [], provenance: [] }) as unknown as Pick<PortfolioView, 'date' | 'underlying' | 'members' | 'provenance'>;

describe('exposure by token', () => {
  it('one row per token as named, its chains and wallets beneath; the total unchanged', () => {
    const ex = exposureOf(
      view([
        row(A, 'eth', 'eth:0x1f98', 'UNI', 'Uniswap', 10, 100.1),
        row(A, 'arb', 'arb:0xfa7f', 'UNI', 'Uniswap', 5, 50.2),
        row(B, 'eth', 'eth:0x1f98', 'UNI', 'Uniswap', 1, 10.01),
        row(A, 'eth', 'eth:0xc02a', 'WETH', 'Wrapped Ether', 2, 7000),
        // Not named by the service: kept apart by its id, never merged with another unnamed token.
        row(A, 'eth', 'eth:0xdead', null, null, 1, 1),
        row(A, 'arb', 'arb:0xbeef', null, null, 1, 2),
      ]),
    );
    expect(ex.tokens.map((t) => [t.symbol, t.totalQty, t.totalNav, t.wallets.length])).toEqual([
      ['WETH', 2, 7000, 1],
      ['UNI', 16, 160.31, 3],
      [null, 1, 2, 1],
      [null, 1, 1, 1],
    ]);
    expect(ex.tokens.find((t) => t.symbol === 'UNI')!.wallets.map((w) => `${w.wallet.slice(0, 4)} ${w.chain}`)).toEqual(['0x5a eth', '0x5a arb', '0x00 eth']);
    expect(ex.totalNav).toBe(7163.31);
  });

  it('a token with the same symbol and another name stays its own row', () => {
    const ex = exposureOf(
      view([row(A, 'eth', 'eth:0xa0b8', 'USDC', 'USD Coin', 1, 1), row(A, 'eth', 'eth:0x9999', 'USDC', 'USDC Rewards (visit site)', 1, 1)]),
    );
    expect(ex.tokens).toHaveLength(2);
  });
});
