import { z } from 'zod';
import { fastTransaction } from './fast-transaction.ts';
import { toBoolean, toFloat, toInteger, toIsoDatetime } from './normalize.ts';

/**
 * Runtime schemas of the service's responses (service-spec.md part 2), normalised as
 * DESIGN.md resolves the open points. Objects are loose: members the spec does not list
 * are kept (they reach the stored raw response too) and never fail a parse. Identity
 * members (ids, hashes, the arrays) are required; descriptive members may be missing
 * and become null, as a drifting service sends them.
 */

function normalised<T>(convert: (v: unknown) => T | undefined, expected: string) {
  // A missing member reads as null (zod treats a bare transform of `any` as required).
  return z.preprocess((v) => v ?? null, z.any()).transform((v, ctx) => {
    const out = convert(v);
    if (out === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected ${expected}, got ${JSON.stringify(v)?.slice(0, 40)}` });
      return z.NEVER;
    }
    return out;
  });
}

const float = normalised(toFloat, 'a number or numeric string');
const integer = normalised(toInteger, 'an integer');
const datetime = normalised(toIsoDatetime, 'a datetime');
const bool = normalised(toBoolean, 'a boolean');
const text = z.string().nullable().optional().transform((v) => v ?? null);
const requiredText = z.string().min(1);
const idList = z.array(z.string()).optional();
const list = <T extends z.ZodType>(item: T) => z.array(item).nullable().optional().transform((v) => v ?? []);

// Details members vary with asset_type: absent stays absent.
export const underlyingDetails = z.looseObject({
  is_reward: bool.optional(),
  type: z.string().optional(),
  debt_positions: idList,
  collateral: idList,
  liq_threshold: float.optional(),
  collateral_debt_ratio: float.optional(),
  unlock_time: datetime.optional(),
  voting_power: float.optional(),
  exchange_rate: float.optional(),
});

export const underlying = z.looseObject({
  internal_id: requiredText,
  name: text,
  symbol: text,
  qty: float,
  nav: float,
  details: underlyingDetails.nullable().optional().transform((v) => v ?? {}),
});

export const position = z.looseObject({
  asset_type: text,
  chain_id: text,
  protocol_id: text,
  cid: text,
  name: text,
  symbol: text,
  principal_nav: float,
  reward_nav: float,
  underlying: list(underlying),
});

const snapshotOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({ wallet_id: text, date: datetime, positions: z.array(item) });

export const positionSnapshot = snapshotOf(position);

export const breakdownEntry = z.looseObject({
  chain_id: text,
  pos_id: text,
  asset_type: text,
  cid: text,
  protocol_id: text,
  name: text,
  qty: float,
  nav: float,
});

export const underlyingGroup = z.looseObject({
  token_id: requiredText,
  token_name: text,
  token_symbol: text,
  token_cid: text,
  total_qty: float,
  total_nav: float,
  breakdown: list(breakdownEntry),
});

export const underlyingSnapshot = snapshotOf(underlyingGroup);

export const liquidityDetails = z.looseObject({
  is_reward: bool.optional(),
  slippage: float.optional(),
  unlocked_time: datetime.optional(),
  exchange_rate: float.optional(),
  voting_power: float.optional(),
  liq_threshold: float.optional(),
  debt_positions: idList,
  collaterals: idList,
});

export const liquidityUnderlying = z.looseObject({
  name: text,
  symbol: text,
  qty: float,
  total_supply: float,
  pct_ownership: float,
  details: liquidityDetails.nullable().optional().transform((v) => v ?? {}),
});

export const liquidityPosition = z.looseObject({
  asset_type: text,
  chain_id: text,
  protocol_id: text,
  cid: text,
  principal_token_name: text,
  principal_token_symbol: text,
  principal_qty: float,
  principal_total_supply: float,
  principal_pct_ownership: float,
  underlying: list(liquidityUnderlying),
});

export const liquiditySnapshot = snapshotOf(liquidityPosition);

export const transactionDetail = z.looseObject({
  token_cid: text,
  type: text,
  qty: float,
  symbol: text,
});

export const transaction = z.looseObject({
  wallet_id: text,
  txn_hash: requiredText,
  block: integer,
  from: text,
  to: text,
  from_type: text,
  to_type: text,
  txn_fee: float,
  gas_fee: float,
  action_type: text,
  method_hex: text,
  protocol_id: text,
  chain_id: text,
  date: datetime,
  details: list(transactionDetail),
  status: integer,
});

/**
 * A row of a transaction history: the hand-applied schema for the rows it accepts (the
 * schema's own output, without zod's cost per row), the schema itself for any other row.
 */
const transactionRow = z.unknown().transform((v, ctx): z.output<typeof transaction> => {
  const fast = fastTransaction(v);
  if (fast) return fast as z.output<typeof transaction>;
  const parsed = transaction.safeParse(v);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

export const transactionHistory = z.looseObject({
  transaction_history: z.array(transactionRow),
  start_block: integer,
  end_block: integer,
  completion_ratio: float,
});

// Topics' element type is not stated: strings kept, anything else kept as its JSON text.
const topic = z.unknown().transform((v) => (typeof v === 'string' ? v : JSON.stringify(v)));

export const log = z.looseObject({
  topics: list(topic),
  data: text,
  log_index: integer,
});

export const transactionLogs = z.looseObject({
  txn_hash: requiredText,
  block: integer,
  from: text,
  from_type: text,
  txn_fee: float,
  gas_fee: float,
  chain_id: text,
  date: datetime,
  logs: z.array(log),
});

/** The envelope once `status` is known to be OK. */
export const envelope = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    status: z.string(),
    data: z.array(item),
    message: text,
    total: integer.optional(),
  });

export type PositionSnapshot = z.output<typeof positionSnapshot>;
export type Position = z.output<typeof position>;
export type Underlying = z.output<typeof underlying>;
export type UnderlyingSnapshot = z.output<typeof underlyingSnapshot>;
export type UnderlyingGroup = z.output<typeof underlyingGroup>;
export type LiquiditySnapshot = z.output<typeof liquiditySnapshot>;
export type LiquidityPosition = z.output<typeof liquidityPosition>;
export type Transaction = z.output<typeof transaction>;
export type TransactionHistory = z.output<typeof transactionHistory>;
export type TransactionLogs = z.output<typeof transactionLogs>;
export type Log = z.output<typeof log>;
