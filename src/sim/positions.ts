import { type ChainInfo } from './chains.ts';
import { type AssetType, onChain, priceOn } from './catalog.ts';
import { hexOf, Rng, round } from './random.ts';
import { type DeclaredLeg, declaredLegs, declaredQty, type LegKind, liqThresholdOf, type Template, templatesFor } from './templates.ts';
import { FLOW_TOKENS, type HistoryConfig, historyOf, ledgerOf, netFlowThrough, positionEventsOf } from './transactions.ts';

export type { LegKind } from './templates.ts';

export const DAY_MS = 86_400_000;

/**
 * The simulator's model of what a wallet holds on a chain on a day. One model feeds
 * the three position endpoints (see views.ts), so their numbers always agree.
 */

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

export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Everything a wallet holds on a chain on a day (its end: after the day's transactions),
 * deterministically. Plain wallet balances follow the transaction history (see
 * walletBalances); protocol positions follow their declared course (declaredPositions):
 * fixed principals plus declared interest, rebases and rewards.
 */
export function positionsOn(history: HistoryConfig, wallet: string, chain: ChainInfo, day: number): SimPosition[] {
  const seed = history.seed;
  const out: SimPosition[] = walletBalances(history, wallet, chain, day);
  const { spans } = positionEventsOf(historyOf(history, wallet, chain));
  for (const t of templatesFor(seed, wallet.toLowerCase(), chain.id)) {
    // Wallet templates no longer hold tokens of their own: balances come from the ledger.
    if (t.assetType === 'wallet') continue;
    const span = spans.get(t.index);
    if (!span || day < span.openDay || day >= span.closeDay) continue;
    out.push(build(seed, wallet, chain, day, t, span.openDay));
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
    // A token no transaction of this wallet moves (rETH where no position took it) is not held.
    if (low === 0 && high === 0) continue;
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

const positionCid = (seed: number, wallet: string, chain: ChainInfo, t: Template) => '0x' + hexOf(40, seed, wallet, chain.id, 'position', t.index);

export interface DeclaredPosition {
  cid: string;
  assetType: AssetType;
  /** The days it is held: [openDay, closeDay), the transactions that open and close it on those days. */
  openDay: number;
  closeDay: number;
  legs: DeclaredLeg[];
  /** Lending only: the liquidation threshold the service sends with it (liqThresholdOf its collateral). */
  liqThreshold?: number;
}

/** The protocol positions of a wallet on a chain, as declared: when each is held, and how each leg moves. */
export function declaredPositions(history: HistoryConfig, wallet: string, chain: ChainInfo): DeclaredPosition[] {
  const { spans } = positionEventsOf(historyOf(history, wallet, chain));
  const out: DeclaredPosition[] = [];
  for (const t of templatesFor(history.seed, wallet.toLowerCase(), chain.id)) {
    const span = spans.get(t.index);
    if (t.assetType === 'wallet' || !span) continue;
    out.push({
      cid: positionCid(history.seed, wallet, chain, t),
      assetType: t.assetType,
      ...span,
      legs: declaredLegs(t, chain, span.openDay),
      ...(t.assetType === 'lending' && { liqThreshold: liqThresholdOf(t.tokens[0]!) }),
    });
  }
  return out;
}

function build(seed: number, wallet: string, chain: ChainInfo, day: number, t: Template, openDay: number): SimPosition {
  const rng = new Rng(seed, wallet, chain.id, t.index, day);
  const tokens = t.tokens.map((k) => onChain(k, chain));
  const cid = positionCid(seed, wallet, chain, t);
  /** A leg of a declared course on the day, valued at the day's price. */
  const legOf = (d: DeclaredLeg, share: number): Leg => {
    const tok = onChain(d.key, chain);
    const qty = round(declaredQty(d, openDay, day), 6);
    return {
      internalId: tok.internalId,
      tokenCid: tok.address,
      name: tok.name,
      symbol: tok.symbol,
      kind: d.kind,
      qty,
      nav: round(qty * priceOn(d.key, day, chain.id), 2),
      totalSupply: round(Math.abs(qty) / share, 2),
    };
  };
  const share = 10 ** rng.between(-5, -2.5);
  const all = declaredLegs(t, chain, openDay).map((d) => legOf(d, share));
  const principal = all.filter((l) => l.kind !== 'reward');
  const rewards = all.filter((l) => l.kind === 'reward');
  const symbols = tokens.map((x) => x.symbol).join('/');
  let position: SimPosition;
  switch (t.assetType) {
    case 'lending': {
      // The collateral/debt ratio moves with the two tokens' prices and the two rates.
      const [supply, debt] = principal as [Leg, Leg];
      const name = `${t.protocol.name} ${tokens[0]!.symbol} supply / ${tokens[1]!.symbol} borrow`;
      position = base(t, cid, name, `a${tokens[0]!.symbol}`, [supply, debt, ...rewards], supply.qty, round(supply.qty / share, 2));
      position.liqThreshold = liqThresholdOf(t.tokens[0]!);
      position.collateralDebtRatio = round(supply.nav / Math.abs(debt.nav), 4);
      break;
    }
    case 'liquidity_pool':
    case 'farming': {
      // Slippage of withdrawing: grows with the wallet's share of the pool.
      for (const l of principal) l.slippage = round(Math.min(0.25, share * 40 + 0.0005), 6);
      const lpQty = round(Math.sqrt(principal.reduce((a, l) => a * Math.max(l.qty, 1e-9), 1)), 6);
      const prefix = t.assetType === 'farming' ? `${t.protocol.name} staked` : t.protocol.name;
      position = base(t, cid, `${prefix} ${symbols} LP`, `${symbols.replace('/', '-')}-LP`, [...principal, ...rewards], lpQty, round(lpQty / share, 2));
      break;
    }
    case 'staked': {
      const l = principal[0]!;
      l.exchangeRate = round(1 + (0.035 * (day - openDay + 400)) / 365, 6);
      position = base(t, cid, `${t.protocol.name} ${tokens[0]!.symbol}`, tokens[0]!.symbol, [l, ...rewards], l.qty, l.totalSupply);
      break;
    }
    case 'locked': {
      const l = principal[0]!;
      // Four-year locks that end on a Thursday 00:00 UTC, as vote-escrow contracts do.
      const unlockDay = openDay + 4 * 364 - ((openDay + 4 * 364 + 3) % 7);
      l.unlockTime = new Date(unlockDay * DAY_MS).toISOString().replace('.000Z', 'Z');
      l.votingPower = round(Math.max(0, (l.qty * (unlockDay - day)) / (4 * 365)), 6);
      position = base(t, cid, `${t.protocol.name} ve${tokens[0]!.symbol}`, `ve${tokens[0]!.symbol}`, [l, ...rewards], l.qty, l.totalSupply);
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
