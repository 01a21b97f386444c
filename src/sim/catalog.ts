import { type ChainInfo } from './chains.ts';
import { hexOf, Rng, wave } from './random.ts';

/** Tokens the simulated wallets hold, with a price model that moves plausibly by day. */
export interface Token {
  symbol: string;
  name: string;
  /** USD price on 2024-01-01, and how strongly it swings (0 for stablecoins). */
  basePrice: number;
  volatility: number;
  /** Decimals of the token's on-chain integer amounts (event logs carry amounts in them). */
  decimals: number;
}

export const TOKENS: Record<string, Token> = {
  NATIVE: { symbol: 'ETH', name: 'Ether', basePrice: 2300, volatility: 0.35, decimals: 18 },
  WETH: { symbol: 'WETH', name: 'Wrapped Ether', basePrice: 2300, volatility: 0.35, decimals: 18 },
  WBTC: { symbol: 'WBTC', name: 'Wrapped BTC', basePrice: 42000, volatility: 0.3, decimals: 8 },
  USDC: { symbol: 'USDC', name: 'USD Coin', basePrice: 1, volatility: 0, decimals: 6 },
  USDT: { symbol: 'USDT', name: 'Tether USD', basePrice: 1, volatility: 0, decimals: 6 },
  DAI: { symbol: 'DAI', name: 'Dai Stablecoin', basePrice: 1, volatility: 0, decimals: 18 },
  LINK: { symbol: 'LINK', name: 'ChainLink Token', basePrice: 15, volatility: 0.45, decimals: 18 },
  UNI: { symbol: 'UNI', name: 'Uniswap', basePrice: 6.5, volatility: 0.5, decimals: 18 },
  AAVE: { symbol: 'AAVE', name: 'Aave Token', basePrice: 105, volatility: 0.5, decimals: 18 },
  CRV: { symbol: 'CRV', name: 'Curve DAO Token', basePrice: 0.6, volatility: 0.55, decimals: 18 },
  CVX: { symbol: 'CVX', name: 'Convex Token', basePrice: 3.2, volatility: 0.55, decimals: 18 },
  STETH: { symbol: 'stETH', name: 'Liquid staked Ether 2.0', basePrice: 2295, volatility: 0.35, decimals: 18 },
  RETH: { symbol: 'rETH', name: 'Rocket Pool ETH', basePrice: 2500, volatility: 0.35, decimals: 18 },
};

export const STABLES = new Set(['USDC', 'USDT', 'DAI']);

/** The token as it exists on one chain: the native token takes the chain's symbol. */
export function onChain(key: string, chain: ChainInfo): Token & { key: string; address: string; internalId: string } {
  const base = TOKENS[key];
  if (!base) throw new Error(`unknown token ${key}`);
  const token = key === 'NATIVE' ? { ...base, symbol: chain.nativeSymbol, name: chain.nativeName } : base;
  // Natives carry the conventional 0xeeee… placeholder address.
  const address = key === 'NATIVE' ? '0x' + 'e'.repeat(40) : '0x' + hexOf(40, 'token', chain.id, key);
  return { ...token, key, address, internalId: `${chain.id}:${address}` };
}

const DAY_ORIGIN = Date.UTC(2024, 0, 1) / 86_400_000;

/** USD price of a token on a day number (days since 1970-01-01). */
export function priceOn(key: string, day: number, chainId = 'eth'): number {
  const token = TOKENS[key];
  if (!token) throw new Error(`unknown token ${key}`);
  // Native tokens of non-ETH chains get their own scale and phase.
  const scale = key === 'NATIVE' ? (({ matic: 0.00035, bsc: 0.13 } as Record<string, number>)[chainId] ?? 1) : 1;
  const seedKey = key === 'NATIVE' ? `NATIVE:${chainId}` : key === 'WETH' ? 'NATIVE:eth' : key;
  const x = day - DAY_ORIGIN;
  if (token.volatility === 0) {
    return 1 + new Rng('peg', key, day).between(-0.002, 0.002);
  }
  const k = new Rng('price', seedKey).int(0, 1_000_000);
  const trend = 0.18 * Math.sin(x / 240 + (k % 7));
  const jitter = new Rng('tick', seedKey, day).between(-0.012, 0.012);
  return token.basePrice * scale * Math.exp(token.volatility * wave(x, k) + trend + jitter);
}

export interface Protocol {
  id: string;
  name: string;
}

/** Asset types the simulator produces, and which protocols offer each. */
export const ASSET_TYPES = ['wallet', 'lending', 'liquidity_pool', 'staked', 'locked', 'farming'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export const PROTOCOLS: Record<AssetType, readonly Protocol[]> = {
  wallet: [{ id: 'wallet', name: 'Wallet' }],
  lending: [
    { id: 'aave_v3', name: 'Aave V3' },
    { id: 'compound_v3', name: 'Compound V3' },
  ],
  liquidity_pool: [
    { id: 'uniswap_v3', name: 'Uniswap V3' },
    { id: 'curve', name: 'Curve' },
  ],
  staked: [
    { id: 'lido', name: 'Lido' },
    { id: 'rocket_pool', name: 'Rocket Pool' },
  ],
  locked: [{ id: 'curve_ve', name: 'Curve Vote-Escrow' }],
  farming: [{ id: 'convex', name: 'Convex Finance' }],
};
