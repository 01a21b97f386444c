/**
 * Spam: the junk a real treasury wallet receives beside its business (issue 38, item 1), so the
 * client can be tested against a hostile world. Off unless asked for (`spam` in process, `--spam`
 * standalone, FOLIOSCOPE_DEMO_SPAM=1 for the demo); off, nothing here runs and every answer is what
 * it was. On, the world is the same world plus spam: every genuine position, transaction and log is
 * served as before (same hashes, amounts, order among themselves), except one payment (below).
 *
 * - Junk tokens, airdropped: per wallet and chain 2 to 7 `wallet` positions in contracts the catalog
 *   does not know, from the day of their first airdrop on. Four kinds: a URL or "claim" lure in the
 *   symbol and name; a token that copies the symbol and name of one the wallet holds (USDC, WETH, …)
 *   from another contract; one that copies the chain's native coin (ETH/Ether …) from a contract
 *   that is not the native placeholder 0xeeee…; and quiet junk (a plausible symbol, no market).
 *   The first three carry absurd values (a price an indexer claims on a huge quantity: hundreds of
 *   thousands to millions of USD); quiet junk is worth 0. In the liquidity view every leg of one
 *   says there is no market: `slippage` 1 (100 %: nothing comes back out) and a tiny
 *   `pct_ownership` (0.001 % to 0.00001 %) of a huge `total_supply` (10^5 to 10^7 times the qty).
 * - Airdrop receipts, one or two per junk token: a multi-recipient send (method 0x729ad39e, or
 *   0x82947abe through a distributor) from the spammer, the wallet one of 40 to 180 recipients:
 *   neither the row's `from` nor its `to` is the wallet, its logs are one Transfer per recipient.
 * - Address poisoning, answering the wallet's genuine ERC-20 transfers: after 45 % of its plain
 *   outgoing payments, 1 to 3 attempts; after 12 % of its plain receipts, one. Each comes from a
 *   lookalike of the real counterparty (the same first 4–6 and last 4–6 hex digits, another
 *   middle), 45 seconds to 3 days later (log-uniform: most within hours): a zero-value
 *   `transferFrom` of the token paid (0x23b872dd, a Transfer of 0 from the wallet to the lookalike,
 *   sent by the lookalike), or dust of it (0.000001 to 0.01) from the lookalike to the wallet.
 * - One payment to a lookalike: in one wallet and chain (the demo treasury on eth unless
 *   `victim` says otherwise), the first plain ERC-20 payment from 55 % of the history on to a
 *   counterparty that a lookalike had poisoned before goes to that lookalike instead: its `to` and
 *   its Transfer log name the lookalike; its hash, amount and everything else stay, so balances
 *   and NAV are unchanged.
 *
 * Dust is not credited to the wallet's plain balances: genuine positions stay exactly as they
 * were (a roll-forward that counts the dust as a flow is off by it, at most 0.01 of the token).
 *
 * The truth comes from this plan, never from a classifier: `spamTruth` (and the simulator's
 * `GET /_sim/spam-truth`), so tests can measure what a client makes of it.
 */
import type { Log, Transaction, TransactionLogs } from '../shared/service/wire.ts';
import { blockAt, type ChainInfo, chainById } from './chains.ts';
import { onChain, priceOn } from './catalog.ts';
import { logsOfTransaction, rawAmount, transferLog } from './logs.ts';
import type { SimPosition } from './positions.ts';
import { hexOf, Rng, round } from './random.ts';
import {
  counterpartyOf,
  FLOW_TOKENS,
  GWEI,
  type HistoryConfig,
  historyOf,
  indexRange,
  ledgerOf,
  planOf,
  timeOf,
  transactionAt,
  txnHashOf,
  type TxnSource,
  type WalletHistory,
} from './transactions.ts';

export interface SpamOptions {
  /**
   * The one wallet and chain where a genuine payment went to a lookalike (default: the demo
   * treasury on eth, the wallet the app's first screen offers); null: none.
   */
  victim?: { wallet: string; chain: string } | null;
}

export const DEFAULT_VICTIM = { wallet: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chain: 'eth' } as const;

