/**
 * The transaction schema (schemas.ts `transaction`) applied by hand, for the rows a sync reads
 * by the hundred thousand: zod's walk of each row costs several times this one's, enough alone
 * to cap a sync's rate (bench/RESULTS.md, "Whale sync, ingest at scale, export pace"). The
 * same normalisers run on the same members, so the result is the schema's; anything this does
 * not accept returns undefined and the caller runs the schema itself, which explains the
 * problem (the error message and path stay the schema's). A test checks both give the same
 * output over the drift readings the simulator plays.
 */

import { toFloat, toInteger, toIsoDatetime } from './normalize.ts';

const TEXT = ['wallet_id', 'from', 'to', 'from_type', 'to_type', 'action_type', 'method_hex', 'protocol_id', 'chain_id'] as const;
const DETAIL_TEXT = ['token_cid', 'type', 'symbol'] as const;

type Loose = Record<string, unknown>;

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fastDetail(d: unknown): Loose | undefined {
  if (!isObject(d)) return undefined;
  const out: Loose = { ...d };
  for (const k of DETAIL_TEXT) {
    const v = d[k];
    if (v === undefined || v === null) out[k] = null;
    else if (typeof v !== 'string') return undefined;
  }
  const qty = toFloat(d['qty']);
  if (qty === undefined) return undefined;
  out['qty'] = qty;
  return out;
}

/** The schema's output for a row it accepts; undefined when the schema must decide. */
export function fastTransaction(row: unknown): Loose | undefined {
  if (!isObject(row)) return undefined;
  const hash = row['txn_hash'];
  if (typeof hash !== 'string' || hash.length === 0) return undefined;
  const out: Loose = { ...row };
  for (const k of TEXT) {
    const v = row[k];
    if (v === undefined || v === null) out[k] = null;
    else if (typeof v !== 'string') return undefined;
  }
  const block = toInteger(row['block']);
  const status = toInteger(row['status']);
  const txnFee = toFloat(row['txn_fee']);
  const gasFee = toFloat(row['gas_fee']);
  const date = toIsoDatetime(row['date'] ?? null);
  if (block === undefined || status === undefined || txnFee === undefined || gasFee === undefined || date === undefined) return undefined;
  out['block'] = block;
  out['status'] = status;
  out['txn_fee'] = txnFee;
  out['gas_fee'] = gasFee;
  out['date'] = date;
  const details = row['details'];
  if (details === undefined || details === null) out['details'] = [];
  else if (!Array.isArray(details)) return undefined;
  else {
    const list: Loose[] = new Array(details.length);
    for (let i = 0; i < details.length; i++) {
      const d = fastDetail(details[i]);
      if (!d) return undefined;
      list[i] = d;
    }
    out['details'] = list;
  }
  return out;
}
