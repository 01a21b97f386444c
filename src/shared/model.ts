/**
 * The data shapes that cross from the core to the shells and the renderer: what the
 * contract's operations return. Plain types, so the renderer can import them without
 * pulling in anything of the core.
 */
import type { Completeness } from './conventions.ts';
import type { LiquiditySnapshot, Log, PositionSnapshot, TransactionLogs, UnderlyingSnapshot } from './service/schemas.ts';

// --- from core/store/wallets.ts

export interface Wallet {
  address: string;
  label: string;
  tags: string[];
  chains: string[];
  createdAt: string;
}

export interface WalletInput {
  address: string;
  chains: readonly string[];
  label?: string;
  tags?: readonly string[];
}

// --- from core/store/queries/timeline.ts

export interface TimelineFilter {
  /** One wallet, or every watched wallet when omitted. */
  wallet?: string;
  chains?: string[];
  actionTypes?: string[];
  protocols?: string[];
  /** Token symbols moved by the transaction. */
  tokens?: string[];
  statuses?: number[];
  /** YYYY-MM-DD, inclusive, UTC. */
  from?: string;
  to?: string;
  /** A transaction hash or an address, or the start of one. */
  search?: string;
}

export interface TimelineQuery extends TimelineFilter {
  limit?: number;
  /** From the previous page's `nextCursor`; omitted for the newest page. */
  cursor?: string | null;
}

export interface TransferDetail {
  token_cid: string | null;
  type: string | null;
  qty: number | null;
  symbol: string | null;
}

export interface TimelineRow {
  id: number;
  wallet: string;
  chain: string;
  txnHash: string;
  date: string | null;
  block: number | null;
  from: string | null;
  to: string | null;
  fromType: string | null;
  toType: string | null;
  txnFee: number | null;
  gasFee: number | null;
  actionType: string | null;
  methodHex: string | null;
  protocolId: string | null;
  status: number | null;
  details: TransferDetail[];
}

export interface TimelinePage {
  rows: TimelineRow[];
  nextCursor: string | null;
  /** When the transactions in scope were last synced, and whether any range is still being indexed. */
  syncedAt: string | null;
  incomplete: boolean;
  /** A sync of these transactions was interrupted; the next one resumes it. */
  interrupted: boolean;
  /** Why the transactions in scope are not complete, one line each (empty when complete). */
  incompleteReasons: string[];
}

// --- from core/store/queries/latest.ts

/** Provenance of a read: the dates it is as of and the span of fetch times behind it. */
export interface Freshness {
  asOf: string | null;
  oldestFetchedAt: string | null;
  newestFetchedAt: string | null;
}

// --- from core/store/queries/nav.ts

export interface NavPoint {
  date: string;
  totalNav: number | null;
  principalNav: number | null;
  rewardNav: number | null;
  /** Chains whose snapshot for the date is cached, of those the wallet(s) watch. */
  chainsCached: number;
  chainsWatched: number;
  fetchedAt: string;
}

export interface NavSeries {
  wallet: string | null;
  points: NavPoint[];
  freshness: Freshness;
}

// --- from core/store/queries/diff.ts

export interface PositionSide {
  name: string | null;
  symbol: string | null;
  principalNav: number | null;
  rewardNav: number | null;
}

export interface PositionChange {
  key: string;
  chain: string;
  cid: string | null;
  assetType: string | null;
  protocolId: string | null;
  before: PositionSide | null;
  after: PositionSide | null;
  principalChange: number;
  rewardChange: number;
}

export interface DateDiff {
  wallet: string;
  from: string;
  to: string;
  opened: PositionChange[];
  closed: PositionChange[];
  changed: PositionChange[];
  unchanged: number;
  principalChange: number;
  rewardChange: number;
  totalChange: number;
  /** Chains compared (cached at both dates), and those left out for lack of a snapshot. */
  chains: string[];
  missing: Array<{ chain: string; date: string }>;
  freshness: { from: Freshness; to: Freshness };
}

// --- from core/store/queries/exposure.ts

export interface TokenExposure {
  tokenId: string;
  symbol: string | null;
  name: string | null;
  totalQty: number;
  totalNav: number;
  /** Each wallet's share of this token. */
  wallets: Array<{ wallet: string; chain: string; qty: number; nav: number }>;
}

export interface Exposure {
  date: string;
  tokens: TokenExposure[];
  totalNav: number;
  /** Watched (wallet, chain) pairs with no snapshot at the date. */
  missing: Array<{ wallet: string; chain: string }>;
  freshness: Freshness;
}

// --- from core/sync/queue.ts

export type JobKind = 'positions' | 'backfill' | 'transactions' | 'logs' | 'wallet' | 'export';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobInfo {
  id: string;
  kind: JobKind;
  label: string;
  /** The wallet the job works on, if one. */
  wallet: string | null;
  state: JobState;
  phase: string;
  done: number;
  /** Null while the amount of work is not known (transactions are read until a short page). */
  total: number | null;
  error: SerializedError | null;
  /** How complete what the job fetched is (set when it finishes; absent: not judged). */
  completeness?: Completeness | null;
  /** An export's file, once written: where it is (desktop) or how to download it (web). */
  output?: { fileName: string; path: string | null; downloadId: string | null } | null;
  queuedAt: string;
  finishedAt: string | null;
}

// --- from core/util/errors.ts

/** An error as it may cross a process boundary or reach the UI: no stack, no secrets. */
export interface SerializedError {
  kind: string;
  message: string;
  retryable: boolean;
  field?: string;
}

// --- from core/secrets/secrets.ts

/**
 * Where the access key lives, per base URL: the OS keychain; or, when the keychain is
 * unavailable and the user agrees, this process's memory for the session only. Never a
 * file, never the cache, never the renderer: the renderer can set a key and learn whether
 * one is set, not read it back. FOLIOSCOPE_ACCESS_KEY overrides both (CLI, headless).
 */
export type KeySource = 'environment' | 'keychain' | 'session' | 'none';

export interface KeyStatus {
  set: boolean;
  source: KeySource;
  keychainAvailable: boolean;
  /** Why the keychain is unavailable, and what to do; null when it works. */
  keychainProblem: string | null;
}

// --- from core/store/logs.ts

export interface LogSet {
  chain: string;
  txnHash: string;
  total: number;
  header: Omit<TransactionLogs, 'logs'> | null;
  logs: Log[];
  requestId: string | null;
  fetchedAt: string;
  /** False when the read could not be proved whole (the count differs from `total`); `note` says why. */
  complete: boolean;
  note: string | null;
}

// --- from core/store/snapshots.ts

export type SnapshotEndpoint = 'allPositions' | 'positionsByUnderlying' | 'liquidityAnalysis';

export interface SnapshotDataByEndpoint {
  allPositions: PositionSnapshot;
  positionsByUnderlying: UnderlyingSnapshot;
  liquidityAnalysis: LiquiditySnapshot;
}

export interface StoredSnapshot<E extends SnapshotEndpoint = SnapshotEndpoint> {
  id: number;
  endpoint: E;
  wallet: string;
  chain: string;
  requestedDate: string | null;
  asOf: string;
  requestId: string | null;
  fetchedAt: string;
  sha256: string;
  data: Array<SnapshotDataByEndpoint[E]>;
  totalNav: number | null;
  principalNav: number | null;
  rewardNav: number | null;
  positionCount: number;
}

// --- from core/sync/positions.ts

export type Step = 'day' | 'week' | 'month';

