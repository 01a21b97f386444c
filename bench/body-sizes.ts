/**
 * How large a service's bodies get, for the body caps (`maxBodyBytes` in
 * src/shared/service/endpoints.ts): the largest body the reference service sends per endpoint
 * (1,000-row pages, the wallets and days with the most positions), and the largest a real
 * service could plausibly send, built from the schemas with every member at a long realistic
 * length (1,000 rows of multi-hop swaps, 1,000 logs with four topics and long data, a spam-laden
 * wallet's thousands of tokens). Also times the nesting check every body takes before it is
 * parsed, against JSON.parse of the same body. Run: npm run bench -- body-sizes
 */
import { ENDPOINTS, type EndpointName, MAX_BODY_DEPTH } from '../src/shared/service/endpoints.ts';
import { nestsDeeperThan } from '../src/shared/service/normalize.ts';
import { startSimulator } from '../src/sim/server.ts';
import { fmt, report, timeRuns } from './lib.ts';

const KEY = 'bench-body-sizes-key';
const WALLETS = ['0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', '0x00000000219ab540356cbb839cbe05303d7705fa', '0xbe0c4000000000000000000000000000000be0c4'];
const CHAINS = ['eth', 'arb', 'op', 'base', 'matic', 'bsc'];
const MB = 2 ** 20;

export async function bodySizesBench(): Promise<Record<EndpointName, { sim: number; built: number }>> {
  const sim = await startSimulator({ accessKey: KEY, seed: 7, txnsPerWallet: 20_000 });
  const get = async (endpoint: EndpointName, params: Record<string, string>) => {
    const url = new URL(sim.url + ENDPOINTS[endpoint].path);
    for (const [k, v] of Object.entries({ access_key: KEY, ...params })) url.searchParams.set(k, v);
    const res = await fetch(url);
    const body = await res.text();
    if (!res.ok) throw new Error(`${endpoint}: HTTP ${res.status} ${body.slice(0, 200)}`);
    return body;
  };
  const largest = { allPositions: 0, positionsByUnderlying: 0, liquidityAnalysis: 0, transactionsByWallet: 0, logsByTxnHash: 0 } as Record<
    EndpointName,
    number
  >;
  const bytes = (s: string) => Buffer.byteLength(s);
  try {
    const days = ['2024-06-01', '2025-06-01', '2026-06-01'];
    for (const wallet of WALLETS) {
      for (const chain of CHAINS) {
        for (const endpoint of ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'] as const) {
          for (const date of days) largest[endpoint] = Math.max(largest[endpoint], bytes(await get(endpoint, { wallet, chains: chain, date })));
        }
        for (const page of [1, 5, 10, 20]) {
          const body = await get('transactionsByWallet', { wallet, chains: chain, page: String(page), pageSize: '1000' });
          largest.transactionsByWallet = Math.max(largest.transactionsByWallet, bytes(body));
          // Logs of the page's rows: the ones with most logs (batched calls, up to 260 in the simulator).
          if (page === 1 && chain === 'eth') {
            const rows = (JSON.parse(body) as { data: Array<{ transaction_history: Array<{ txn_hash: string }> }> }).data[0]!.transaction_history;
            for (const row of rows.slice(0, 200)) {
              const logs = await get('logsByTxnHash', { txn_hash: row.txn_hash, chain_id: chain, pageSize: '1000' });
              largest.logsByTxnHash = Math.max(largest.logsByTxnHash, bytes(logs));
            }
          }
        }
      }
    }
  } finally {
    await sim.close();
  }
  const built = builtBodies();
  const out = {} as Record<EndpointName, { sim: number; built: number }>;
  const rows: Array<[string, string]> = [];
  for (const e of Object.keys(ENDPOINTS) as EndpointName[]) {
    out[e] = { sim: largest[e], built: bytes(built[e]) };
    rows.push([
      e,
      `simulator ${fmt(largest[e] / MB, 3)} MB · built ${fmt(out[e].built / MB, 2)} MB · cap ${fmt(ENDPOINTS[e].maxBodyBytes / MB, 0)} MB (${fmt(ENDPOINTS[e].maxBodyBytes / out[e].built, 1)} × built)`,
    ]);
  }
  report('Largest bodies per endpoint (decoded bytes)', rows);
  const times: Array<[string, string]> = [];
  for (const e of Object.keys(ENDPOINTS) as EndpointName[]) {
    const body = built[e];
    const scan = timeRuns(20, () => nestsDeeperThan(body, MAX_BODY_DEPTH));
    const parse = timeRuns(20, () => JSON.parse(body));
    times.push([e, `nesting check ${fmt(scan[10]!)} ms · JSON.parse ${fmt(parse[10]!)} ms (medians, built body)`]);
  }
  report('Nesting check before parsing', times);
  return out;
}

const hex = (n: number, salt: number) => {
  let s = '';
  while (s.length < n) s += (salt++ * 2654435761).toString(16).padStart(8, '0');
  return s.slice(0, n);
};
const addr = (i: number) => '0x' + hex(40, i);
const hash = (i: number) => '0x' + hex(64, i);
const qty = (i: number) => `${i}123456789.123456789012345678`;