export type SpamTokenKind = 'url' | 'impersonation' | 'native-impersonation' | 'quiet';
export type SpamTxnKind = 'airdrop' | 'zero-value' | 'dust';

/**
 * Spam transactions take hash indexes from here on (txnHashOf, decodeTxnHash): far past any
 * history (at most 1,000,000 rows), so their hashes look like any other and the logs endpoint
 * finds them by decoding, as it finds genuine ones.
 */
export const SPAM_INDEX_BASE = 2 ** 47;

/** Selectors spam calls: airdrop(address[],uint256[]) on the token, a distributor's multi-send, transferFrom, transfer. */
export const SPAM_METHODS = { airdrop: '0x729ad39e', airdropVia: '0x82947abe', transferFrom: '0x23b872dd', transfer: '0xa9059cbb' } as const;

// --- the plan ------------------------------------------------------------------------------

interface SpamToken {
  address: string;
  symbol: string;
  name: string;
  kind: SpamTokenKind;
  /** Catalog key of the genuine token copied (NATIVE for the chain's coin). */
  imitates: string | null;
  decimals: number;
  /** USD per unit an indexer claims for it (fixed), or null: the copied token's price of the day. */
  price: number | null;
  /** Total supply over the wallet's quantity (the liquidity view's "huge supply"). */
  supplyFactor: number;
  receipts: Array<{ time: number; qty: number }>;
}

interface AirdropEvent {
  kind: 'airdrop';
  time: number;
  token: SpamToken;
  qty: number;
  id: string;
}

interface PoisonEvent {
  kind: 'zero-value' | 'dust';
  time: number;
  /** Catalog key of the genuine token it moves. */
  tokenKey: string;
  qty: number;
  lookalike: string;
  imitates: string;
  id: string;
}

type SpamEvent = AirdropEvent | PoisonEvent;

interface Lookalike {
  address: string;
  imitates: string;
  prefix: number;
  suffix: number;
}

export interface SpamPlan {
  h: WalletHistory;
  tokens: SpamToken[];
  /** Oldest first; event j has hash index SPAM_INDEX_BASE + j. */
  events: SpamEvent[];
  /** Each event's position in the woven stream (oldest first; a genuine row first at a tie). */
  merged: number[];
  lookalikes: Map<string, Lookalike>;
  /** The genuine payment that went to a lookalike, in the victim wallet and chain only. */
  payment: { index: number; counterparty: string; lookalike: string } | null;
}

/** Lures in a symbol or a name: an indexer shows them as tokens like any other. */
function urlLures(chain: ChainInfo): Array<[string, string]> {
  const coin = chain.nativeSymbol.toLowerCase();
  return [
    [`visit-${chain.id}-claim.org`, `Visit ${chain.id}-claim.org to claim your rewards`],
    ['$ CLAIM REWARDS', `$ CLAIM REWARDS AT ${coin}-rewards.net`],
    [`🎁 Airdrop at t.me/${chain.nativeSymbol}Drop`, `🎁 Airdrop at t.me/${chain.nativeSymbol}Drop`],
    ['USDC-GIFT.COM', 'Claim your USDC gift at usdc-gift.com'],
    ['[uniswap-v4.cc]', 'Uniswap V4 access pass: uniswap-v4.cc'],
    ['AAVE-V4.NET Voucher', '🔗 aave-v4.net voucher, redeem before it expires'],
    ['ZK Drop (zkdrop.io)', 'zkdrop.io | 2,000 ZK waiting for you'],
    [`${coin}-stake.app`, `Stake at ${coin}-stake.app for 24% APR`],
  ];
}

/** Quiet junk: names that could be a real project's, no market at all. */
const QUIET: ReadonlyArray<[string, string]> = [
  ['ZKJ', 'Zkjoule'],
  ['PNDX', 'Pandex'],
  ['ORBT', 'Orbit Finance'],
  ['VLR', 'Valor Protocol'],
  ['MOCHI', 'Mochi Inu'],
  ['SOLV2', 'Solvent'],
  ['KIRA', 'Kira Network'],
  ['NXRA', 'Nexira'],
];

/** Tokens whose symbol a junk contract copies, when the wallet holds them. */
const IMITATED = ['USDC', 'USDT', 'WETH', 'DAI', 'WBTC', 'LINK', 'UNI', 'AAVE'];

