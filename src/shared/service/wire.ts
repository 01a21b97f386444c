/**
 * The service's resources exactly as service-spec.md part 2 types them: what the
 * reference service sends. `datetime` is serialised as ISO 8601 UTC by the simulator;
 * the client accepts more (see src/shared/service/normalize.ts).
 */
export type WireDatetime = string;

export interface Envelope<T> {
  status: string;
  data: T[];
  message: string;
  total?: number;
}

export interface UnderlyingDetails {
  is_reward?: boolean;
  type?: string;
  debt_positions?: string[];
  collateral?: string[];
  liq_threshold?: number;
  collateral_debt_ratio?: number;
  unlock_time?: WireDatetime;
  voting_power?: number;
  exchange_rate?: number;
}

export interface Underlying {
  internal_id: string;
  name: string;
  symbol: string;
  qty: number;
  nav: number;
  details: UnderlyingDetails;
}

export interface Position {
  asset_type: string;
  chain_id: string;
  protocol_id: string;
  cid: string;
  name: string;
  symbol: string;
  principal_nav: number;
  reward_nav: number;
  underlying: Underlying[];
}

export interface PositionSnapshot {
  wallet_id: string;
  date: WireDatetime;
  positions: Position[];
}

export interface BreakdownEntry {
  chain_id: string;
  pos_id: string;
  asset_type: string;
  cid: string;
  protocol_id: string;
  name: string;
  qty: number;
  nav: number;
}

export interface UnderlyingGroup {
  token_id: string;
  token_name: string;
  token_symbol: string;
  token_cid: string;
  total_qty: number;
  total_nav: number;
  breakdown: BreakdownEntry[];
}

export interface UnderlyingSnapshot {
  wallet_id: string;
  date: WireDatetime;
  positions: UnderlyingGroup[];
}

export interface LiquidityDetails {
  is_reward?: boolean;
  slippage?: number;
  unlocked_time?: WireDatetime;
  exchange_rate?: number;
  voting_power?: number;
  liq_threshold?: number;
  debt_positions?: string[];
  collaterals?: string[];
}

export interface LiquidityUnderlying {
  name: string;
  symbol: string;
  qty: number;
  total_supply: number;
  pct_ownership: number;
  details: LiquidityDetails;
}

export interface LiquidityPosition {
  asset_type: string;
  chain_id: string;
  protocol_id: string;
  cid: string;
  principal_token_name: string;
  principal_token_symbol: string;
  principal_qty: number;
  principal_total_supply: number;
  principal_pct_ownership: number;
  underlying: LiquidityUnderlying[];
}

export interface LiquiditySnapshot {
  wallet_id: string;
  date: WireDatetime;
  positions: LiquidityPosition[];
}

export interface TransactionDetail {
  token_cid: string;
  type: string;
  qty: number;
  symbol: string;
}

export interface Transaction {
  wallet_id: string;
  txn_hash: string;
  block: number;
  from: string;
  to: string;
  from_type: string;
  to_type: string;
  txn_fee: number;
  gas_fee: number;
  action_type: string;
  method_hex: string;
  protocol_id: string;
  chain_id: string;
  date: WireDatetime;
  details: TransactionDetail[];
  status: number;
}

export interface TransactionHistory {
  transaction_history: Transaction[];
  start_block: number;
  end_block: number;
  completion_ratio: number;
}

export interface Log {
  topics: string[];
  data: string;
  log_index: number;
}

export interface TransactionLogs {
  txn_hash: string;
  block: number;
  from: string;
  from_type: string;
  txn_fee: number;
  gas_fee: number;
  chain_id: string;
  date: WireDatetime;
  logs: Log[];
}
