import type { WritableDB } from '../../src/main/core/store/db.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { positionSnapshot, transaction as transactionSchema } from '../../src/shared/service/schemas.ts';

/** What one all-positions snapshot holds, made by hand for the alert tests. */
export interface Holdings {
  /** A plain balance worth this much (USD): the snapshot's NAV. */
  nav?: number;
  /** A lending position: its collateral/debt ratio and liquidation threshold (null: unreadable). */
  lending?: { cid: string; ratio: number | null; threshold: number };
  /** A lock ending at this time. */
  unlock?: { cid: string; at: string; qty: number };
}

let fetched = 0;

export function putPositions(db: WritableDB, wallet: string, chain: string, date: string, h: Holdings): void {
  const positions: unknown[] = [];
  if (h.nav !== undefined)
    positions.push({
      asset_type: 'wallet',
      chain_id: chain,
      protocol_id: 'wallet',
      cid: `bal-${chain}`,
      name: 'USDC',
      symbol: 'USDC',
      principal_nav: h.nav,
      reward_nav: 0,
      underlying: [{ internal_id: `${chain}:usdc`, name: 'USD Coin', symbol: 'USDC', qty: h.nav, nav: h.nav, details: {} }],
    });
  if (h.lending)
    positions.push({
      asset_type: 'lending',
      chain_id: chain,
      protocol_id: 'aave_v3',
      cid: h.lending.cid,
      name: 'Aave WETH supply / USDC borrow',
      symbol: 'aWETH',
      principal_nav: 1000,
      reward_nav: 0,
      underlying: [
        {
          internal_id: `${chain}:weth`,
          name: 'Wrapped Ether',
          symbol: 'WETH',
          qty: 1,
          nav: 3000,
          details: { type: 'supply', liq_threshold: h.lending.threshold, collateral_debt_ratio: h.lending.ratio },
        },
        { internal_id: `${chain}:usdc`, name: 'USD Coin', symbol: 'USDC', qty: -2000, nav: -2000, details: { type: 'borrow' } },
      ],
    });
  if (h.unlock)
    positions.push({
      asset_type: 'locked',
      chain_id: chain,
      protocol_id: 'curve',
      cid: h.unlock.cid,
      name: 'Curve veCRV',
      symbol: 'veCRV',
      principal_nav: 0,
      reward_nav: 0,
      underlying: [{ internal_id: `${chain}:crv`, name: 'Curve', symbol: 'CRV', qty: h.unlock.qty, nav: 0, details: { unlock_time: h.unlock.at } }],
    });
  const data = [positionSnapshot.parse({ wallet_id: wallet, date: `${date}T00:00:00Z`, positions })];
  const body = JSON.stringify({ status: 'OK', data, message: `Get all positions (ID: t${++fetched}) succeed.` });
  insertSnapshot(db, {
    endpoint: 'allPositions',
    wallet,
    chain,
    requestedDate: date,
    response: {
      data,
      requestId: `t${fetched}`,
      body,
      fetchedAt: new Date(Date.UTC(2026, 0, 1) + fetched * 1000).toISOString(),
    },
  });
}

export interface Sent {
  hash: string;
  time: number;
  to: string;
  from?: string;
  out?: Array<{ symbol: string; qty: number }>;
  in?: Array<{ symbol: string; qty: number }>;
  status?: number;
}

/** Transactions of a wallet on a chain: transfers out (and in) of the given tokens. */
export function putTransfers(db: WritableDB, wallet: string, chain: string, txns: readonly Sent[]): void {
  const rows = txns.map((t) =>
    transactionSchema.parse({
      wallet_id: wallet,
      txn_hash: t.hash,
      block: 1,
      from: t.from ?? wallet,
      to: t.to,
      from_type: 'eoa',
      to_type: 'eoa',
      txn_fee: 0,
      gas_fee: 0,
      action_type: 'transfer_out',
      method_hex: '0x',
      protocol_id: 'wallet',
      chain_id: chain,
      date: new Date(t.time).toISOString(),
      details: [
        ...(t.out ?? []).map((d) => ({ token_cid: `0x${d.symbol}`, type: 'out', qty: d.qty, symbol: d.symbol })),
        ...(t.in ?? []).map((d) => ({ token_cid: `0x${d.symbol}`, type: 'in', qty: d.qty, symbol: d.symbol })),
      ],
      status: t.status ?? 1,
    }),
  );
  db.transaction(() => upsertTransactions(db, wallet, chain, rows)).immediate();
}