const isoSecond = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
const isoDayOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

/**
 * A lookalike of `real`: its first `prefix` and last `suffix` hex digits, another middle (the
 * digit after the prefix and the one before the suffix differ too, so the match is exactly that
 * long). Several attackers imitate one counterparty: `variant` picks one.
 */
export function lookalikeOf(seed: number, wallet: string, chain: ChainInfo, real: string, variant: number): Lookalike {
  const rng = new Rng(seed, 'lookalike', wallet, chain.id, real, variant);
  const prefix = rng.int(4, 6);
  const suffix = rng.int(4, 6);
  const hex = real.slice(2).toLowerCase();
  const middle = hexOf(40 - prefix - suffix, seed, 'lookalike', wallet, chain.id, real, variant).split('');
  const other = (c: string) => ((parseInt(c, 16) + 1 + rng.int(0, 14)) % 16).toString(16);
  if (middle[0] === hex[prefix]) middle[0] = other(hex[prefix]!);
  const last = middle.length - 1;
  if (middle[last] === hex[39 - suffix]) middle[last] = other(hex[39 - suffix]!);
  return { address: '0x' + hex.slice(0, prefix) + middle.join('') + hex.slice(40 - suffix), imitates: real.toLowerCase(), prefix, suffix };
}

function tokensOf(h: WalletHistory, first: number, last: number): SpamToken[] {
  const { chain, wallet } = h;
  const seed = h.config.seed;
  const rng = new Rng(seed, wallet, chain.id, 'spam-tokens');
  const ledger = ledgerOf(h);
  const held = IMITATED.filter((k) => FLOW_TOKENS.includes(k) && (ledger.low.get(k) !== 0 || ledger.high.get(k) !== 0));
  const lures = urlLures(chain);
  const out: SpamToken[] = [];
  /** A junk contract of a kind, shared by the wallets it was sent to (its address depends on the seed and chain only). */
  const make = (kind: SpamTokenKind, variant: string, symbol: string, name: string, imitates: string | null, decimals: number, price: number | null) => {
    const address = '0x' + hexOf(40, seed, 'spam-token', chain.id, kind, variant);
    out.push({ address, symbol, name, kind, imitates, decimals, price, supplyFactor: 10 ** rng.between(5, 7), receipts: [] });
  };
  for (const k of pickDistinct(rng, lures.length, rng.int(1, 2))) {
    const [symbol, name] = lures[k]!;
    // One claimed price per contract (an indexer's, for every wallet it holds).
    make('url', String(k), symbol, name, null, 18, round(10 ** new Rng(seed, 'spam-price', chain.id, k).between(-0.5, 1.5), 4));
  }
  for (const k of pickDistinct(rng, held.length, Math.min(held.length, rng.int(1, 2)))) {
    const key = held[k]!;
    const tok = onChain(key, chain);
    make('impersonation', `${key}:${rng.int(0, 1)}`, tok.symbol, tok.name, key, tok.decimals, null);
  }
  if (rng.chance(0.6)) make('native-impersonation', String(rng.int(0, 1)), chain.nativeSymbol, chain.nativeName, 'NATIVE', 18, null);
  for (const k of pickDistinct(rng, QUIET.length, rng.int(0, 2))) make('quiet', String(k), QUIET[k]![0], QUIET[k]![1], null, 18, 0);
  // Receipts: the first anywhere in the wallet's active years, a second drop to a third of them weeks or months later.
  for (const t of out) {
    const r = new Rng(seed, wallet, chain.id, 'spam-receipts', t.address);
    const usd = 10 ** r.between(5.3, 6.6);
    const firstTime = Math.floor(r.between(first, last));
    const times = [firstTime];
    const again = firstTime + r.int(20, 200) * 86_400;
    if (r.chance(0.3) && again <= last) times.push(again);
    const firstDay = Math.floor(firstTime / 86_400);
    const unitUsd = t.price ?? (t.imitates ? priceOn(t.imitates, firstDay, chain.id) : 0);
    const total = t.kind === 'quiet' ? 10 ** r.between(2, 4.5) : usd / unitUsd;
    for (const time of times) t.receipts.push({ time, qty: round(total / times.length, 6) });
  }
  return out;
}

