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

/** Marks an issue as one bad value that may be nulled and flagged rather than failing the body. */
export const BAD_VALUE = 'folioscope.badValue';

function normalised<T>(convert: (v: unknown) => T | undefined, expected: string, recoverable = false) {
  // A missing member reads as null (zod treats a bare transform of `any` as required).
  return z
    .preprocess((v) => v ?? null, z.any())
    .transform((v, ctx) => {
      const out = convert(v);
      if (out === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `expected ${expected}, got ${describeValue(v)}`,
          ...(recoverable && { params: { [BAD_VALUE]: describeValue(v) } }),
        });
        return z.NEVER;
      }
      return out;
    });
}

/** A short, printable account of a bad value (JSON.stringify turns Infinity into null). */
export function describeValue(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity (out of range)' : '-Infinity (out of range)';
  return (JSON.stringify(v) ?? String(v)).slice(0, 40);
}

/**
 * A float member: a bad value (NaN, Infinity, a number too large for a double, text) is a
 * recoverable issue: the parser nulls that member and records it in the object's
 * `_invalid` map ({member: what the service sent}), so one bad value never discards the
 * rest of a snapshot and never passes as a number.
 */
const float = normalised(toFloat, 'a number or numeric string', true);
/** Every float member of the responses (for the service check's count of how floats are written). */
export const FLOAT_MEMBERS: ReadonlySet<string> = new Set([
  'principal_nav',
  'reward_nav',
  'qty',
  'nav',
  'liq_threshold',
  'collateral_debt_ratio',
  'voting_power',
  'exchange_rate',
  'total_qty',
  'total_nav',
  'principal_qty',
  'principal_total_supply',
  'principal_pct_ownership',
  'total_supply',
  'pct_ownership',
  'slippage',
  'txn_fee',
  'gas_fee',
  'completion_ratio',
]);
/**
 * Members whose values are data — ids, hashes, addresses, codes, dates, numbers — rather than
 * free text (names, symbols, the envelope's status and message, members the spec does not
 * list). Folioscope never rewrites one: a response where one holds the access key fails.
 */
export const DATA_MEMBERS: ReadonlySet<string> = new Set([
  ...FLOAT_MEMBERS,
  'wallet_id',
  'date',
  'internal_id',
  'type',
  'is_reward',
  'debt_positions',
  'collateral',
  'collaterals',
  'unlock_time',
  'unlocked_time',
  'asset_type',
  'chain_id',
  'protocol_id',
  'cid',
  'pos_id',
  'token_id',
  'token_cid',
  'txn_hash',
  'block',
  'from',
  'to',
  'from_type',
  'to_type',
  'action_type',
  'method_hex',
  'status',
  'topics',
  'data',
  'log_index',
  'start_block',
  'end_block',
  'total',
]);
/** Members of an object whose value was unreadable and is null: what the service sent, by member name. */
const invalid = z.record(z.string(), z.string()).optional();
const integer = normalised(toInteger, 'an integer');
const datetime = normalised(toIsoDatetime, 'a datetime');
// A snapshot's own date that cannot be read is flagged, not fatal: the day asked files it.
const snapshotDate = normalised(toIsoDatetime, 'a datetime', true);
const bool = normalised(toBoolean, 'a boolean');
const text = z
  .string()
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const requiredText = z.string().min(1);
const idList = z.array(z.string()).optional();
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullable()
    .optional()
    .transform((v) => v ?? []);

// Details members vary with asset_type: absent stays absent.
export const underlyingDetails = z.looseObject({
  _invalid: invalid,
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
  _invalid: invalid,
  internal_id: requiredText,
  name: text,
  symbol: text,
  qty: float,
  nav: float,
  details: underlyingDetails
    .nullable()
    .optional()
    .transform((v) => v ?? {}),
});

export const position = z.looseObject({
  _invalid: invalid,
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

// `service_date` keeps the service's date exactly as sent (a number as its digits): the
// normalised `date` is UTC, and the day a snapshot is for depends on how the service wrote it.
// Set on the parsed JSON itself, once: a second parse (after nulling bad values) keeps what was sent.
const keepServiceDate = (v: unknown) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as { date?: unknown; service_date?: unknown };
  if (!('service_date' in o)) o.service_date = o.date == null ? null : String(o.date);
  return o;
};
const snapshotOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(keepServiceDate, z.looseObject({ wallet_id: text, date: snapshotDate, service_date: z.string().nullable(), positions: z.array(item) }));

export const positionSnapshot = snapshotOf(position);

export const breakdownEntry = z.looseObject({
  _invalid: invalid,
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
  _invalid: invalid,
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
  _invalid: invalid,
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
  _invalid: invalid,
  name: text,
  symbol: text,
  qty: float,
  total_supply: float,
  pct_ownership: float,
  details: liquidityDetails
    .nullable()
    .optional()
    .transform((v) => v ?? {}),
});

export const liquidityPosition = z.looseObject({
  _invalid: invalid,
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

/** One value the service sent that could not be read: where (a JSON path) and what it was. */
export interface ValueFlag {
  path: string;
  value: string;
}

/** `["data", 0, "positions", 3, "nav"]` → `data[0].positions[3].nav`. */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
}

/**
 * When every issue of a failed parse is a recoverable bad value, nulls those members in the
 * parsed JSON (in place), records each in its object's `_invalid` map, and returns the flags;
 * the caller parses again. Returns null when any issue is of another kind (a wrong shape, a
 * missing identity member): that body stays a bad response.
 */
export function recoverBadValues(
  json: unknown,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; params?: Record<string, unknown> | undefined }>,
): ValueFlag[] | null {
  if (!issues.length || !issues.every((i) => typeof i.params?.[BAD_VALUE] === 'string')) return null;
  const flags: ValueFlag[] = [];
  for (const issue of issues) {
    const member = issue.path.at(-1);
    let parent: unknown = json;
    for (const part of issue.path.slice(0, -1)) parent = (parent as Record<PropertyKey, unknown> | null)?.[part];
    if (typeof member !== 'string' || parent === null || typeof parent !== 'object' || Array.isArray(parent)) return null;
    const obj = parent as Record<string, unknown>;
    const value = issue.params![BAD_VALUE] as string;
    obj[member] = null;
    obj['_invalid'] = { ...(obj['_invalid'] as Record<string, string> | undefined), [member]: value };
    flags.push({ path: jsonPath(issue.path), value });
  }
  return flags;
}
