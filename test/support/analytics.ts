import type { WritableDB } from '../../src/main/core/store/db.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { saveRange, upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { transaction as transactionSchema, underlyingSnapshot } from '../../src/shared/service/schemas.ts';

/** A by-underlying snapshot made by hand: token cid → [wallet-held qty, qty in other positions]. */
export function putHoldings(
  db: WritableDB,
  wallet: string,
  chain: string,
  date: string,
  tokens: Record<string, [number, number]>,
  fetchedAt = '2026-01-01T00:00:00.000Z',
): void {
  const positions = Object.entries(tokens).map(([cid, [held, other]]) => ({
    token_id: `${chain}:${cid}`,
    token_name: `Token ${cid.slice(2, 6)}`,
    token_symbol: `T${cid.slice(2, 6).toUpperCase()}`,
    token_cid: cid,
    total_qty: held + other,
    total_nav: held + other,
    breakdown: [
      { chain_id: chain, pos_id: `w-${cid}`, asset_type: 'wallet', cid: `w-${cid}`, protocol_id: 'wallet', name: 'Wallet', qty: held, nav: held },
      ...(other
        ? [{ chain_id: chain, pos_id: `l-${cid}`, asset_type: 'lending', cid: `l-${cid}`, protocol_id: 'aave_v3', name: 'Lending', qty: other, nav: other }]
        : []),
    ],
  }));
  const data = [underlyingSnapshot.parse({ wallet_id: wallet, date: `${date}T00:00:00Z`, positions })];
  const body = JSON.stringify({ status: 'OK', data, message: 'Get positions by underlying (ID: test) succeed.' });
  insertSnapshot(db, {
    endpoint: 'positionsByUnderlying',
    wallet,
    chain,
    requestedDate: date,
    response: {
      data,
      requestId: 'test',
      body,
      fetchedAt,
    },
  });
}

export interface TestTransfer {
  hash: string;
  time: number; // Unix ms
  status: number | null;
  details: Array<{ token_cid: string; type: string | null; qty: number | null }>;
}

export function putTransactions(db: WritableDB, wallet: string, chain: string, txns: readonly TestTransfer[]): void {
  const rows = txns.map((t) =>
    transactionSchema.parse({
      wallet_id: wallet,
      txn_hash: t.hash,
      block: 1,
      from: wallet,
      to: wallet,
      from_type: 'eoa',
      to_type: 'eoa',
      txn_fee: 0,
      gas_fee: 0,
      action_type: 'transfer',
      method_hex: '0x',
      protocol_id: 'wallet',
      chain_id: chain,
      date: new Date(t.time).toISOString(),
      details: t.details.map((d) => ({ ...d, symbol: 'T' })),
      status: t.status,
    }),
  );
  db.transaction(() => upsertTransactions(db, wallet, chain, rows)).immediate();
}

/** Records [start, end] (Unix seconds, inclusive) as synced completely. */
export function markSynced(
  db: WritableDB,
  wallet: string,
  chain: string,
  startSec: number,
  endSec: number,
  state: 'complete' | 'incomplete' = 'complete',
): void {
  saveRange(db, {
    wallet,
    chain,
    startTime: startSec,
    endTime: endSec,
    state,
    nextPage: null,
    pageSize: 100,
    startBlock: null,
    endBlock: null,
    completionRatio: state === 'complete' ? 1 : 0.5,
    rowsRead: 0,
    updatedAt: '2026-01-01T00:00:00.000Z',
    reason: null,
  });
}
