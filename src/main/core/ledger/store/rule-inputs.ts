/**
 * What the category rules read of the history (annotations/apply.ts): the transactions after a
 * point, those the change log restated, how far the cache goes, the action types it holds.
 */
import type { TransferDetail } from '../../../../shared/model.ts';
import type { ReadableDB } from '../../store/handles.ts';
import { all, get, sql, prepare } from '../../store/sql.ts';

/** A transaction as the rules see it. */
export interface RuleTxn {
  id: number;
  wallet: string;
  chain: string;
  txnHash: string;
  from: string | null;
  to: string | null;
  actionType: string | null;
  methodHex: string | null;
  /** 1 succeeded, 0 failed, null not known. */
  status: number | null;
  details: TransferDetail[];
}

type RuleTxnRow = [
  id: number,
  wallet: string,
  chain: string,
  txnHash: string,
  from: string | null,
  to: string | null,
  action: string | null,
  method: string | null,
  status: number | null,
  details: string,
];

const toRuleTxn = (r: RuleTxnRow): RuleTxn => ({
  id: r[0],
  wallet: r[1],
  chain: r[2],
  txnHash: r[3],
  from: r[4],
  to: r[5],
  actionType: r[6],
  methodHex: r[7],
  status: r[8],
  details: JSON.parse(r[9]) as TransferDetail[],
});

const RULE_COLUMNS = sql`id, wallet, chain, txn_hash, from_addr, to_addr, action_type, method_hex, status, details`;

/** Cached transactions with id above `afterId`, in id order, `limit` at a time (read whole: writes follow on this connection). */
export function ruleTxnsAfter(db: ReadableDB, afterId: number, limit: number): RuleTxn[] {
  return (prepareRaw(db, sql`SELECT ${RULE_COLUMNS} FROM transactions WHERE id > ${afterId} ORDER BY id LIMIT ${limit}`) as RuleTxnRow[]).map(toRuleTxn);
}

/** Cached transactions named in the change log after `afterChangeId` (restated: their transfers or method may differ now). */
export function ruleTxnsChangedAfter(db: ReadableDB, afterChangeId: number): RuleTxn[] {
  return (
    prepareRaw(
      db,
      sql`SELECT ${RULE_COLUMNS} FROM transactions t WHERE EXISTS (
            SELECT 1 FROM transaction_changes c WHERE c.id > ${afterChangeId} AND c.txn_hash = t.txn_hash AND c.wallet = t.wallet AND c.chain = t.chain)`,
    ) as RuleTxnRow[]
  ).map(toRuleTxn);
}

function prepareRaw(db: ReadableDB, q: ReturnType<typeof sql>): unknown[][] {
  return prepare(db, q.text, 'raw').all(...q.params) as unknown[][];
}

/** Every watched wallet's transactions' action types, as stored (what a rule's action type can be; rules.preview says the others). */
export function knownActionTypes(db: ReadableDB): string[] {
  return all<{ v: string }>(
    db,
    sql`SELECT DISTINCT action_type AS v FROM transactions WHERE wallet IN (SELECT address FROM wallets) AND action_type IS NOT NULL ORDER BY 1`,
  ).map((r) => r.v);
}

/** How far the cache goes: its largest transaction id and change-log id (0 when empty). */
export function historyReach(db: ReadableDB): { maxTxnId: number; maxChangeId: number } {
  return get<{ maxTxnId: number; maxChangeId: number }>(
    db,
    sql`SELECT (SELECT coalesce(max(id), 0) FROM transactions) AS maxTxnId, (SELECT coalesce(max(id), 0) FROM transaction_changes) AS maxChangeId`,
  )!;
}
