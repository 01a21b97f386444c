import { hash } from 'node:crypto';
import type { Log, Transaction, TransactionDetail, TransactionLogs } from '../shared/service/wire.ts';
import { blockAt, type ChainInfo, CHAINS } from './chains.ts';
import { onChain, priceOn } from './catalog.ts';
import { hash32, hexOf, Rng, round } from './random.ts';
import { logsOfTransaction } from './logs.ts';
import { declaredLegs, declaredQty, templatesFor } from './templates.ts';

/**
 * Transaction histories generated page by page on demand: transaction i of a
 * (wallet, chain) has a time that is a pure, increasing function of i, so any time
 * range maps to an index range by binary search and a page costs O(pageSize), however
 * long the history (up to millions of transactions, with no memory growth).
 */

export interface HistoryConfig {
  seed: number;
  txnsPerWallet: number;
  /** Unix seconds: the span the histories are spread over. */
  historyStart: number;
  historyEnd: number;
}

export interface WalletHistory {
  config: HistoryConfig;
  wallet: string;
  chain: ChainInfo;
  genesis: number;
  step: number;
}

/** The reference service's defaults: 2,000 transactions per wallet and chain, 2024-01-01 to 2026-11-01. */
export function defaultHistory(seed: number, txnsPerWallet = 2000): HistoryConfig {
  return { seed, txnsPerWallet, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 };
}

export function historyOf(config: HistoryConfig, wallet: string, chain: ChainInfo): WalletHistory {
  const w = wallet.toLowerCase();
  // Each wallet starts within 90 days of the history start.
  const genesis = config.historyStart + (hash32(config.seed, w, chain.id, 'genesis') % (90 * 86_400));
  const step = Math.max(1, (config.historyEnd - genesis) / config.txnsPerWallet);
  return { config, wallet: w, chain, genesis, step };
}

export function timeOf(h: WalletHistory, i: number): number {
  const frac = hash32(h.config.seed, h.wallet, h.chain.id, 'jitter', i) / 4294967296;
  return Math.floor(h.genesis + h.step * (i + 0.9 * frac));
}

