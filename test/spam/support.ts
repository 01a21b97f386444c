/**
 * Hand-made service data for the spam tests: transactions as the service sends them, the three
 * position views of one (wallet, chain, day), lookalike addresses, and a seeded random source
 * (no test depends on the machine's randomness or clock).
 */
import type { SnapshotInput } from '../../src/main/core/positions/store/snapshots.ts';
import type { SnapshotEndpoint } from '../../src/shared/model.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';

/** A small deterministic generator (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
    hex: (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join(''),
  };
}
export type Rng = ReturnType<typeof rng>;

/** An address that keeps the first and last `keep` hex digits of `a` and changes every digit between. */
export function lookalike(a: string, r: Rng, keep = 4): string {
  const middle = a
    .slice(2 + keep, 42 - keep)
    .split('')
    .map((c) => ((parseInt(c, 16) + r.int(1, 15)) % 16).toString(16))
    .join('');
  return `0x${a.slice(2, 2 + keep)}${middle}${a.slice(42 - keep)}`;
}

export const address = (r: Rng) => `0x${r.hex(40)}`;

let hashes = 0;
/** A transaction as the service sends it; a fresh hash unless given. */
export function txn(o: Partial<Transaction> & { wallet_id: string | null }): Transaction {
  return {
    txn_hash: `0x${(++hashes).toString(16).padStart(64, 'a')}`,
    block: 1,
    from: o.wallet_id,
    to: o.wallet_id,
    from_type: 'eoa',
    to_type: 'eoa',
    txn_fee: 0.0001,
    gas_fee: 0.2,
    action_type: 'transfer_in',
    method_hex: '0xa9059cbb',
    protocol_id: 'wallet',
    chain_id: 'eth',
    date: '2026-10-01T00:00:00Z',
    details: [],
    status: 1,
    ...o,
  };
}

/** A transaction as the judge reads a cached row of it, for `wallet` (its own wallet_id unless given). */
export const judgedRow = (t: Transaction, wallet: string = t.wallet_id ?? '') => ({
  wallet,
  chain: t.chain_id ?? 'eth',
  txnHash: t.txn_hash,
  from: t.from,
  to: t.to,
  methodHex: t.method_hex,
  status: t.status,
  details: t.details,
});

/** One view's response as the positions store files it. */
export function snapshot<E extends SnapshotEndpoint>(endpoint: E, wallet: string, chain: string, day: string, positions: unknown[]): SnapshotInput<E> {
  const data = [{ wallet_id: wallet, date: `${day}T00:00:00Z`, service_date: `${day}T00:00:00Z`, positions }];
  return {
    endpoint,
    wallet,
    chain,
    requestedDate: day,
    response: { data: data as never, requestId: null, body: JSON.stringify({ data }), fetchedAt: `${day}T12:00:00.000Z` },
  };
}

/** A token held as a plain balance, in the three views' shapes: what `holding` makes of it. */
export interface Holding {
  cid: string;
  symbol: string;
  name: string;
  qty: number;
  nav: number;
  /** The liquidity view: a slippage, listed without one (undefined), or left out (null). */
  slippage?: number | null | undefined;
}

/** The three views of a (wallet, chain, day) holding these balances (position cids made from the token's). */
export function holdingViews(wallet: string, chain: string, day: string, holdings: readonly Holding[]) {
  const posCid = (h: Holding) => `0x${h.cid.slice(2, 10)}${'0'.repeat(32)}`;
  const id = (h: Holding) => `${chain}:${h.cid}`;
  const all = holdings.map((h) => ({
    asset_type: 'wallet',
    chain_id: chain,
    protocol_id: 'wallet',
    cid: posCid(h),
    name: h.name,
    symbol: h.symbol,
    principal_nav: h.nav,
    reward_nav: 0,
    underlying: [{ internal_id: id(h), name: h.name, symbol: h.symbol, qty: h.qty, nav: h.nav, details: { is_reward: false, type: 'balance' } }],
  }));
  const under = holdings.map((h) => ({
    token_id: id(h),
    token_name: h.name,
    token_symbol: h.symbol,
    token_cid: h.cid,
    total_qty: h.qty,
    total_nav: h.nav,
    breakdown: [{ chain_id: chain, pos_id: posCid(h), asset_type: 'wallet', cid: posCid(h), protocol_id: 'wallet', name: h.name, qty: h.qty, nav: h.nav }],
  }));
  const liquidity = holdings
    .filter((h) => h.slippage !== null)
    .map((h) => ({
      asset_type: 'wallet',
      chain_id: chain,
      protocol_id: 'wallet',
      cid: posCid(h),
      principal_token_name: h.name,
      principal_token_symbol: h.symbol,
      principal_qty: h.qty,
      principal_total_supply: h.qty * 1e6,
      principal_pct_ownership: 0.0001,
      underlying: [
        {
          name: h.name,
          symbol: h.symbol,
          qty: h.qty,
          total_supply: h.qty * 1e6,
          pct_ownership: 0.0001,
          details: { is_reward: false, ...(h.slippage !== undefined && { slippage: h.slippage }) },
        },
      ],
    }));
  return {
    all,
    inputs: [
      snapshot('allPositions', wallet, chain, day, all),
      snapshot('positionsByUnderlying', wallet, chain, day, under),
      snapshot('liquidityAnalysis', wallet, chain, day, liquidity),
    ] as Array<SnapshotInput<SnapshotEndpoint>>,
  };
}
