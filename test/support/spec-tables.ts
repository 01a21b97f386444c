/**
 * service-spec.md part 2, transcribed table by table: the shape the reference service
 * must send. `datetime` is checked as the simulator's ISO 8601 UTC form.
 */
export type FieldType = 'string' | 'float' | 'integer' | 'boolean' | 'datetime' | 'string[]' | 'unknown[]' | Table | [Table];
export interface Table {
  [field: string]: FieldType;
}

export const UNDERLYING_DETAILS: Table = {
  is_reward: 'boolean',
  type: 'string',
  debt_positions: 'string[]',
  collateral: 'string[]',
  liq_threshold: 'float',
  collateral_debt_ratio: 'float',
  unlock_time: 'datetime',
  voting_power: 'float',
  exchange_rate: 'float',
};
export const UNDERLYING: Table = { internal_id: 'string', name: 'string', symbol: 'string', qty: 'float', nav: 'float', details: UNDERLYING_DETAILS };
export const POSITION: Table = {
  asset_type: 'string',
  chain_id: 'string',
  protocol_id: 'string',
  cid: 'string',
  name: 'string',
  symbol: 'string',
  principal_nav: 'float',
  reward_nav: 'float',
  underlying: [UNDERLYING],
};
export const POSITION_SNAPSHOT: Table = { wallet_id: 'string', date: 'datetime', positions: [POSITION] };

export const BREAKDOWN_ENTRY: Table = {
  chain_id: 'string',
  pos_id: 'string',
  asset_type: 'string',
  cid: 'string',
  protocol_id: 'string',
  name: 'string',
  qty: 'float',
  nav: 'float',
};
export const UNDERLYING_GROUP: Table = {
  token_id: 'string',
  token_name: 'string',
  token_symbol: 'string',
  token_cid: 'string',
  total_qty: 'float',
  total_nav: 'float',
  breakdown: [BREAKDOWN_ENTRY],
};
export const UNDERLYING_SNAPSHOT: Table = { wallet_id: 'string', date: 'datetime', positions: [UNDERLYING_GROUP] };

export const LIQUIDITY_DETAILS: Table = {
  is_reward: 'boolean',
  slippage: 'float',
  unlocked_time: 'datetime',
  exchange_rate: 'float',
  voting_power: 'float',
  liq_threshold: 'float',
  debt_positions: 'string[]',
  collaterals: 'string[]',
};
export const LIQUIDITY_UNDERLYING: Table = {
  name: 'string',
  symbol: 'string',
  qty: 'float',
  total_supply: 'float',
  pct_ownership: 'float',
  details: LIQUIDITY_DETAILS,
};
export const LIQUIDITY_POSITION: Table = {
  asset_type: 'string',
  chain_id: 'string',
  protocol_id: 'string',
  cid: 'string',
  principal_token_name: 'string',
  principal_token_symbol: 'string',
  principal_qty: 'float',
  principal_total_supply: 'float',
  principal_pct_ownership: 'float',
  underlying: [LIQUIDITY_UNDERLYING],
};
export const LIQUIDITY_SNAPSHOT: Table = { wallet_id: 'string', date: 'datetime', positions: [LIQUIDITY_POSITION] };

export const TRANSACTION_DETAIL: Table = { token_cid: 'string', type: 'string', qty: 'float', symbol: 'string' };
export const TRANSACTION: Table = {
  wallet_id: 'string',
  txn_hash: 'string',
  block: 'integer',
  from: 'string',
  to: 'string',
  from_type: 'string',
  to_type: 'string',
  txn_fee: 'float',
  gas_fee: 'float',
  action_type: 'string',
  method_hex: 'string',
  protocol_id: 'string',
  chain_id: 'string',
  date: 'datetime',
  details: [TRANSACTION_DETAIL],
  status: 'integer',
};
export const TRANSACTION_HISTORY: Table = { transaction_history: [TRANSACTION], start_block: 'integer', end_block: 'integer', completion_ratio: 'float' };

export const LOG: Table = { topics: 'unknown[]', data: 'string', log_index: 'integer' };
export const TRANSACTION_LOGS: Table = {
  txn_hash: 'string',
  block: 'integer',
  from: 'string',
  from_type: 'string',
  txn_fee: 'float',
  gas_fee: 'float',
  chain_id: 'string',
  date: 'datetime',
  logs: [LOG],
};

/** Tables whose members vary with asset_type: each member is optional, but typed. */
export const OPTIONAL_MEMBERS = new Set<Table>([UNDERLYING_DETAILS, LIQUIDITY_DETAILS]);

/**
 * Problems of `value` against `table`: missing members, members the spec does not list,
 * and members of the wrong type, each with its JSON path. Empty means conformant.
 */
export function conformance(value: unknown, table: Table, path = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path || '(root)'}: expected an object`];
  const problems: string[] = [];
  const obj = value as Record<string, unknown>;
  for (const [field, type] of Object.entries(table)) {
    const p = path ? `${path}.${field}` : field;
    if (!(field in obj)) {
      if (!OPTIONAL_MEMBERS.has(table)) problems.push(`${p}: missing`);
      continue;
    }
    problems.push(...checkType(obj[field], type, p));
  }
  for (const field of Object.keys(obj)) if (!(field in table)) problems.push(`${path ? `${path}.` : ''}${field}: not in the spec`);
  return problems;
}

function checkType(v: unknown, type: FieldType, p: string): string[] {
  if (Array.isArray(type)) {
    if (!Array.isArray(v)) return [`${p}: expected an array`];
    return v.flatMap((item, i) => conformance(item, type[0], `${p}[${i}]`));
  }
  if (typeof type === 'object') return conformance(v, type, p);
  const ok = {
    string: () => typeof v === 'string',
    float: () => typeof v === 'number' && Number.isFinite(v),
    integer: () => Number.isInteger(v),
    boolean: () => typeof v === 'boolean',
    datetime: () => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v)),
    'string[]': () => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    'unknown[]': () => Array.isArray(v),
  }[type]();
  return ok ? [] : [`${p}: expected ${type}, got ${JSON.stringify(v)}`];
}
