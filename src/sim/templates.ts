import { type ChainInfo } from './chains.ts';
import { type AssetType, ASSET_TYPES, priceOn, PROTOCOLS, STABLES } from './catalog.ts';
import { Rng } from './random.ts';

/**
 * The protocol positions a wallet holds on a chain over time, as planned from the seed:
 * which protocol and tokens, when each opens and closes, and how each leg's quantity moves
 * (its declared course). Shared by the positions (positions.ts) and the transactions that open
 * and close them (transactions.ts), so the two cannot disagree.
 */

const DAY_MS = 86_400_000;

export type LegKind = 'balance' | 'supply' | 'borrow' | 'pool' | 'staked' | 'locked' | 'reward';

export interface Template {
  index: number;
  assetType: AssetType;
  protocol: { id: string; name: string };
  openDay: number;
  closeDay: number;
  tokens: string[];
  /** USD size of the position on its opening day (its quantities are fixed then). */
  sizeUsd: number;
  key: number;
}

export const FIRST_OPEN = Math.floor(Date.UTC(2023, 6, 1) / DAY_MS);
const LAST_OPEN = Math.floor(Date.UTC(2026, 10, 30) / DAY_MS);

const TOKEN_SETS: Record<AssetType, string[][]> = {
  wallet: [['NATIVE'], ['USDC'], ['USDT'], ['WBTC'], ['LINK'], ['UNI'], ['DAI'], ['AAVE']],
  lending: [
    ['WETH', 'USDC'],
    ['WBTC', 'DAI'],
    ['WETH', 'USDT'],
    ['LINK', 'USDC'],
  ],
  liquidity_pool: [
    ['WETH', 'USDC'],
    ['WBTC', 'WETH'],
    ['USDC', 'USDT'],
    ['DAI', 'USDC'],
  ],
  staked: [['STETH'], ['RETH']],
  locked: [['CRV']],
  farming: [
    ['USDC', 'DAI'],
    ['WETH', 'STETH'],
  ],
};
const REWARD_TOKEN: Partial<Record<AssetType, string>> = {
  lending: 'AAVE',
  liquidity_pool: 'UNI',
  staked: 'NATIVE',
  locked: 'CRV',
  farming: 'CVX',
};

const templateCache = new Map<string, Template[]>();

export function templatesFor(seed: number, wallet: string, chainId: string): Template[] {
  const cacheKey = `${seed}|${wallet}|${chainId}`;
  const cached = templateCache.get(cacheKey);
  if (cached) return cached;
  const rng = new Rng(seed, wallet, chainId, 'templates');
  const count = rng.int(8, 12);
  const templates: Template[] = [];
  for (let index = 0; index < count; index++) {
    // The first positions are long-held (a wallet balance, then a mix), so every wallet has
    // something on every date; later ones open and close over the history.
    const assetType: AssetType = index === 0 ? 'wallet' : index < ASSET_TYPES.length ? ASSET_TYPES[index]! : rng.pick(ASSET_TYPES);
    const longHeld = index < 3;
    // The days a position is planned to open and close: inside a wallet's history, the
    // transaction that does it decides the day (positionEventsOf in transactions.ts).
    const openDay = longHeld ? FIRST_OPEN - rng.int(0, 200) : rng.int(FIRST_OPEN, LAST_OPEN);
    const closeDay = longHeld || rng.chance(0.35) ? Number.POSITIVE_INFINITY : openDay + rng.int(45, 700);
    templates.push({
      index,
      assetType,
      protocol: rng.pick(PROTOCOLS[assetType]),
      openDay,
      closeDay,
      tokens: rng.pick(TOKEN_SETS[assetType]),
      sizeUsd: Math.round(10 ** rng.between(2.7, 5.2)),
      key: rng.int(0, 1_000_000),
    });
  }
  if (templateCache.size > 5000) templateCache.clear();
  templateCache.set(cacheKey, templates);
  return templates;
}

