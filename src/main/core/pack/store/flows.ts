/**
 * What the monthly pack reads beyond the portfolio view and the reconciliation (pack/pack.ts):
 * the period's successful transactions with their transfers and parties, and the dates the
 * scope's by-token positions are cached on (the prices a flow is valued at come from them).
 */
import type { ReadableDB } from '../../store/db.ts';
import { all, sql, sqlJoin } from '../../store/sql.ts';
import type { TransferDetail } from '../../../../shared/model.ts';

export interface PeriodTransaction {
  wallet: string;
  chain: string;
  txnHash: string;
  /** Unix ms. */
  time: number;
  from: string | null;
  to: string | null;
  actionType: string | null;
  protocolId: string | null;
  transfers: TransferDetail[];
}

/**
 * The successful transactions of `wallets` with `start <= time < end` (Unix ms), oldest first.
 * A transaction whose transfers cannot be read is returned with none: the reconciliation
 * behind the pack already counts it as unreadable and says so.
 */
export function periodTransactions(db: ReadableDB, wallets: readonly string[], start: number, end: number): PeriodTransaction[] {
  if (!wallets.length) return [];
  const rows = all<{
    wallet: string;
    chain: string;
    txn_hash: string;
    time: number;
    from_addr: string | null;
    to_addr: string | null;
    action_type: string | null;
    protocol_id: string | null;
    details: string;
  }>(
    db,
    sql`SELECT wallet, chain, txn_hash, time, from_addr, to_addr, action_type, protocol_id, details FROM transactions
        WHERE wallet IN (${sqlJoin(wallets)}) AND time >= ${start} AND time < ${end} AND status = 1
        ORDER BY time, id`,
  );
  return rows.map((r) => {
    let transfers: TransferDetail[] = [];
    try {
      const parsed = JSON.parse(r.details) as unknown;
      if (Array.isArray(parsed)) transfers = parsed as TransferDetail[];
    } catch {
      // Left without transfers (see above).
    }
    return {
      wallet: r.wallet,
      chain: r.chain,
      txnHash: r.txn_hash,
      time: r.time,
      from: r.from_addr,
      to: r.to_addr,
      actionType: r.action_type,
      protocolId: r.protocol_id,
      transfers,
    };
  });
}

/** The dates (YYYY-MM-DD) in [from, to] on which any of `wallets` has its by-token positions cached, oldest first. */
export function underlyingDatesBetween(db: ReadableDB, wallets: readonly string[], from: string, to: string): string[] {
  if (!wallets.length) return [];
  return all<{ as_of: string }>(
    db,
    sql`SELECT DISTINCT as_of FROM snapshots WHERE endpoint = 'positionsByUnderlying' AND wallet IN (${sqlJoin(wallets)})
        AND as_of >= ${from} AND as_of <= ${to} ORDER BY as_of`,
  ).map((r) => r.as_of);
}