function pickDistinct(rng: Rng, n: number, count: number): number[] {
  const pool = Array.from({ length: n }, (_, k) => k);
  const out: number[] = [];
  while (out.length < Math.min(count, n)) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out;
}

const DUST: ReadonlyArray<readonly [number, number]> = [
  [0.000001, 5],
  [0.00001, 3],
  [0.0001, 2],
  [0.001, 1],
  [0.01, 1],
];

const planCache = new Map<string, SpamPlan>();

function victimKey(o: SpamOptions): string {
  const v = o.victim === undefined ? DEFAULT_VICTIM : o.victim;
  return v ? `${v.wallet.toLowerCase()}|${v.chain}` : '-';
}

/**
 * The spam of one (wallet, chain): one pass over the genuine history (its transfers and their
 * counterparties), computed on first use and cached like the flow ledger. About 13 spam rows per
 * 100 genuine ones, however long the history.
 */
export function spamPlanOf(h: WalletHistory, options: SpamOptions): SpamPlan {
  const c = h.config;
  const cacheKey = `${c.seed}|${c.txnsPerWallet}|${c.historyStart}|${c.historyEnd}|${h.wallet}|${h.chain.id}|${victimKey(options)}`;
  const cached = planCache.get(cacheKey);
  if (cached) return cached;
  const { chain, wallet } = h;
  const seed = c.seed;
  const n = c.txnsPerWallet;
  const first = timeOf(h, 0);
  const last = timeOf(h, n - 1);
  const tokens = tokensOf(h, first, last);
  const events: SpamEvent[] = [];
  for (const t of tokens) t.receipts.forEach((r, k) => events.push({ kind: 'airdrop', time: r.time, token: t, qty: r.qty, id: `airdrop|${t.address}|${k}` }));

  const lookalikes = new Map<string, Lookalike>();
  /** Per counterparty, the poisoning attempts so far: [time, lookalike]. */
  const poisonedBy = new Map<string, Array<[number, string]>>();
  /** Plain ERC-20 payments out: the victim's payment is one of them. */
  const payments: Array<{ index: number; time: number; counterparty: string }> = [];
  for (let i = 0; i < n; i++) {
    const p = planOf(h, i);
    if (p.failed || (p.action !== 'transfer_out' && p.action !== 'transfer_in')) continue;
    const moved = p.transfers[0];
    if (!moved || moved.key === 'NATIVE') continue; // a native transfer has no token to poison with
    const out = p.action === 'transfer_out';
    const counterparty = counterpartyOf(seed, p.protocol, p.party);
    if (out) payments.push({ index: i, time: p.time, counterparty });
    const rng = new Rng(seed, wallet, chain.id, 'poison', i);
    if (!rng.chance(out ? 0.45 : 0.12)) continue;
    const attempts = out ? rng.int(1, 3) : 1;
    for (let a = 0; a < attempts; a++) {
      const kind = out && rng.chance(0.55) ? 'zero-value' : 'dust';
      const time = p.time + Math.round(10 ** rng.between(Math.log10(45), Math.log10(3 * 86_400)));
      const look = lookalikeOf(seed, wallet, chain, counterparty, rng.int(0, 2));
      const qty = kind === 'dust' ? rng.weighted(DUST) : 0;
      if (time > c.historyEnd) continue;
      lookalikes.set(look.address, look);
      events.push({ kind, time, tokenKey: moved.key, qty, lookalike: look.address, imitates: counterparty, id: `poison|${i}|${a}` });
      const list = poisonedBy.get(counterparty) ?? [];
      list.push([time, look.address]);
      poisonedBy.set(counterparty, list);
    }
  }

  let payment: SpamPlan['payment'] = null;
  const victim = options.victim === undefined ? DEFAULT_VICTIM : options.victim;
  if (victim && victim.wallet.toLowerCase() === wallet && victim.chain === chain.id) {
    // The newest lookalike to have poisoned the wallet before the payment, imitating its payee.
    const poisoned = (x: (typeof payments)[number]) =>
      (poisonedBy.get(x.counterparty) ?? []).filter(([t]) => t < x.time).sort((a, b) => b[0] - a[0])[0]?.[1] ?? null;
    const from = Math.floor(n * 0.55);
    const chosen = payments.find((x) => x.index >= from && poisoned(x)) ?? [...payments].reverse().find((x) => poisoned(x));
    if (chosen) payment = { index: chosen.index, counterparty: chosen.counterparty, lookalike: poisoned(chosen)! };
  }

  // Oldest first; a stable sort keeps the order they were planned in at a tie.
  events.sort((a, b) => a.time - b.time);
  const merged = events.map((e, j) => j + indexRange(h, 0, e.time)[1]);
  const plan: SpamPlan = { h, tokens, events, merged, lookalikes, payment };
  if (planCache.size >= 256) planCache.delete(planCache.keys().next().value!);
  planCache.set(cacheKey, plan);
  return plan;
}