/** The largest bodies a real service could plausibly send, every member long. */
export function builtBodies(): Record<EndpointName, string> {
  const envelope = (endpoint: EndpointName, item: unknown, extra: object = {}) =>
    JSON.stringify({ status: 'OK', data: [item], message: `Get ${ENDPOINTS[endpoint].what} (ID: ${hash(9)}) succeed.`, ...extra });
  // 1,000 rows, each a multi-hop swap or batched call moving 12 tokens, long protocol ids.
  const txns = Array.from({ length: 1000 }, (_, i) => ({
    wallet_id: addr(1),
    txn_hash: hash(i),
    block: 21_000_000 + i,
    from: addr(i + 2),
    to: addr(i + 3),
    from_type: 'externally_owned_account',
    to_type: 'smart_contract_aggregator',
    txn_fee: '0.000123456789012345',
    gas_fee: '12.3456789012345678',
    action_type: 'swap_exact_tokens_for_tokens_supporting_fee',
    method_hex: '0x' + hex(8, i),
    protocol_id: 'uniswap_v3_universal_router_arbitrum_one',
    chain_id: 'arbitrum-one',
    date: '2026-11-01T12:34:56.789Z',
    details: Array.from({ length: 12 }, (_, k) => ({
      token_cid: addr(i * 100 + k),
      type: k % 2 ? 'transfer_out' : 'transfer_in',
      qty: qty(k),
      symbol: 'WRAPPED-TOKEN',
    })),
    status: 1,
  }));
  // 1,000 logs (one page), four topics each, 1,024 bytes of event data (32 words) each.
  const logs = Array.from({ length: 1000 }, (_, j) => ({ topics: [hash(j), hash(j + 1), hash(j + 2), hash(j + 3)], data: '0x' + hex(2048, j), log_index: j }));
  // A wallet holding 5,000 tokens (airdropped spam included) and 500 DeFi positions of 4 underlying each.
  const underlying = (i: number, k: number) => ({
    internal_id: `arbitrum-one:${addr(i * 10 + k)}`,
    name: 'Some Long Token Name (Bridged, Wrapped)',
    symbol: 'LONGSYMBOL',
    qty: qty(k),
    nav: qty(k + 1),
    details: {
      is_reward: false,
      type: 'supply',
      debt_positions: [hash(i)],
      collateral: [hash(i + 1)],
      liq_threshold: 0.825,
      unlock_time: '2027-01-01T00:00:00Z',
    },
  });
  const positions = Array.from({ length: 5500 }, (_, i) => ({
    asset_type: i < 5000 ? 'wallet' : 'liquidity_pool',
    chain_id: 'arbitrum-one',
    protocol_id: i < 5000 ? 'wallet' : 'uniswap_v3_universal_router_arbitrum_one',
    cid: addr(i),
    name: 'Some Long Position Name (Bridged, Wrapped)',
    symbol: 'LONGSYMBOL',
    principal_nav: qty(i),
    reward_nav: qty(i + 1),
    underlying: Array.from({ length: i < 5000 ? 1 : 4 }, (_, k) => underlying(i, k)),
  }));
  const groups = Array.from({ length: 5000 }, (_, i) => ({
    token_id: `arbitrum-one:${addr(i)}`,
    token_name: 'Some Long Token Name (Bridged, Wrapped)',
    token_symbol: 'LONGSYMBOL',
    token_cid: addr(i),
    total_qty: qty(i),
    total_nav: qty(i + 1),
    breakdown: Array.from({ length: i < 500 ? 4 : 1 }, (_, k) => ({
      chain_id: 'arbitrum-one',
      pos_id: hash(i * 10 + k),
      asset_type: 'liquidity_pool',
      cid: addr(k),
      protocol_id: 'uniswap_v3_universal_router_arbitrum_one',
      name: 'Some Long Position Name (Bridged, Wrapped)',
      qty: qty(k),
      nav: qty(k + 1),
    })),
  }));
  const liquidity = positions.map((p) => ({
    asset_type: p.asset_type,
    chain_id: p.chain_id,
    protocol_id: p.protocol_id,
    cid: p.cid,
    principal_token_name: p.name,
    principal_token_symbol: p.symbol,
    principal_qty: qty(1),
    principal_total_supply: qty(2),
    principal_pct_ownership: '0.000012345678901234',
    underlying: p.underlying.map((u) => ({
      name: u.name,
      symbol: u.symbol,
      qty: u.qty,
      total_supply: qty(3),
      pct_ownership: '0.000012345678901234',
      details: {
        is_reward: false,
        slippage: 0.0123,
        unlocked_time: '2027-01-01T00:00:00Z',
        exchange_rate: 1.0234,
        debt_positions: [hash(1)],
        collaterals: [hash(2)],
      },
    })),
  }));
  const snapshot = (items: unknown[]) => ({ wallet_id: addr(1), date: '2026-11-01T00:00:00Z', positions: items });
  return {
    allPositions: envelope('allPositions', snapshot(positions)),
    positionsByUnderlying: envelope('positionsByUnderlying', snapshot(groups)),
    liquidityAnalysis: envelope('liquidityAnalysis', snapshot(liquidity)),
    transactionsByWallet: envelope('transactionsByWallet', { transaction_history: txns, start_block: 1, end_block: 22_000_000, completion_ratio: 1 }),
    logsByTxnHash: envelope(
      'logsByTxnHash',
      {
        txn_hash: hash(1),
        block: 1,
        from: addr(1),
        from_type: 'externally_owned_account',
        txn_fee: 0.1,
        gas_fee: 1,
        chain_id: 'arbitrum-one',
        date: '2026-11-01T00:00:00Z',
        logs,
      },
      { total: 1000 },
    ),
  };
}
