/**
 * A token's transfers in a window: the reconciliation's trace of one token (analytics/store/
 * reconcile.ts), a row per transfer of the successful transactions that moved it.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, sql } from '../../store/sql.ts';

export interface TokenTransfer {
  txn_hash: string;
  time: number;
  action_type: string | null;
  protocol_id: string | null;
  type: string | null;
  qty: number | null;
}

/** `start <= time < end` (Unix ms), oldest first, at most `limit` transfers; the token by contract address in any case. */
export function tokenTransfers(
  db: ReadableDB,
  q: { wallet: string; chain: string; tokenCid: string; start: number; end: number; limit: number },
): TokenTransfer[] {
  return all<TokenTransfer>(
    db,
    sql`SELECT t.txn_hash, t.time, t.action_type, t.protocol_id, j.value ->> 'type' AS type, j.value ->> 'qty' AS qty
        FROM transactions t, json_each(t.details) j
        WHERE t.wallet = ${addressKey(q.wallet)} AND t.chain = ${q.chain} AND t.time >= ${q.start} AND t.time < ${q.end} AND t.status = 1
          AND lower(j.value ->> 'token_cid') = ${q.tokenCid.toLowerCase()}
        ORDER BY t.time, t.id LIMIT ${q.limit}`,
  );
}
