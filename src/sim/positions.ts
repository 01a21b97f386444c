import { type ChainInfo } from './chains.ts';
import { type AssetType, ASSET_TYPES, onChain, priceOn, PROTOCOLS, STABLES } from './catalog.ts';
import { hexOf, Rng, round, wave } from './random.ts';
import { FLOW_TOKENS, type HistoryConfig, historyOf, ledgerOf, netFlowThrough } from './transactions.ts';

/**
 * The simulator's model of what a wallet holds on a chain on a day. One model feeds
 * the three position endpoints (see views.ts), so their numbers always agree.
 */

export type LegKind = 'balance' | 'supply' | 'borrow' | 'pool' | 'staked' | 'locked' | 'reward';

export interface Leg {
  internalId: string;
  tokenCid: string;
  name: string;
  symbol: string;
  kind: LegKind;
  /** Signed: debt is negative. */
  qty: number;
  nav: number;
  /** The pool's reserve of this token, for the liquidity view. */
  totalSupply: number;
  exchangeRate?: number;
  unlockTime?: string;
  votingPower?: number;
  slippage?: number;
}

export interface SimPosition {
  assetType: AssetType;
  protocolId: string;
  cid: string;
  name: string;
  symbol: string;
  legs: Leg[];
  principalQty: number;
  principalTotalSupply: number;
  /** Lending only: links and risk figures shared by the supply and borrow legs. */
  liqThreshold?: number;
  collateralDebtRatio?: number;
}

interface Template {
  index: number;
  assetType: AssetType;
  protocol: { id: string; name: string };
  openDay: number;
  closeDay: number;
  tokens: string[];
  /** USD size the position aims at, moved by a smooth wave over time. */
  sizeUsd: number;
  key: number;
}

export const DAY_MS = 86_400_000;
const FIRST_OPEN = Math.floor(Date.UTC(2023, 6, 1) / DAY_MS);
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

