import { createHash } from 'node:crypto';
import type { Log, Transaction, TransactionDetail, TransactionLogs } from '../shared/service/wire.ts';
import { blockAt, type ChainInfo, CHAINS } from './chains.ts';
import { onChain, priceOn } from './catalog.ts';
import { hash32, hexOf, Rng, round } from './random.ts';

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

function keystream(seed: number, head: Buffer): Buffer {
  return createHash('sha256').update(String(seed)).update(head).digest();
}

function check(seed: number, body: Buffer): Buffer {
  return createHash('sha256').update(body).update(`check:${seed}`).digest().subarray(0, 5);
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

type Action =
  | 'transfer_in' | 'transfer_out' | 'swap' | 'deposit' | 'withdraw' | 'borrow'
  | 'repay' | 'claim_reward' | 'approve' | 'stake' | 'unstake';

const ACTIONS: ReadonlyArray<readonly [Action, number]> = [
  ['transfer_in', 20], ['transfer_out', 14], ['swap', 24], ['deposit', 8], ['withdraw', 6],
  ['borrow', 4], ['repay', 3], ['claim_reward', 8], ['approve', 7], ['stake', 3], ['unstake', 3],
];

const METHOD: Record<Action, string> = {
  transfer_in: '0xa9059cbb', transfer_out: '0xa9059cbb', swap: '0x3593564c', deposit: '0x617ba037',
  withdraw: '0x69328dec', borrow: '0xa415bcad', repay: '0x573ade81', claim_reward: '0x4e71d92d',
  approve: '0x095ea7b3', stake: '0xa1903eab', unstake: '0xccc143b8',
};

const PROTOCOL: Record<Action, readonly string[]> = {
  transfer_in: ['wallet'], transfer_out: ['wallet'], swap: ['uniswap_v3', 'curve', '1inch'],
  deposit: ['aave_v3', 'compound_v3', 'convex'], withdraw: ['aave_v3', 'compound_v3', 'convex'],
  borrow: ['aave_v3', 'compound_v3'], repay: ['aave_v3', 'compound_v3'], claim_reward: ['convex', 'aave_v3', 'curve_ve'],
  approve: ['uniswap_v3', 'aave_v3', 'curve'], stake: ['lido', 'rocket_pool'], unstake: ['lido', 'rocket_pool'],
};

const TRADED = ['NATIVE', 'WETH', 'USDC', 'USDT', 'DAI', 'WBTC', 'LINK', 'UNI', 'AAVE', 'CRV'];

/** Gas price ranges in gwei per chain. */
const GWEI: Record<string, [number, number]> = { eth: [4, 60], arb: [0.01, 0.1], op: [0.001, 0.05], base: [0.001, 0.05], matic: [30, 200], bsc: [1, 5] };

export function transactionAt(h: WalletHistory, i: number): Transaction {
  const { chain, wallet } = h;
  const seed = h.config.seed;
  const rng = new Rng(seed, wallet, chain.id, 'txn', i);
  const time = timeOf(h, i);
  const day = Math.floor(time / 86_400);
  const action = rng.weighted(ACTIONS);
  const protocol = rng.pick(PROTOCOL[action]);
  const counterparty = '0x' + hexOf(40, seed, 'party', protocol, action.startsWith('transfer') ? rng.int(0, 40) : 0);
  const failed = rng.chance(0.03);
  const amountUsd = 10 ** rng.between(1, 4.6);
  const detail = (key: string, type: 'in' | 'out', usd: number): TransactionDetail => {
    const tok = onChain(key, chain);
    return { token_cid: tok.address, type, qty: round(usd / priceOn(key, day, chain.id), 6), symbol: tok.symbol };
  };
  const a = rng.pick(TRADED);
  let b = rng.pick(TRADED);
  if (b === a) b = a === 'USDC' ? 'WETH' : 'USDC';
  let details: TransactionDetail[];
  switch (action) {
    case 'transfer_in': details = [detail(a, 'in', amountUsd)]; break;
    case 'transfer_out': details = [detail(a, 'out', amountUsd)]; break;
    case 'swap': details = [detail(a, 'out', amountUsd), detail(b, 'in', amountUsd * rng.between(0.985, 0.999))]; break;
    case 'deposit': case 'repay': details = [detail(a, 'out', amountUsd)]; break;
    case 'withdraw': case 'borrow': details = [detail(a, 'in', amountUsd)]; break;
    case 'claim_reward': details = [detail(rng.pick(['CRV', 'CVX', 'AAVE']), 'in', amountUsd / 20)]; break;
    case 'approve': details = []; break;
    case 'stake': details = [detail('NATIVE', 'out', amountUsd), detail('STETH', 'in', amountUsd * 0.999)]; break;
    case 'unstake': details = [detail('STETH', 'out', amountUsd), detail('NATIVE', 'in', amountUsd * 0.998)]; break;
  }
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

// --- event logs -------------------------------------------------------------------------

const EVENT_TOPICS = [
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', // Transfer
  '0x8c5be1e5ebec7d5bd14f71427b1e84f3dd0341c668c2b5b2c3e9b4b0a3b6e0a5', // Approval
  '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822', // Swap
  '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c', // Deposit
];

export function logCount(seed: number, hash: string): number {
  const rng = new Rng(seed, hash, 'logs');
  // A few transactions (batched calls) have hundreds of logs, to exercise paging.
  return rng.chance(0.04) ? rng.int(120, 260) : rng.int(1, 9);
}

export function logAt(seed: number, hash: string, j: number): Log {
  const rng = new Rng(seed, hash, 'log', j);
  const topics = [rng.pick(EVENT_TOPICS)];
  for (let k = rng.int(0, 2); k > 0; k--) topics.push('0x' + '0'.repeat(24) + hexOf(40, hash, j, k));
  return { topics, data: '0x' + hexOf(64 * rng.int(1, 3), hash, 'data', j), log_index: j };
}

export function logsOf(h: WalletHistory, i: number, offset: number, limit: number): { item: TransactionLogs; total: number } {
  const txn = transactionAt(h, i);
  const total = logCount(h.config.seed, txn.txn_hash);
  const logs: Log[] = [];
  for (let j = offset; j < Math.min(total, offset + limit); j++) logs.push(logAt(h.config.seed, txn.txn_hash, j));
  return {
    item: { txn_hash: txn.txn_hash, block: txn.block, from: txn.from, from_type: txn.from_type, txn_fee: txn.txn_fee, gas_fee: txn.gas_fee, chain_id: txn.chain_id, date: txn.date, logs },
    total,
  };
}
