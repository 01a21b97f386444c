import type { ReconcileTraceRow } from '../../../shared/model.ts';
import type { ReadableDB } from '../store/handles.ts';
import { counterpartyKind, counterpartyNamer } from '../counterparties/index.ts';
import { transactionEnds } from './store/ends.ts';

/** A reconcile trace's rows with the other end of each named (the auditor's "paid to Grantee X"). */
export function nameTrace(db: ReadableDB, wallet: string, chain: string, rows: ReconcileTraceRow[]): ReconcileTraceRow[] {
  const ends = transactionEnds(
    db,
    wallet,
    chain,
    rows.map((r) => r.txn_hash),
  );
  const namer = counterpartyNamer(db);
  return rows.map((r) => {
    const e = ends.get(r.txn_hash);
    if (!e) return r;
    const { kind, other } = counterpartyKind(namer, { wallet, chain, ...e });
    return { ...r, counterparty: { address: other, name: namer(other, chain)?.name ?? null, kind } };
  });
}