// --- what the endpoints serve ---------------------------------------------------------------

/** First index whose value is ≥ x in an ascending array. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Genuine transaction i as the spam world serves it: itself, or the one payment made to a lookalike. */
function genuineAt(plan: SpamPlan, i: number): Transaction {
  const txn = transactionAt(plan.h, i);
  return plan.payment?.index === i ? { ...txn, to: plan.payment.lookalike } : txn;
}

function spamTransaction(plan: SpamPlan, j: number): Transaction {
  const { h } = plan;
  const { chain, wallet } = h;
  const seed = h.config.seed;
  const e = plan.events[j]!;
  const rng = new Rng(seed, wallet, chain.id, 'spam-txn', e.id);
  const day = Math.floor(e.time / 86_400);
  const [gLo, gHi] = GWEI[chain.id] ?? [1, 10];
  let row: Pick<Transaction, 'from' | 'to' | 'to_type' | 'action_type' | 'method_hex' | 'details'> & { gas: number };
  if (e.kind === 'airdrop') {
    const viaDistributor = rng.chance(0.4);
    // The spammer calls the junk token's airdrop, or a distributor's: the wallet is one recipient among many.
    row = {
      from: '0x' + hexOf(40, seed, 'spammer', chain.id, e.token.address),
      to: viaDistributor ? '0x' + hexOf(40, seed, 'airdrop-distributor', chain.id) : e.token.address,
      to_type: 'contract',
      gas: 30_000 + 26_000 * airdropRecipients(seed, e).count,
      action_type: 'transfer_in',
      method_hex: viaDistributor ? SPAM_METHODS.airdropVia : SPAM_METHODS.airdrop,
      details: [{ token_cid: e.token.address, type: 'in', qty: e.qty, symbol: e.token.symbol }],
    };
  } else {
    const tok = onChain(e.tokenKey, chain);
    row =
      e.kind === 'zero-value'
        ? // transferFrom(wallet, lookalike, 0): any caller may, and it writes the lookalike into the wallet's outgoing history.
          {
            from: e.lookalike,
            to: tok.address,
            to_type: 'contract',
            gas: rng.int(35_000, 52_000),
            action_type: 'transfer_out',
            method_hex: SPAM_METHODS.transferFrom,
            details: [{ token_cid: tok.address, type: 'out', qty: 0, symbol: tok.symbol }],
          }
        : {
            from: e.lookalike,
            to: wallet,
            to_type: 'eoa',
            gas: rng.int(45_000, 65_000),
            action_type: 'transfer_in',
            method_hex: SPAM_METHODS.transfer,
            details: [{ token_cid: tok.address, type: 'in', qty: e.qty, symbol: tok.symbol }],
          };
  }
  const txnFee = round((row.gas * rng.between(gLo, gHi)) / 1e9, 9);
  // Members in the order genuine rows have them (transactionAt), so the JSON's shape gives nothing away.
  return {
    wallet_id: wallet,
    txn_hash: txnHashOf(h, SPAM_INDEX_BASE + j),
    block: blockAt(chain, e.time),
    from: row.from,
    to: row.to,
    from_type: 'eoa',
    to_type: row.to_type,
    txn_fee: txnFee,
    gas_fee: round(txnFee * priceOn('NATIVE', day, chain.id), 6),
    action_type: row.action_type,
    method_hex: row.method_hex,
    protocol_id: 'wallet',
    chain_id: chain.id,
    date: isoSecond(e.time),
    details: row.details,
    status: 1,
  };
}

