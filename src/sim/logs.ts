/**
 * A transaction's event logs, derived from the transaction itself (its action, its transfers,
 * its status), in the standard layouts of the well-known events: an ERC-20 `Transfer` for every
 * token it moved, `Approval` for an approve, a pool's `Swap` (Uniswap V2 with its `Sync`, or V3)
 * for a swap, and WETH's `Deposit`/`Withdrawal` where the native token is wrapped or unwrapped on
 * the way. Indexed addresses are 32-byte topics, amounts 32-byte words in the token's decimals, so
 * the app's decoder (src/shared/signatures.ts) reads every one. The topics here are written out
 * (keccak-256 of the signatures, checked by test/sim/logs.test.ts), not taken from the decoder's
 * table, so a wrong entry on either side shows.
 */
import type { Log, Transaction } from '../shared/service/wire.ts';
import { type ChainInfo, chainById } from './chains.ts';
import { onChain, TOKENS } from './catalog.ts';
import { hexOf, Rng } from './random.ts';

/** keccak-256 of each event's signature: its topic 0. */
export const TOPIC = {
  /** Transfer(address indexed from, address indexed to, uint256 value) */
  transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  /** Approval(address indexed owner, address indexed spender, uint256 value) */
  approval: '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  /** Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to): Uniswap V2 */
  swapV2: '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822',
  /** Sync(uint112 reserve0, uint112 reserve1): Uniswap V2 */
  sync: '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1',
  /** Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick): Uniswap V3 */
  swapV3: '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67',
  /** Deposit(address indexed dst, uint256 wad): WETH */
  deposit: '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c',
  /** Withdrawal(address indexed src, uint256 wad): WETH */
  withdrawal: '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65',
} as const;

const ZERO_ADDRESS = '0x' + '0'.repeat(40);
const TWO_256 = 1n << 256n;

/** An address as an indexed topic: 12 zero bytes, then the 20 bytes. */
const addressTopic = (address: string): string => '0x' + '0'.repeat(24) + address.slice(2).toLowerCase();

/** A 32-byte word of an integer (two's complement when negative, as int256 and int24 are). */
function word(n: bigint): string {
  return (((n % TWO_256) + TWO_256) % TWO_256).toString(16).padStart(64, '0');
}

const data = (...words: bigint[]): string => '0x' + words.map(word).join('');

interface Erc20 {
  key: string;
  address: string;
  decimals: number;
}

const byAddress = new Map<string, Map<string, Erc20>>();

/** The chain's tokens by contract address (lower case), for a transfer's token_cid. */
function tokensOf(chain: ChainInfo): Map<string, Erc20> {
  let map = byAddress.get(chain.id);
  if (!map) {
    map = new Map();
    for (const key of Object.keys(TOKENS)) {
      const t = onChain(key, chain);
      map.set(t.address.toLowerCase(), { key, address: t.address, decimals: t.decimals });
    }
    byAddress.set(chain.id, map);
  }
  return map;
}

/**
 * A quantity as the chain's integer amount: transfers carry 6 decimals, so the micro-units
 * scaled to the token's decimals are exact (no float in the amount a log carries).
 */
export function rawAmount(qty: number, decimals: number): bigint {
  const micro = BigInt(Math.round(qty * 1e6));
  return decimals >= 6 ? micro * 10n ** BigInt(decimals - 6) : micro / 10n ** BigInt(6 - decimals);
}

export const transferLog = (from: string, to: string, amount: bigint): Omit<Log, 'log_index'> => ({
  topics: [TOPIC.transfer, addressTopic(from), addressTopic(to)],
  data: data(amount),
});