/**
 * A leg's declared course: its quantity on a day is qty0 grown at `rate` a year (continuous:
 * interest, a rebase; 0 for a pool, a lock) plus `perDay` accrued each day after the day the
 * position opened (rewards, never claimed inside the model). Nothing else moves it, so a
 * token's change between two dates is its transfers plus these accruals, exactly.
 */
export interface DeclaredLeg {
  key: string;
  kind: LegKind;
  /** Signed quantity on the opening day (debt is negative), before any accrual. */
  qty0: number;
  rate: number;
  perDay: number;
}

/**
 * A lending position's liquidation threshold, declared by its collateral token (what the service
 * sends as `liq_threshold`): WBTC 0.78, a stablecoin 0.9, any other 0.825.
 */
export function liqThresholdOf(collateralKey: string): number {
  return collateralKey === 'WBTC' ? 0.78 : STABLES.has(collateralKey) ? 0.9 : 0.825;
}

export function declaredQty(leg: DeclaredLeg, openDay: number, day: number): number {
  return leg.qty0 * Math.exp((leg.rate * (day - openDay)) / 365) + leg.perDay * (day - openDay);
}

/** A template's legs for a position that opens on openDay (the day its quantities are fixed at that day's prices). */
export function declaredLegs(t: Template, chain: ChainInfo, openDay: number): DeclaredLeg[] {
  // Kept with the (cached) template: a position's legs are read on every day it is asked for.
  const key = `${chain.id}|${openDay}`;
  let byOpen = legsCache.get(t);
  if (!byOpen) legsCache.set(t, (byOpen = new Map()));
  let legs = byOpen.get(key);
  if (!legs) byOpen.set(key, (legs = computeLegs(t, chain, openDay)));
  return legs;
}

const legsCache = new WeakMap<Template, Map<string, DeclaredLeg[]>>();

function computeLegs(t: Template, chain: ChainInfo, openDay: number): DeclaredLeg[] {
  const at = (k: string) => priceOn(k, openDay, chain.id);
  const fixed = (key: string, kind: LegKind, qty0: number, rate = 0): DeclaredLeg => ({ key, kind, qty0, rate, perDay: 0 });
  const legs: DeclaredLeg[] = [];
  switch (t.assetType) {
    case 'lending': {
      // Supply and debt grow at the supply and the borrow rate (interest, which no transaction shows).
      const supplyRate = 0.01 + 0.04 * ((t.key % 101) / 100);
      const borrowRate = 0.03 + 0.06 * ((t.key % 89) / 88);
      const openRatio = 2.4 + 1.2 * ((t.key % 71) / 70);
      legs.push(fixed(t.tokens[0]!, 'supply', t.sizeUsd / at(t.tokens[0]!), supplyRate));
      legs.push(fixed(t.tokens[1]!, 'borrow', -t.sizeUsd / openRatio / at(t.tokens[1]!), borrowRate));
      break;
    }
    case 'liquidity_pool':
    case 'farming':
      // Fixed quantities of each token: the pool is not rebalanced by prices (that would move
      // quantities with no transaction and no declared rate).
      for (const k of t.tokens) legs.push(fixed(k, 'pool', t.sizeUsd / t.tokens.length / at(k)));
      break;
    case 'staked':
      // A rebasing staked token: the quantity grows with the staking yield.
      legs.push(fixed(t.tokens[0]!, 'staked', t.sizeUsd / at(t.tokens[0]!), 0.032));
      break;
    case 'locked':
      // A lock holds the same quantity until it ends: its change is zero.
      legs.push(fixed(t.tokens[0]!, 'locked', t.sizeUsd / at(t.tokens[0]!)));
      break;
    case 'wallet':
      throw new Error('wallet balances come from walletBalances');
  }
  // Rewards accrue at a declared quantity a day (0.4 % of the size a month, at the opening price).
  const rewardKey = REWARD_TOKEN[t.assetType];
  if (rewardKey) legs.push({ key: rewardKey, kind: 'reward', qty0: 0, rate: 0, perDay: (t.sizeUsd * 0.004) / 30 / at(rewardKey) });
  return legs;
}