/** An airdrop's recipients: how many, and where the wallet is among them. */
function airdropRecipients(seed: number, e: AirdropEvent): { count: number; slot: number } {
  const rng = new Rng(seed, 'airdrop-recipients', e.id);
  const count = rng.int(40, 180);
  return { count, slot: rng.int(0, count - 1) };
}

function spamLogs(plan: SpamPlan, j: number, txn: Transaction): Log[] {
  const e = plan.events[j]!;
  const seed = plan.h.config.seed;
  const wallet = plan.h.wallet;
  if (e.kind === 'airdrop') {
    const { count, slot } = airdropRecipients(seed, e);
    const amount = rawAmount(e.qty, e.token.decimals);
    const logs: Log[] = [];
    for (let k = 0; k < count; k++) {
      const to = k === slot ? wallet : '0x' + hexOf(40, seed, 'airdrop-recipient', e.token.address, e.id, k);
      logs.push({ ...transferLog(txn.from, to, amount), log_index: k });
    }
    return logs;
  }
  const decimals = onChain(e.tokenKey, plan.h.chain).decimals;
  if (e.kind === 'zero-value') return [{ ...transferLog(wallet, e.lookalike, 0n), log_index: 0 }];
  return [{ ...transferLog(e.lookalike, wallet, rawAmount(e.qty, decimals)), log_index: 0 }];
}

/** The (wallet, chain)'s rows with spam woven in by time, by position: what txn_by_wallet pages. */
function wovenSource(plan: SpamPlan): TxnSource {
  const { h, events, merged } = plan;
  const times = events.map((e) => e.time);
  const genuine = h.config.txnsPerWallet;
  const at = (m: number): { spam: number } | { genuine: number } => {
    const j = lowerBound(merged, m);
    if (merged[j] === m) return { spam: j };
    // j spam rows come before position m.
    return { genuine: m - j };
  };
  return {
    count: genuine + events.length,
    range: (start, end) => {
      if (end < start) return [0, 0];
      const [from, to] = indexRange(h, start, end);
      return [from + lowerBound(times, start), to + lowerBound(times, end + 1)];
    },
    at: (m) => {
      const x = at(m);
      return 'spam' in x ? spamTransaction(plan, x.spam) : genuineAt(plan, x.genuine);
    },
    timeAt: (m) => {
      const x = at(m);
      return 'spam' in x ? times[x.spam]! : timeOf(h, x.genuine);
    },
  };
}

/** The junk a wallet holds at the end of a day: one `wallet` position per junk token airdropped by then. */
function spamPositions(plan: SpamPlan, day: number): SimPosition[] {
  const { h } = plan;
  const { chain } = h;
  const out: SimPosition[] = [];
  const held = plan.tokens
    .map((t) => ({
      t,
      qty: round(
        t.receipts.filter((r) => Math.floor(r.time / 86_400) <= day).reduce((s, r) => s + r.qty, 0),
        6,
      ),
    }))
    .filter((x) => x.qty > 0)
    .sort((a, b) => a.t.receipts[0]!.time - b.t.receipts[0]!.time);
  for (const { t, qty } of held) {
    const price = t.price ?? (t.imitates ? priceOn(t.imitates, day, chain.id) : 0);
    const totalSupply = round(qty * t.supplyFactor, 2);
    out.push({
      assetType: 'wallet',
      protocolId: 'wallet',
      cid: positionCidOf(plan, t),
      name: t.name,
      symbol: t.symbol,
      legs: [
        {
          internalId: `${chain.id}:${t.address}`,
          tokenCid: t.address,
          name: t.name,
          symbol: t.symbol,
          kind: 'balance',
          qty,
          nav: round(qty * price, 2),
          totalSupply,
          // No market: withdrawing would get nothing back (the liquidity view's slippage of 100 %).
          slippage: 1,
        },
      ],
      principalQty: qty,
      principalTotalSupply: totalSupply,
    });
  }
  return out;
}

