import { describe, expect, it } from 'vitest';
import { viewsDisagree } from '../../src/main/core/positions/moment.ts';
import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot } from '../../src/shared/service/schemas.ts';

/** The evidence the three views of one date are compared on (positions/moment.ts), case by case. */
type Leg = { token: string; qty: number | null };
type Pos = { cid: string; name: string; legs: Leg[] };

const base = { asset_type: 'lending', chain_id: 'eth', protocol_id: 'aave' };
const snap = <T>(positions: T[]) => [{ wallet_id: '0xa', date: null, service_date: null, positions }] as never;
const all = (ps: Pos[]): PositionSnapshot[] =>
  snap(
    ps.map((p) => ({
      ...base,
      cid: p.cid,
      name: p.name,
      symbol: null,
      principal_nav: 1,
      reward_nav: 0,
      underlying: p.legs.map((l) => ({ internal_id: l.token, name: l.token, symbol: l.token, qty: l.qty, nav: 1, details: {} })),
    })),
  );
const grouped = (ps: Pos[]): UnderlyingSnapshot[] => {
  const groups = new Map<string, Array<Record<string, unknown>>>();
  for (const p of ps)
    for (const l of p.legs) groups.set(l.token, [...(groups.get(l.token) ?? []), { ...base, pos_id: p.cid, cid: p.cid, name: p.name, qty: l.qty, nav: 1 }]);
  return snap(
    [...groups].map(([token, breakdown]) => ({
      token_id: token,
      token_name: token,
      token_symbol: token,
      token_cid: null,
      total_qty: 0,
      total_nav: 0,
      breakdown,
    })),
  );
};
const liquidity = (ps: Pos[]): LiquiditySnapshot[] =>
  snap(
    ps.map((p) => ({
      ...base,
      cid: p.cid,
      principal_token_name: p.name,
      principal_token_symbol: null,
      principal_qty: 1,
      principal_total_supply: 1,
      principal_pct_ownership: 1,
      underlying: p.legs.map((l) => ({ name: l.token, symbol: l.token, qty: l.qty, total_supply: 1, pct_ownership: 1, details: {} })),
    })),
  );

const A: Pos = {
  cid: '0xA1',
  name: 'Aave USDC',
  legs: [
    { token: 'usdc', qty: 100 },
    { token: 'weth', qty: -0.5 },
  ],
};
const B: Pos = { cid: '0xb2', name: 'Lido stETH', legs: [{ token: 'steth', qty: 3.25 }] };

describe('the three views of one date: one moment or not', () => {
  it('agree when every view holds the same positions with the same quantities, in any order and letter case of cid', () => {
    expect(viewsDisagree(all([A, B]), grouped([B, A]), liquidity([{ ...A, cid: '0xa1' }, B]))).toBeNull();
  });
  it('a position in two views and not the third: the counts, each view named', () => {
    expect(viewsDisagree(all([A, B]), grouped([A]), liquidity([A, B]))).toBe(
      'the positions view lists 2 positions, the by-token view 1 and the liquidity view 2',
    );
  });
  it('as many positions but another one: which, and where it is missing', () => {
    const C: Pos = { ...B, cid: '0xc3', name: 'Curve 3pool' };
    expect(viewsDisagree(all([A, B]), grouped([A, C]), liquidity([A, B]))).toBe('Lido stETH is in the positions view but not in the by-token view');
  });
  it('a quantity that moved between the requests', () => {
    const moved: Pos = { ...B, legs: [{ token: 'steth', qty: 3.5 }] };
    expect(viewsDisagree(all([A, B]), grouped([A, B]), liquidity([A, moved]))).toBe(
      'Lido stETH has a quantity of 3.25 in the positions view, 3.5 in the liquidity view',
    );
  });
  it('a millionth apart is one figure rounded otherwise; an unreadable quantity (null) matches anything', () => {
    const rounded: Pos = { ...B, legs: [{ token: 'steth', qty: 3.250001 }] };
    const unread: Pos = {
      ...A,
      legs: [
        { token: 'usdc', qty: null },
        { token: 'weth', qty: -0.5 },
      ],
    };
    expect(viewsDisagree(all([A, B]), grouped([unread, B]), liquidity([A, rounded]))).toBeNull();
  });
  it('a leg more in one view', () => {
    const more: Pos = { ...B, legs: [...B.legs, { token: 'ldo', qty: 1 }] };
    expect(viewsDisagree(all([A, B]), grouped([A, more]), liquidity([A, B]))).toBe('Lido stETH has 1 token in the positions view, 2 in the by-token view');
  });
});