/** First index whose time is ≥ t (count when none). */
function lowerBound(h: WalletHistory, t: number): number {
  let lo = 0;
  let hi = h.config.txnsPerWallet;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timeOf(h, mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Indexes [from, to) of the transactions with start ≤ time ≤ end (bounds inclusive). */
export function indexRange(h: WalletHistory, start: number, end: number): [number, number] {
  if (end < start) return [0, 0];
  return [lowerBound(h, start), lowerBound(h, end + 1)];
}

/**
 * A (wallet, chain)'s rows in time order (oldest first) as the service lists them, by position:
 * the generated history itself (historySource), or that history with another stream woven in by
 * time (spam.ts). The endpoint and the live indexer page by position, so either is paged alike.
 */
export interface TxnSource {
  readonly count: number;
  /** Positions [from, to) of the rows with start ≤ time ≤ end (bounds inclusive). */
  range(start: number, end: number): [number, number];
  at(k: number): Transaction;
  timeAt(k: number): number;
}

export function historySource(h: WalletHistory): TxnSource {
  return {
    count: h.config.txnsPerWallet,
    range: (start, end) => indexRange(h, start, end),
    at: (k) => transactionAt(h, k),
    timeAt: (k) => timeOf(h, k),
  };
}

// --- hashes that carry their own coordinates ---------------------------------------
// 32 bytes: scrambled txn index (6) | wallet (20) and chain index (1), masked with a
// keystream of the scrambled index | check (5). The hashes look random, and the logs
// endpoint decodes one to regenerate exactly the transaction the history showed.

const MOD48 = 1n << 48n;
const SCRAMBLE_A = 0x9e3779b97f4bn; // odd, so multiplication mod 2^48 is a bijection
const SCRAMBLE_B = 0xb3c4d5e6f7n;
const UNSCRAMBLE_A = inverseMod48(SCRAMBLE_A);

function inverseMod48(a: bigint): bigint {
  // Newton's iteration for the inverse of an odd number modulo a power of two.
  let x = a;
  for (let k = 0; k < 6; k++) x = (x * (2n - a * x)) % MOD48;
  return ((x % MOD48) + MOD48) % MOD48;
}

// One-shot hashes of the concatenated parts (the same digests as an incremental hash of
// them): a hash object per call was a large share of the simulator's CPU during a whale sync,
// on the cores the client it serves runs on (bench/RESULTS.md, "Round 6 (issue 16)").
function keystream(seed: number, head: Buffer): Buffer {
  return hash('sha256', Buffer.concat([Buffer.from(String(seed)), head]), 'buffer');
}

function check(seed: number, body: Buffer): Buffer {
  return hash('sha256', Buffer.concat([body, Buffer.from(`check:${seed}`)]), 'buffer').subarray(0, 5);
}

export function txnHashOf(h: WalletHistory, i: number): string {
  const buf = Buffer.alloc(32);
  let scrambled = (BigInt(i) * SCRAMBLE_A + SCRAMBLE_B) % MOD48;
  scrambled ^= scrambled >> 24n; // its own inverse on 48 bits
  buf.writeUIntBE(Number(scrambled), 0, 6);
  Buffer.from(h.wallet.slice(2), 'hex').copy(buf, 6);
  buf[26] = CHAINS.indexOf(h.chain);
  const ks = keystream(h.config.seed, buf.subarray(0, 6));
  for (let k = 6; k < 27; k++) buf[k]! ^= ks[k - 6]!;
  check(h.config.seed, buf.subarray(0, 27)).copy(buf, 27);
  return '0x' + buf.toString('hex');
}

export function decodeTxnHash(seed: number, hash: string): { wallet: string; chain: ChainInfo; index: number } | null {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
  const buf = Buffer.from(hash.slice(2).toLowerCase(), 'hex');
  if (!check(seed, buf.subarray(0, 27)).equals(buf.subarray(27, 32))) return null;
  const ks = keystream(seed, buf.subarray(0, 6));
  for (let k = 6; k < 27; k++) buf[k]! ^= ks[k - 6]!;
  const chain = CHAINS[buf[26]!];
  if (!chain) return null;
  let scrambled = BigInt(buf.readUIntBE(0, 6));
  scrambled ^= scrambled >> 24n;
  const index = Number(((((scrambled - SCRAMBLE_B) % MOD48) + MOD48) * UNSCRAMBLE_A) % MOD48);
  return { wallet: '0x' + buf.subarray(6, 26).toString('hex'), chain, index };
}

// --- one transaction ------------------------------------------------------------------

type Action = 'transfer_in' | 'transfer_out' | 'swap' | 'deposit' | 'withdraw' | 'borrow' | 'repay' | 'claim_reward' | 'approve' | 'stake' | 'unstake';

const ACTIONS: ReadonlyArray<readonly [Action, number]> = [
  ['transfer_in', 20],
  ['transfer_out', 14],
  ['swap', 24],
  ['deposit', 8],
  ['withdraw', 6],
  ['borrow', 4],
  ['repay', 3],
  ['claim_reward', 8],
  ['approve', 7],
  ['stake', 3],
  ['unstake', 3],
];

const METHOD: Record<Action, string> = {
  transfer_in: '0xa9059cbb',
  transfer_out: '0xa9059cbb',
  swap: '0x3593564c',
  deposit: '0x617ba037',
  withdraw: '0x69328dec',
  borrow: '0xa415bcad',
  repay: '0x573ade81',
  claim_reward: '0x4e71d92d',
  approve: '0x095ea7b3',
  stake: '0xa1903eab',
  unstake: '0xccc143b8',
};

const PROTOCOL: Record<Action, readonly string[]> = {
  transfer_in: ['wallet'],
  transfer_out: ['wallet'],
  swap: ['uniswap_v3', 'curve', '1inch'],
  deposit: ['aave_v3', 'compound_v3', 'convex'],
  withdraw: ['aave_v3', 'compound_v3', 'convex'],
  borrow: ['aave_v3', 'compound_v3'],
  repay: ['aave_v3', 'compound_v3'],
  claim_reward: ['convex', 'aave_v3', 'curve_ve'],
  approve: ['uniswap_v3', 'aave_v3', 'curve'],
  stake: ['lido', 'rocket_pool'],
  unstake: ['lido', 'rocket_pool'],
};

const TRADED = ['NATIVE', 'WETH', 'USDC', 'USDT', 'DAI', 'WBTC', 'LINK', 'UNI', 'AAVE', 'CRV'];

/** Gas price ranges in gwei per chain. */
export const GWEI: Record<string, [number, number]> = { eth: [4, 60], arb: [0.01, 0.1], op: [0.001, 0.05], base: [0.001, 0.05], matic: [30, 200], bsc: [1, 5] };

/** A transfer as the generator plans it: which token (catalog key), which way, and its USD size. */
interface PlannedTransfer {
  key: string;
  type: 'in' | 'out';
  usd: number;
  /** A quantity fixed by the plan (a position's opening or closing amount), else usd at the day's price. */
  qty?: number;
}

export interface Plan {
  rng: Rng;
  time: number;
  day: number;
  action: Action;
  protocol: string;
  party: number;
  failed: boolean;
  transfers: PlannedTransfer[];
  a: string;
}

/**
 * The random draws of transaction i, in the order transactionAt has always made them (so
 * histories stay what they were). Shared by the history rows, the flow ledger below and the
 * spam that answers the wallet's payments (spam.ts), which therefore cannot disagree on what a
 * transaction moved or to whom. Its `rng` is part-drawn: read the plan, do not draw from it.
 */
export function planOf(h: WalletHistory, i: number): Plan {
  const { chain, wallet } = h;
  const rng = new Rng(h.config.seed, wallet, chain.id, 'txn', i);
  const time = timeOf(h, i);
  const day = Math.floor(time / 86_400);
  const action = rng.weighted(ACTIONS);
  const protocol = rng.pick(PROTOCOL[action]);
  const party = action.startsWith('transfer') ? rng.int(0, 40) : 0;
  const failed = rng.chance(0.03);
  const amountUsd = 10 ** rng.between(1, 4.6);
  const a = rng.pick(TRADED);
  let b = rng.pick(TRADED);
  if (b === a) b = a === 'USDC' ? 'WETH' : 'USDC';
  let transfers: PlannedTransfer[];
  switch (action) {
    case 'transfer_in':
      transfers = [{ key: a, type: 'in', usd: amountUsd }];
      break;
    case 'transfer_out':
      transfers = [{ key: a, type: 'out', usd: amountUsd }];
      break;
    case 'swap':
      transfers = [
        { key: a, type: 'out', usd: amountUsd },
        { key: b, type: 'in', usd: amountUsd * rng.between(0.985, 0.999) },
      ];
      break;
    case 'deposit':
    case 'repay':
      transfers = [{ key: a, type: 'out', usd: amountUsd }];
      break;
    case 'withdraw':
    case 'borrow':
      transfers = [{ key: a, type: 'in', usd: amountUsd }];
      break;
    case 'claim_reward':
      transfers = [{ key: rng.pick(['CRV', 'CVX', 'AAVE']), type: 'in', usd: amountUsd / 20 }];
      break;
    case 'approve':
      transfers = [];
      break;
    case 'stake':
      transfers = [
        { key: 'NATIVE', type: 'out', usd: amountUsd },
        { key: 'STETH', type: 'in', usd: amountUsd * 0.999 },
      ];
      break;
    case 'unstake':
      transfers = [
        { key: 'STETH', type: 'out', usd: amountUsd },
        { key: 'NATIVE', type: 'in', usd: amountUsd * 0.998 },
      ];
      break;
  }
  // A transaction that opens or closes a protocol position moves exactly what the position
  // takes or gives back (the draws above still happen, so the rest of the history stays).
  const event = positionEventsOf(h).byIndex.get(i);
  if (event) return { rng, time, day, action: event.action, protocol: event.protocol, party: 0, failed: false, transfers: event.transfers, a };
  return { rng, time, day, action, protocol, party, failed, transfers, a };
}

// --- protocol positions opened and closed by transactions --------------------------------
// A protocol position planned to open (or close) inside a wallet's history opens on the day of
// the first transaction at or after the planned day, and that transaction is its deposit (or
// withdrawal): it moves the position's quantities between the wallet and the position. One
// planned before the wallet's first transaction is held from the start (an opening balance, like
// the wallet's float); one whose day falls after the last transaction never opens (or closes).

export interface PositionEvent {
  template: number;
  kind: 'open' | 'close';
  action: Action;
  protocol: string;
  transfers: PlannedTransfer[];
}

export interface PositionEvents {
  byIndex: Map<number, PositionEvent>;
  /** Per template index: the days it is held, [openDay, closeDay). */
  spans: Map<number, { openDay: number; closeDay: number }>;
}

const eventsCache = new Map<string, PositionEvents>();

export function positionEventsOf(h: WalletHistory): PositionEvents {
  const c = h.config;
  const cacheKey = `${c.seed}|${c.txnsPerWallet}|${c.historyStart}|${c.historyEnd}|${h.wallet}|${h.chain.id}`;
  const cached = eventsCache.get(cacheKey);
  if (cached) return cached;
  const n = c.txnsPerWallet;
  const dayOf = (i: number) => Math.floor(timeOf(h, i) / 86_400);
  const firstDay = dayOf(0);
  const byIndex = new Map<number, PositionEvent>();
  const spans = new Map<number, { openDay: number; closeDay: number }>();
  /** The first free transaction at or after a day, after index `after`; n when none. */
  const slot = (day: number, after: number): number => {
    let i = Math.max(lowerBound(h, day * 86_400), after + 1);
    while (i < n && byIndex.has(i)) i++;
    return i;
  };
  for (const t of templatesFor(c.seed, h.wallet, h.chain.id)) {
    if (t.assetType === 'wallet') continue;
    let openDay = t.openDay;
    let openIndex = -1;
    if (openDay >= firstDay) {
      openIndex = slot(openDay, -1);
      if (openIndex >= n) continue; // planned after the history: never opens
      openDay = dayOf(openIndex);
    }
    const legs = declaredLegs(t, h.chain, openDay);
    if (openIndex >= 0) {
      byIndex.set(openIndex, {
        template: t.index,
        kind: 'open',
        // A deposit (not a stake: the staked token itself goes in, no native one is swapped for it).
        action: 'deposit',
        protocol: t.protocol.id,
        // The principal goes in (a debt comes out to the wallet); rewards start at nothing.
        transfers: legs
          .filter((l) => l.kind !== 'reward')
          .map((l) => ({ key: l.key, type: l.qty0 < 0 ? 'in' : 'out', usd: 0, qty: round(Math.abs(l.qty0), 6) })),
      });
    }
    let closeDay = Number.POSITIVE_INFINITY;
    if (t.closeDay !== Number.POSITIVE_INFINITY) {
      const closeIndex = slot(Math.max(t.closeDay, openDay + 1), openIndex);
      if (closeIndex < n && dayOf(closeIndex) > openDay) {
        closeDay = dayOf(closeIndex);
        // Everything comes back as it stands that day (interest, rebase, rewards claimed); a debt is repaid.
        const transfers: PlannedTransfer[] = [];
        for (const l of legs) {
          const qty = round(declaredQty(l, openDay, closeDay), 6);
          if (qty !== 0) transfers.push({ key: l.key, type: qty < 0 ? 'out' : 'in', usd: 0, qty: Math.abs(qty) });
        }
        byIndex.set(closeIndex, { template: t.index, kind: 'close', action: 'withdraw', protocol: t.protocol.id, transfers });
      }
    }
    spans.set(t.index, { openDay, closeDay });
  }
  const events = { byIndex, spans };
  if (eventsCache.size >= 256) eventsCache.delete(eventsCache.keys().next().value!);
  eventsCache.set(cacheKey, events);
  return events;
}

/** Token quantity of a planned transfer: USD at the day's price, 6 decimals, as the row shows it. */
function transferQty(usd: number, price: number): number {
  return round(usd / price, 6);
}

/** The address a transaction of `protocol` goes to (or, incoming, comes from): one of 41 parties per protocol, shared by every wallet. */
export function counterpartyOf(seed: number, protocol: string, party: number): string {
  return '0x' + hexOf(40, seed, 'party', protocol, party);
}

export function transactionAt(h: WalletHistory, i: number): Transaction {
  const { chain, wallet } = h;
  const seed = h.config.seed;
  const { rng, time, day, action, protocol, party, failed, transfers, a } = planOf(h, i);
  const counterparty = counterpartyOf(seed, protocol, party);
  const details: TransactionDetail[] = transfers.map((t) => {
    const tok = onChain(t.key, chain);
    return { token_cid: tok.address, type: t.type, qty: t.qty ?? transferQty(t.usd, priceOn(t.key, day, chain.id)), symbol: tok.symbol };
  });
  const incoming = action === 'transfer_in';
  const [gLo, gHi] = GWEI[chain.id] ?? [1, 10];
  const gasUsed = action.startsWith('transfer') ? 21_000 + rng.int(0, 45_000) : rng.int(46_000, 420_000);
  const txnFee = round((gasUsed * rng.between(gLo, gHi)) / 1e9, 9);
  return {
    wallet_id: wallet,
    txn_hash: txnHashOf(h, i),
    block: blockAt(chain, time),
    from: incoming ? counterparty : wallet,
    to: incoming ? wallet : counterparty,
    from_type: 'eoa',
    to_type: action.startsWith('transfer') ? 'eoa' : 'contract',
    // Fee in the chain's native token, and its USD value on the day.
    txn_fee: txnFee,
    gas_fee: round(txnFee * priceOn('NATIVE', day, chain.id), 6),
    action_type: action,
    method_hex: incoming && a === 'NATIVE' ? '0x' : METHOD[action],
    protocol_id: protocol,
    chain_id: chain.id,
    date: new Date(time * 1000).toISOString().replace('.000Z', 'Z'),
    details: failed ? [] : details,
    status: failed ? 0 : 1,
  };
}

// --- the flow ledger: what the transfers add up to -------------------------------------
// Wallet balances (asset_type `wallet`, see positions.ts) are the running sum of the
// successful transactions' transfers, so they reconcile exactly against the history.
// The sums are kept per day, in integer micro-units (transfers have 6 decimals), so a
// balance is exact whatever the number of transactions.

/** Every token a transaction can move (catalog keys). */
export const FLOW_TOKENS: readonly string[] = [...TRADED, 'CVX', 'STETH', 'RETH'];

export interface FlowLedger {
  /** Day numbers (UTC days since 1970) of the first and the last transaction. */
  firstDay: number;
  lastDay: number;
  /** Per token key: net micro-units moved up to the end of day firstDay + k (index k). */
  cumulative: Map<string, Float64Array>;
  /** Per token key: the lowest and highest running net (micro-units) over the history, and 0. */
  low: Map<string, number>;
  high: Map<string, number>;
}

const ledgerCache = new Map<string, FlowLedger>();

/**
 * The ledger of one (wallet, chain): one pass over the whole history, computed on first
 * use and cached, bounded by days × tokens (about 100 KB), not by the number of
 * transactions. A 1,000,000-transaction history takes a few seconds once.
 */
export function ledgerOf(h: WalletHistory): FlowLedger {
  const c = h.config;
  const cacheKey = `${c.seed}|${c.txnsPerWallet}|${c.historyStart}|${c.historyEnd}|${h.wallet}|${h.chain.id}`;
  const cached = ledgerCache.get(cacheKey);
  if (cached) return cached;
  const n = c.txnsPerWallet;
  const firstDay = Math.floor(timeOf(h, 0) / 86_400);
  const lastDay = Math.floor(timeOf(h, Math.max(0, n - 1)) / 86_400);
  const days = lastDay - firstDay + 1;
  const cumulative = new Map<string, Float64Array>();
  const running = new Map<string, number>();
  const low = new Map<string, number>();
  const high = new Map<string, number>();
  for (const key of FLOW_TOKENS) {
    cumulative.set(key, new Float64Array(days));
    running.set(key, 0);
    low.set(key, 0);
    high.set(key, 0);
  }
  const prices = new Map<string, number>();
  const price = (key: string, day: number): number => {
    const k = `${key}|${day}`;
    let p = prices.get(k);
    if (p === undefined) {
      p = priceOn(key, day, h.chain.id);
      prices.set(k, p);
    }
    return p;
  };
  let filledTo = 0; // days [0, filledTo) of the arrays are final
  const fillTo = (dayIndex: number) => {
    for (; filledTo < dayIndex; filledTo++) for (const key of FLOW_TOKENS) cumulative.get(key)![filledTo] = running.get(key)!;
  };
  for (let i = 0; i < n; i++) {
    const plan = planOf(h, i);
    fillTo(plan.day - firstDay);
    if (plan.failed) continue; // a failed transaction moves nothing
    for (const t of plan.transfers) {
      const micro = Math.round((t.qty ?? transferQty(t.usd, price(t.key, plan.day))) * 1e6);
      const v = running.get(t.key)! + (t.type === 'in' ? micro : -micro);
      running.set(t.key, v);
      if (v < low.get(t.key)!) low.set(t.key, v);
      if (v > high.get(t.key)!) high.set(t.key, v);
    }
  }
  fillTo(days);
  const ledger = { firstDay, lastDay, cumulative, low, high };
  if (ledgerCache.size >= 256) ledgerCache.delete(ledgerCache.keys().next().value!);
  ledgerCache.set(cacheKey, ledger);
  return ledger;
}

/** Net micro-units of a token moved by the transactions of days ≤ day (UTC). */
export function netFlowThrough(ledger: FlowLedger, key: string, day: number): number {
  const series = ledger.cumulative.get(key);
  if (!series || day < ledger.firstDay) return 0;
  return series[Math.min(day, ledger.lastDay) - ledger.firstDay]!;
}

// --- event logs -------------------------------------------------------------------------
// Derived from the transaction (logs.ts): the standard layouts of the events its transfers and
// action imply.

export { logAt, logCount } from './logs.ts';

let lastLogs: { key: string; txn: Transaction; logs: Log[] } | null = null;

export function logsOf(h: WalletHistory, i: number, offset: number, limit: number): { item: TransactionLogs; total: number } {
  const c = h.config;
  const key = `${c.seed}|${c.txnsPerWallet}|${c.historyStart}|${c.historyEnd}|${h.wallet}|${h.chain.id}|${i}`;
  // The endpoint asks twice per request (the count, then the page): the second is the first's.
  if (lastLogs?.key !== key) lastLogs = { key, txn: transactionAt(h, i), logs: [] };
  const txn = lastLogs.txn;
  if (!lastLogs.logs.length) lastLogs.logs = logsOfTransaction(c.seed, txn);
  const all = lastLogs.logs;
  const total = all.length;
  const logs: Log[] = all.slice(offset, offset + limit);
  return {
    item: {
      txn_hash: txn.txn_hash,
      block: txn.block,
      from: txn.from,
      from_type: txn.from_type,
      txn_fee: txn.txn_fee,
      gas_fee: txn.gas_fee,
      chain_id: txn.chain_id,
      date: txn.date,
      logs,
    },
    total,
  };
}