/** The transaction's own logs: what its action and transfers imply. Failed (reverted) transactions emit none. */
function ownLogs(seed: number, txn: Transaction): Array<Omit<Log, 'log_index'>> {
  if (txn.status !== 1) return [];
  const chain = chainById(txn.chain_id ?? '');
  if (!chain) return [];
  const tokens = tokensOf(chain);
  const weth = onChain('WETH', chain);
  const wallet = txn.wallet_id.toLowerCase();
  // The contract or the other party the transaction went to (or came from, for an incoming transfer).
  const other = (txn.to ?? '').toLowerCase() === wallet ? txn.from : txn.to;
  const counterparty = /^0x[0-9a-fA-F]{40}$/.test(other ?? '') ? other!.toLowerCase() : ZERO_ADDRESS;
  const legs = (txn.details ?? []).map((d) => {
    const tok = tokens.get(String(d.token_cid).toLowerCase());
    const native = tok?.key === 'NATIVE';
    const erc20 = native ? { key: 'WETH', address: weth.address, decimals: weth.decimals } : tok;
    return { type: d.type, native, erc20, amount: erc20 ? rawAmount(d.qty, erc20.decimals) : 0n };
  });
  const out: Array<Omit<Log, 'log_index'>> = [];
  const rng = new Rng(seed, txn.txn_hash, 'events');

  switch (txn.action_type) {
    case 'approve': {
      // An approval of one of the tokens the wallet trades, to the protocol's contract:
      // half of them the usual "unlimited" allowance.
      const keys = ['WETH', 'USDC', 'USDT', 'DAI', 'WBTC', 'LINK', 'UNI', 'AAVE', 'CRV'];
      const tok = onChain(rng.pick(keys), chain);
      const value = rng.chance(0.5) ? TWO_256 - 1n : rawAmount(Math.round(10 ** rng.between(1, 5)), tok.decimals);
      out.push({ topics: [TOPIC.approval, addressTopic(wallet), addressTopic(counterparty)], data: data(value) });
      return out;
    }
    case 'swap': {
      const sold = legs.find((l) => l.type === 'out');
      const bought = legs.find((l) => l.type === 'in');
      if (!sold?.erc20 || !bought?.erc20) break;
      const router = counterparty;
      // Native in or out goes through WETH: the router wraps what the wallet sends and unwraps what it receives.
      const payer = sold.native ? router : wallet;
      const receiver = bought.native ? router : wallet;
      if (sold.native) out.push({ topics: [TOPIC.deposit, addressTopic(router)], data: data(sold.amount) });
      if (sold.erc20.address === bought.erc20.address) {
        // A wrap (the router hands the WETH over) or an unwrap (the wallet hands its WETH to the
        // router, which unwraps it): no pool.
        out.push(sold.native ? transferLog(router, wallet, bought.amount) : transferLog(wallet, router, sold.amount));
      } else {
        const [t0, t1] = [sold.erc20.address, bought.erc20.address].sort();
        const pool = '0x' + hexOf(40, seed, 'pool', txn.chain_id ?? '', txn.protocol_id ?? '', t0!, t1!);
        const soldIs0 = sold.erc20.address === t0;
        out.push(transferLog(payer, pool, sold.amount));
        out.push(transferLog(pool, receiver, bought.amount));
        if (txn.protocol_id === 'uniswap_v3') {
          // V3: signed amounts from the pool's side (positive into the pool), the price after the
          // swap as sqrt(token1 per token0) × 2^96 and its tick.
          const amount0 = soldIs0 ? sold.amount : -bought.amount;
          const amount1 = soldIs0 ? -bought.amount : sold.amount;
          const ratio = Number(soldIs0 ? bought.amount : sold.amount) / Math.max(1, Number(soldIs0 ? sold.amount : bought.amount));
          const sqrtPriceX96 = BigInt(Math.round(Math.sqrt(ratio) * 2 ** 48)) * (1n << 48n);
          const tick = BigInt(Math.max(-887_272, Math.min(887_272, Math.floor(Math.log(ratio) / Math.log(1.0001)))));
          const liquidity = BigInt('0x' + hexOf(24, seed, 'liquidity', pool));
          out.push({
            topics: [TOPIC.swapV3, addressTopic(router), addressTopic(receiver)],
            data: data(amount0, amount1, sqrtPriceX96, liquidity, tick),
          });
        } else {
          // V2 layout (the other venues' own events are not well known): the reserves after the
          // swap, then the amounts in and out per side.
          const reserve = (amount: bigint) => amount * BigInt(rng.int(200, 20_000));
          out.push({
            topics: [TOPIC.sync],
            data: soldIs0 ? data(reserve(sold.amount), reserve(bought.amount)) : data(reserve(bought.amount), reserve(sold.amount)),
          });
          out.push({
            topics: [TOPIC.swapV2, addressTopic(router), addressTopic(receiver)],
            data: soldIs0 ? data(sold.amount, 0n, 0n, bought.amount) : data(0n, sold.amount, bought.amount, 0n),
          });
        }
      }
      if (bought.native) out.push({ topics: [TOPIC.withdrawal, addressTopic(router)], data: data(bought.amount) });
      return out;
    }
    case 'stake': {
      // The staked token is minted to the wallet for the native token it sent (which moves no log).
      for (const l of legs) if (l.type === 'in' && l.erc20 && !l.native) out.push(transferLog(ZERO_ADDRESS, wallet, l.amount));
      return out;
    }
  }
  // Transfers, deposits, withdrawals, borrows, repayments, claims, unstaking: one Transfer per
  // token moved, between the wallet and the other party. A native token moves without a log,
  // unless a protocol's gateway wraps or unwraps it on the way.
  const viaGateway = txn.action_type !== 'transfer_in' && txn.action_type !== 'transfer_out' && txn.action_type !== 'unstake';
  for (const l of legs) {
    if (!l.erc20) continue;
    if (l.native) {
      if (!viaGateway) continue;
      out.push(
        l.type === 'out'
          ? { topics: [TOPIC.deposit, addressTopic(counterparty)], data: data(l.amount) }
          : { topics: [TOPIC.withdrawal, addressTopic(counterparty)], data: data(l.amount) },
      );
      continue;
    }
    out.push(l.type === 'out' ? transferLog(wallet, counterparty, l.amount) : transferLog(counterparty, wallet, l.amount));
  }
  return out;
}