function templatesFor(seed: number, wallet: string, chainId: string): Template[] {
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

export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Everything a wallet holds on a chain on a day (its end: after the day's transactions),
 * deterministically. Plain wallet balances follow the transaction history (see
 * walletBalances); the other positions follow their own model.
 */
export function positionsOn(history: HistoryConfig, wallet: string, chain: ChainInfo, day: number): SimPosition[] {
  const seed = history.seed;
  const out: SimPosition[] = walletBalances(history, wallet, chain, day);
  for (const t of templatesFor(seed, wallet.toLowerCase(), chain.id)) {
    // Wallet templates no longer hold tokens of their own: balances come from the ledger.
    if (t.assetType === 'wallet') continue;
    if (day < t.openDay || day >= t.closeDay) continue;
    out.push(build(seed, wallet, chain, day, t));
  }
  return out;
}

/**
 * Plain token balances (asset_type `wallet`): an opening float plus the net of every
 * successful transfer up to the end of the day, so a roll-forward between two dates
 * reconciles exactly. The float is chosen from the whole history so that no balance ever
 * goes negative: it is the deepest the running net falls below zero, plus the range the
 * running net spans (so balances stay large next to a week's flows), plus a little.
 */
export function walletBalances(history: HistoryConfig, wallet: string, chain: ChainInfo, day: number): SimPosition[] {
  const h = historyOf(history, wallet, chain);
  const ledger = ledgerOf(h);
  const startDay = Math.floor(history.historyStart / 86_400);
  const out: SimPosition[] = [];
  for (const key of FLOW_TOKENS) {
    const tok = onChain(key, chain);
    const low = ledger.low.get(key)!;
    const high = ledger.high.get(key)!;
    const extraUsd = new Rng(history.seed, h.wallet, chain.id, 'float', key).between(50, 2500);
    const extra = Math.round((extraUsd / priceOn(key, startDay, chain.id)) * 1e6);
    const micro = -low + (high - low) + extra + netFlowThrough(ledger, key, day);
    if (micro <= 0) continue;
    const qty = micro / 1e6;
    const p = priceOn(key, day, chain.id);
    const leg: Leg = {
      internalId: tok.internalId,
      tokenCid: tok.address,
      name: tok.name,
      symbol: tok.symbol,
      kind: 'balance',
      qty,
      nav: round(qty * p, 2),
      // A wallet's balance is a tiny share of the token's supply.
      totalSupply: round(qty / 10 ** new Rng(history.seed, 'supply', chain.id, key).between(-7, -5), 2),
    };
    out.push({
      assetType: 'wallet',
      protocolId: 'wallet',
      cid: '0x' + hexOf(40, history.seed, h.wallet, chain.id, 'balance', key),
      name: tok.name,
      symbol: tok.symbol,
      legs: [leg],
      principalQty: qty,
      principalTotalSupply: leg.totalSupply,
    });
  }
  return out;
}

function build(seed: number, wallet: string, chain: ChainInfo, day: number, t: Template): SimPosition {
  const rng = new Rng(seed, wallet, chain.id, t.index, day);
  const size = t.sizeUsd * (1 + 0.3 * wave(day - t.openDay, t.key));
  const tokens = t.tokens.map((k) => onChain(k, chain));
  const price = (k: string) => priceOn(k, day, chain.id);
  const cid = '0x' + hexOf(40, seed, wallet, chain.id, 'position', t.index);
  const leg = (k: string, kind: LegKind, usd: number, share: number): Leg => {
    const tok = onChain(k, chain);
    const p = price(k);
    const qty = round(usd / p, 6);
    return {
      internalId: tok.internalId,
      tokenCid: tok.address,
      name: tok.name,
      symbol: tok.symbol,
      kind,
      qty,
      nav: round(qty * p, 2),
      totalSupply: round(Math.abs(qty) / share, 2),
    };
  };
  /** A leg of a given quantity (signed), valued at the day's price. */
  const legQty = (k: string, kind: LegKind, quantity: number, share: number): Leg => {
    const tok = onChain(k, chain);
    const qty = round(quantity, 6);
    return {
      internalId: tok.internalId,
      tokenCid: tok.address,
      name: tok.name,
      symbol: tok.symbol,
      kind,
      qty,
      nav: round(qty * price(k), 2),
      totalSupply: round(Math.abs(qty) / share, 2),
    };
  };
  // Rewards accrue through a 30-day claim cycle.
  const rewardLeg = (share: number): Leg[] => {
    const rewardKey = REWARD_TOKEN[t.assetType];
    if (!rewardKey) return [];
    const accrued = (size * 0.004 * (((day - t.openDay) % 30) + 1)) / 30;
    return [leg(rewardKey, 'reward', accrued, share)];
  };
  const share = 10 ** rng.between(-5, -2.5);
  const symbols = tokens.map((x) => x.symbol).join('/');
  let position: SimPosition;
  switch (t.assetType) {
    case 'lending': {
      // Fixed quantities from the day the position opened, growing at the supply and the
      // borrow rate (interest, which no transaction shows: a roll-forward's unexplained
      // part). The collateral/debt ratio then moves with the two tokens' prices.
      const years = (day - t.openDay) / 365;
      const supplyRate = 0.01 + 0.04 * ((t.key % 101) / 100);
      const borrowRate = 0.03 + 0.06 * ((t.key % 89) / 88);
      const openRatio = 2.4 + 1.2 * ((t.key % 71) / 70);
      const supplyQty0 = t.sizeUsd / priceOn(t.tokens[0]!, t.openDay, chain.id);
      const debtQty0 = t.sizeUsd / openRatio / priceOn(t.tokens[1]!, t.openDay, chain.id);
      const supply = legQty(t.tokens[0]!, 'supply', supplyQty0 * Math.exp(supplyRate * years), share);
      const debt = legQty(t.tokens[1]!, 'borrow', -debtQty0 * Math.exp(borrowRate * years), share);
      const name = `${t.protocol.name} ${tokens[0]!.symbol} supply / ${tokens[1]!.symbol} borrow`;
      position = base(t, cid, name, `a${tokens[0]!.symbol}`, [supply, debt, ...rewardLeg(share)], supply.qty, round(supply.qty / share, 2));
      position.liqThreshold = t.tokens[0] === 'WBTC' ? 0.78 : STABLES.has(t.tokens[0]!) ? 0.9 : 0.825;
      position.collateralDebtRatio = round(supply.nav / Math.abs(debt.nav), 4);
      break;
    }
    case 'liquidity_pool':
    case 'farming': {
      const legs = t.tokens.map((k) => leg(k, 'pool', size / t.tokens.length, share));
      // Slippage of withdrawing: grows with the wallet's share of the pool.
      for (const l of legs) l.slippage = round(Math.min(0.25, share * 40 + 0.0005), 6);
      const lpQty = round(Math.sqrt(legs.reduce((a, l) => a * Math.max(l.qty, 1e-9), 1)), 6);
      const prefix = t.assetType === 'farming' ? `${t.protocol.name} staked` : t.protocol.name;
      position = base(t, cid, `${prefix} ${symbols} LP`, `${symbols.replace('/', '-')}-LP`, [...legs, ...rewardLeg(share)], lpQty, round(lpQty / share, 2));
      break;
    }
    case 'staked': {
      // A rebasing staked token: the quantity grows with the staking yield (unexplained by
      // transfers, like interest); its exchange rate to ETH grows with it.
      const years = (day - t.openDay) / 365;
      const l = legQty(t.tokens[0]!, 'staked', (t.sizeUsd / priceOn(t.tokens[0]!, t.openDay, chain.id)) * Math.exp(0.032 * years), share);
      l.exchangeRate = round(1 + (0.035 * (day - t.openDay + 400)) / 365, 6);
      position = base(t, cid, `${t.protocol.name} ${tokens[0]!.symbol}`, tokens[0]!.symbol, [l, ...rewardLeg(share)], l.qty, l.totalSupply);
      break;
    }
    case 'locked': {
      // A lock holds the same quantity until it ends: its change is zero.
      const l = legQty(t.tokens[0]!, 'locked', t.sizeUsd / priceOn(t.tokens[0]!, t.openDay, chain.id), share);
      // Four-year locks that end on a Thursday 00:00 UTC, as vote-escrow contracts do.
      const unlockDay = t.openDay + 4 * 364 - ((t.openDay + 4 * 364 + 3) % 7);
      l.unlockTime = new Date(unlockDay * DAY_MS).toISOString().replace('.000Z', 'Z');
      l.votingPower = round(Math.max(0, (l.qty * (unlockDay - day)) / (4 * 365)), 6);
      position = base(t, cid, `${t.protocol.name} ve${tokens[0]!.symbol}`, `ve${tokens[0]!.symbol}`, [l, ...rewardLeg(share)], l.qty, l.totalSupply);
      break;
    }
    case 'wallet':
      throw new Error('wallet balances come from walletBalances');
  }
  return position;
}

function base(t: Template, cid: string, name: string, symbol: string, legs: Leg[], principalQty: number, principalTotalSupply: number): SimPosition {
  return { assetType: t.assetType, protocolId: t.protocol.id, cid, name, symbol, legs, principalQty, principalTotalSupply };
}