/** The position's cid, made as a genuine balance's is (so its form gives nothing away). */
const positionCidOf = (plan: SpamPlan, t: SpamToken) => '0x' + hexOf(40, plan.h.config.seed, plan.h.wallet, plan.h.chain.id, 'balance', t.address);

// --- the world with spam, as the server asks it -----------------------------------------------

/** The simulator's world with spam on: what each endpoint adds, and the truth of it. */
export class SpamWorld {
  constructor(
    private readonly history: HistoryConfig,
    readonly options: SpamOptions = {},
  ) {}

  plan(wallet: string, chain: ChainInfo): SpamPlan {
    return spamPlanOf(historyOf(this.history, wallet, chain), this.options);
  }

  /** The junk positions held at the end of `day`, to go after the genuine ones. */
  positionsOn(wallet: string, chain: ChainInfo, day: number): SimPosition[] {
    return spamPositions(this.plan(wallet, chain), day);
  }

  /** The transactions endpoint's rows: the history with spam woven in. */
  source(h: WalletHistory): TxnSource {
    return wovenSource(spamPlanOf(h, this.options));
  }

  /** The transaction a hash index stands for (decodeTxnHash), genuine or spam; null when none. */
  transactionAt(wallet: string, chain: ChainInfo, index: number): Transaction | null {
    const plan = this.plan(wallet, chain);
    if (index < this.history.txnsPerWallet) return genuineAt(plan, index);
    const j = index - SPAM_INDEX_BASE;
    return j >= 0 && j < plan.events.length ? spamTransaction(plan, j) : null;
  }

  /** Every log of the transaction at a hash index, and the logs item's header. */
  logsAt(wallet: string, chain: ChainInfo, index: number): { item: Omit<TransactionLogs, 'logs'>; logs: Log[] } | null {
    const txn = this.transactionAt(wallet, chain, index);
    if (!txn) return null;
    const plan = this.plan(wallet, chain);
    const logs = index < this.history.txnsPerWallet ? logsOfTransaction(this.history.seed, txn) : spamLogs(plan, index - SPAM_INDEX_BASE, txn);
    const { txn_hash, block, from, from_type, txn_fee, gas_fee, chain_id, date } = txn;
    return { item: { txn_hash, block, from, from_type, txn_fee, gas_fee, chain_id, date }, logs };
  }

  truth(wallet: string, chain: ChainInfo, range: TruthRange = {}): SpamTruth {
    return truthOf(this.plan(wallet, chain), range);
  }
}

// --- the truth --------------------------------------------------------------------------------

/** Days `YYYY-MM-DD`, both included; either may be left out. */
export interface TruthRange {
  from?: string | null;
  to?: string | null;
}

export interface SpamTruth {
  enabled: boolean;
  wallet: string;
  chain: string;
  from: string | null;
  to: string | null;
  /** Junk tokens held on some day of the range (held from their first airdrop on). */
  tokens: Array<{
    token_cid: string;
    internal_id: string;
    position_cid: string;
    symbol: string;
    name: string;
    kind: SpamTokenKind;
    /** The genuine token copied (impersonations): its symbol and contract (0xeeee… for the native coin). */
    imitates: { symbol: string; token_cid: string } | null;
    first_day: string;
  }>;
  /** Spam transactions dated in the range, oldest first. */
  transactions: Array<{
    txn_hash: string;
    kind: SpamTxnKind;
    date: string;
    token_cid: string;
    symbol: string;
    qty: number;
    lookalike: string | null;
    imitates: string | null;
  }>;
  /** The lookalikes those transactions (and the payment) came from or went to, with the counterparty each imitates. */
  lookalikes: Array<{ address: string; imitates: string; prefix: number; suffix: number }>;
  /** The genuine payment that went to a lookalike, when it is dated in the range. */
  lookalike_payment: {
    txn_hash: string;
    wallet: string;
    chain: string;
    date: string;
    counterparty: string;
    lookalike: string;
    token_cid: string;
    symbol: string;
    qty: number;
  } | null;
}