/**
 * A batched call (a few successful transactions: an aggregator's route through many pools)
 * carries hundreds of logs after its own, so paging is exercised: transfers between the route's
 * pools, each followed by the pool's Sync.
 */
function batchSize(seed: number, txn: Transaction): number {
  if (txn.status !== 1) return 0;
  const rng = new Rng(seed, txn.txn_hash, 'logs');
  return rng.chance(0.04) ? rng.int(120, 260) : 0;
}

function routeLog(seed: number, hash: string, k: number): Omit<Log, 'log_index'> {
  const rng = new Rng(seed, hash, 'route', k >> 1);
  const pool = (n: number) => '0x' + hexOf(40, seed, hash, 'route-pool', n);
  const amount = BigInt(Math.round(10 ** rng.between(3, 9))) * 10n ** 12n + BigInt(k);
  if (k % 2 === 0) return transferLog(pool(k >> 1), pool((k >> 1) + 1), amount);
  return { topics: [TOPIC.sync], data: data(amount * BigInt(rng.int(100, 5000)), BigInt(rng.int(1, 1_000_000_000)) * 10n ** 6n) };
}

/** Every log of a transaction, in order, with its index. */
export function logsOfTransaction(seed: number, txn: Transaction): Log[] {
  const own = ownLogs(seed, txn);
  const total = Math.max(own.length, batchSize(seed, txn));
  const logs: Log[] = own.map((l, j) => ({ ...l, log_index: j }));
  for (let j = own.length; j < total; j++) logs.push({ ...routeLog(seed, txn.txn_hash, j - own.length), log_index: j });
  return logs;
}

/** How many logs a transaction has. */
export function logCount(seed: number, txn: Transaction): number {
  return logsOfTransaction(seed, txn).length;
}

/** The transaction's log at index j. */
export function logAt(seed: number, txn: Transaction, j: number): Log {
  const log = logsOfTransaction(seed, txn)[j];
  if (!log) throw new Error(`no log ${j} in ${txn.txn_hash}`);
  return log;
}