function dayBound(v: string | null | undefined, end: boolean): number | null {
  if (!v) return null;
  const ms = Date.parse(`${v}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(ms)) throw new Error(`expected a date YYYY-MM-DD, got '${v}'`);
  return ms / 1000 + (end ? 86_399 : 0);
}

function truthOf(plan: SpamPlan, range: TruthRange): SpamTruth {
  const { h } = plan;
  const { chain } = h;
  const lo = dayBound(range.from, false) ?? Number.NEGATIVE_INFINITY;
  const hi = dayBound(range.to, true) ?? Number.POSITIVE_INFINITY;
  const inRange = (t: number) => t >= lo && t <= hi;
  const tokens = plan.tokens
    .filter((t) => t.receipts[0]!.time <= hi)
    .sort((a, b) => a.receipts[0]!.time - b.receipts[0]!.time)
    .map((t) => {
      const copied = t.imitates ? onChain(t.imitates, chain) : null;
      return {
        token_cid: t.address,
        internal_id: `${chain.id}:${t.address}`,
        position_cid: positionCidOf(plan, t),
        symbol: t.symbol,
        name: t.name,
        kind: t.kind,
        imitates: copied ? { symbol: copied.symbol, token_cid: copied.address } : null,
        first_day: isoDayOf(t.receipts[0]!.time),
      };
    });
  const transactions: SpamTruth['transactions'] = [];
  const used = new Set<string>();
  plan.events.forEach((e, j) => {
    if (!inRange(e.time)) return;
    const txn_hash = txnHashOf(h, SPAM_INDEX_BASE + j);
    if (e.kind === 'airdrop') {
      transactions.push({
        txn_hash,
        kind: 'airdrop',
        date: isoSecond(e.time),
        token_cid: e.token.address,
        symbol: e.token.symbol,
        qty: e.qty,
        lookalike: null,
        imitates: null,
      });
      return;
    }
    const tok = onChain(e.tokenKey, chain);
    used.add(e.lookalike);
    transactions.push({
      txn_hash,
      kind: e.kind,
      date: isoSecond(e.time),
      token_cid: tok.address,
      symbol: tok.symbol,
      qty: e.qty,
      lookalike: e.lookalike,
      imitates: e.imitates,
    });
  });
  let payment: SpamTruth['lookalike_payment'] = null;
  if (plan.payment && inRange(timeOf(h, plan.payment.index))) {
    const txn = genuineAt(plan, plan.payment.index);
    const d = txn.details[0]!;
    used.add(plan.payment.lookalike);
    payment = {
      txn_hash: txn.txn_hash,
      wallet: h.wallet,
      chain: chain.id,
      date: txn.date,
      counterparty: plan.payment.counterparty,
      lookalike: plan.payment.lookalike,
      token_cid: d.token_cid,
      symbol: d.symbol,
      qty: d.qty,
    };
  }
  const lookalikes = [...used].sort().map((a) => {
    const l = plan.lookalikes.get(a)!;
    return { address: l.address, imitates: l.imitates, prefix: l.prefix, suffix: l.suffix };
  });
  return {
    enabled: true,
    wallet: h.wallet,
    chain: chain.id,
    from: range.from ?? null,
    to: range.to ?? null,
    tokens,
    transactions,
    lookalikes,
    lookalike_payment: payment,
  };
}

/** The truth of a world without spam: nothing. */
export function noSpamTruth(wallet: string, chain: string, range: TruthRange = {}): SpamTruth {
  return {
    enabled: false,
    wallet: wallet.toLowerCase(),
    chain,
    from: range.from ?? null,
    to: range.to ?? null,
    tokens: [],
    transactions: [],
    lookalikes: [],
    lookalike_payment: null,
  };
}

/**
 * The spam of a wallet on a chain over a range of days, from the simulator's own plan: its junk
 * tokens, its spam transactions and their kinds, the lookalikes and whom each imitates, and the
 * payment made to a lookalike. The same as `GET /_sim/spam-truth` of a simulator with that
 * history and spam on.
 */
export function spamTruth(history: HistoryConfig, wallet: string, chainId: string, range: TruthRange = {}, options: SpamOptions = {}): SpamTruth {
  const chain = chainById(chainId);
  if (!chain) throw new Error(`unknown chain '${chainId}'`);
  return new SpamWorld(history, options).truth(wallet.toLowerCase(), chain, range);
}
