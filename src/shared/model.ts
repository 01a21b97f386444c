/**
 * The data shapes that cross from the core to the shells and the renderer: what the
 * contract's operations return. Plain types, so the renderer can import them without
 * pulling in anything of the core.
 */
import type { Completeness } from './conventions.ts';
import type { CoreSaid } from './core-codes.ts';
import type { LiquiditySnapshot, Log, PositionSnapshot, TransactionLogs, UnderlyingSnapshot, ValueFlag } from './service/schemas.ts';
import type { LookalikeHit, PoisoningHit, SpamVerdict } from './spam.ts';
export type { ValueFlag };

export interface Wallet {
  /**
   * The record's version as read (core/store/versions.ts): send it back as `expectedVersion` with
   * an edit, which is refused if someone changed the record since. Given by the operations that
   * list or save it; absent elsewhere (an export, the user data file).
   */
  version?: number;
  address: string;
  label: string;
  tags: string[];
  chains: string[];
  createdAt: string;
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
  /**
   * Whether the service restated this transaction after it was first cached (the change log,
   * migration 15): indexed late inside a range already read, or changed (block, status, fee,
   * transfers). Null when it is as first seen.
   */
  restated: 'late' | 'changed' | null;
  /** The transaction's category (a manual choice wins over a rule's) and note; null when none. */
  category: TxnCategory | null;
  note: string | null;
  /** Who the two ends are (the timeline's page sets it; see TransactionParties). */
  parties?: TransactionParties;
  /**
   * The spam verdict and the poisoning guard's finding (the timeline's page sets it; docs/spam.md),
   * and an end of it that imitates a known counterparty (what the judge returns beside them; the
   * transaction's detail names it).
   */
  spam?: SpamVerdict & { poisoning: PoisoningHit | null; lookalike?: LookalikeHit | null };
}

/** What a category the user keeps is for: money in, money out, between own wallets, or any. */
export type CategoryKind = 'inflow' | 'outflow' | 'internal' | 'any';

/** One of the user's categories (annotations/store/annotations.ts); `used` counts the transactions in it. */
export interface Category {
  /**
   * The record's version as read (core/store/versions.ts): send it back as `expectedVersion` with
   * an edit, which is refused if someone changed the record since. Given by the operations that
   * list or save it; absent elsewhere (an export, the user data file).
   */
  version?: number;
  id: number;
  name: string;
  /** '#rrggbb', or null for the neutral colour. */
  colour: string | null;
  kind: CategoryKind;
  position: number;
  used: number;
}

/** A transaction's category as shown: its name and colour, and whether the user or a rule chose it. */
export interface TxnCategory {
  name: string;
  colour: string | null;
  source: 'manual' | 'rule';
}

/** The direction of a transaction for a rule: in, out, between two watched wallets, or to itself. */
export type TxnDirection = 'in' | 'out' | 'internal' | 'self';

/** A rule's conditions, all of which must hold (core/annotations/rules.ts); an absent one holds. */
export interface RuleConditions {
  /** The other side's address (either side for an internal or self transaction). */
  counterparties?: string[] | undefined;
  /** The other side's name in the address book (matched when a namer is given; see rules.ts). */
  counterpartyNames?: string[] | undefined;
  direction?: TxnDirection | undefined;
  /** Action types, as stored (swap) or as the screens show them (Swap): compared by `actionTypeKey`. */
  actionTypes?: string[] | undefined;
  /** Method ids (hex), compared in lower case. */
  methods?: string[] | undefined;
  /** A token symbol or token id that the transaction moved. */
  token?: string | undefined;
  /** The quantity of `token` the transaction moved (the sum over its transfers of it), inclusive. */
  minAmount?: number | undefined;
  maxAmount?: number | undefined;
  chains?: string[] | undefined;
  wallets?: string[] | undefined;
  /**
   * Which transactions by their status: absent, those that succeeded (status 1) only, since a
   * failed one moved nothing; `failed` those that failed (status 0); `any` every one, an unknown
   * status too.
   */
  status?: 'failed' | 'any' | undefined;
}

/** How many cached transactions a rule's conditions match (rules.preview), and what of them names nothing cached. */
export interface RulePreview {
  matches: number;
  sample: Array<{ wallet: string; chain: string; txnHash: string }>;
  /** The rule's action types that no cached transaction has, as written (a misspelling matches silently nothing). */
  unknownActionTypes: string[];
  /** Every cached transaction's action type, as stored, for saying what is known. */
  knownActionTypes: string[];
}

/** A rule that sets a category; rules are tried in `position` order and the first that matches wins. */
export interface CategoryRule {
  /**
   * The record's version as read (core/store/versions.ts): send it back as `expectedVersion` with
   * an edit, which is refused if someone changed the record since. Given by the operations that
   * list or save it; absent elsewhere (an export, the user data file).
   */
  version?: number;
  id: number;
  position: number;
  name: string;
  category: string;
  conditions: RuleConditions;
  createdAt: string;
}

/** A transaction's note and category (annotations/store/annotations.ts). */
export interface TxnAnnotation {
  /**
   * The record's version as read (core/store/versions.ts): send it back as `expectedVersion` with
   * an edit, which is refused if someone changed the record since. Given by the operations that
   * list or save it; absent elsewhere (an export, the user data file).
   */
  version?: number;
  wallet: string;
  chain: string;
  txnHash: string;
  note: string | null;
  /** The category shown: the manual one, else the rule's. */
  category: string | null;
  source: 'manual' | 'rule' | null;
  manualCategory: string | null;
  ruleCategory: string | null;
  ruleId: number | null;
  /** The transaction is no longer in the cache (the service removed it): the note is kept. */
  orphaned: boolean;
}

/**
 * The two ends of a transaction by name (the address book, watched wallets: CounterpartyName)
 * and what the other end is to the wallet: `internal` between two addresses of ours, `book` a
 * named counterparty, `unknown` no name. `toUnknown`: the wallet sent tokens in a plain transfer
 * (no protocol) to an address nobody named and not ours, the control flag an auditor asks about.
 */
export interface TransactionParties {
  from: CounterpartyName | null;
  to: CounterpartyName | null;
  kind: 'internal' | 'book' | 'unknown';
  toUnknown: boolean;
}

/** One entry of the change log of cached transactions (transactions/store/restatements.ts). */
export interface TransactionChange {
  wallet: string;
  chain: string;
  txnHash: string;
  /** Unix ms of the transaction. */
  time: number;
  kind: 'late' | 'changed' | 'removed';
  /** What changed (kind `changed`): time, block, status, txn_fee, gas_fee, details. */
  fields: string[] | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  seenAt: string;
  /** The request that showed it. */
  request: string;
  /** The user's note on the transaction (kept, orphaned, when it was removed); absent when none. */
  note?: string | null | undefined;
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

/** Provenance of a read: the dates it is as of and the span of fetch times behind it. */
export interface Freshness {
  asOf: string | null;
  oldestFetchedAt: string | null;
  newestFetchedAt: string | null;
}

export interface NavPoint {
  date: string;
  totalNav: number | null;
  principalNav: number | null;
  rewardNav: number | null;
  /** Chains whose snapshot for the date is cached, of those the wallet(s) watch. */
  chainsCached: number;
  chainsWatched: number;
  /** The watched (wallet, chain) pairs not cached at the date: a point with any is a partial total. */
  missing: Array<{ wallet: string; chain: string }>;
  fetchedAt: string;
  /** Values behind this point that the service sent unreadable (counted as absent in the sums). */
  flagged: number;
  /** Positions judged spam at the date (docs/spam.md): not in the NAV; what the service claimed they were worth. */
  spam: { count: number; claimed: number | null };
}

export interface NavSeries {
  wallet: string | null;
  points: NavPoint[];
  freshness: Freshness;
}

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
  /** null: the value was not sent, or unreadable, at a date where the position exists (the change is unknown). */
  principalChange: number | null;
  rewardChange: number | null;
}

export interface DateDiff {
  wallet: string;
  from: string;
  to: string;
  opened: PositionChange[];
  closed: PositionChange[];
  changed: PositionChange[];
  unchanged: number;
  /** Sums of the known changes (null when none is known); `unknownChanges` says how many were left out. */
  principalChange: number | null;
  rewardChange: number | null;
  totalChange: number | null;
  /** Positions whose principal or reward change is unknown: left out of the sums above, which are then incomplete. */
  unknownChanges: number;
  /** Chains compared (cached at both dates), and those left out for lack of a snapshot. */
  chains: string[];
  missing: Array<{ chain: string; date: string }>;
  freshness: { from: Freshness; to: Freshness };
}

export interface TokenExposure {
  tokenId: string;
  symbol: string | null;
  name: string | null;
  totalQty: number;
  totalNav: number;
  /** Each wallet's share of this token. */
  wallets: Array<{ wallet: string; chain: string; qty: number; nav: number }>;
  /** Set when the service sent this token's quantity or value unreadable somewhere: the figures are partial. */
  unreadable?: boolean;
}

export interface Exposure {
  date: string;
  tokens: TokenExposure[];
  totalNav: number;
  /** Watched (wallet, chain) pairs with no snapshot at the date. */
  missing: Array<{ wallet: string; chain: string }>;
  freshness: Freshness;
  /** Unreadable values in the responses behind it (left out). */
  flagged: number;
}

export type JobKind = 'positions' | 'backfill' | 'transactions' | 'export';

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/**
 * What a job is, by its parts, for a screen to name it in its own language (`label` says the same
 * in English, for the CLI): a wallet's name as the user gave it (or its address), dates ISO.
 */
export type JobTitle =
  | { kind: 'positions'; name: string; date: string | null }
  | { kind: 'history'; name: string; from: string; to: string; every: string }
  | { kind: 'transactions'; name: string }
  | { kind: 'pack-pdf'; from: string; to: string }
  | { kind: 'report-pdf'; date: string }
  | { kind: 'unlock-calendar'; date: string }
  | { kind: 'export-csv'; report: string }
  | { kind: 'close-bundle'; id: number; from: string; to: string }
  | { kind: 'user-data'; encrypted: boolean };

export interface JobInfo {
  id: string;
  kind: JobKind;
  label: string;
  /** The label's parts (absent on a job made before they were given). */
  title?: JobTitle;
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
  /** Transaction syncs: rows and pages read so far (rows also in `done`). */
  rows?: number;
  pages?: number;
  /** Rows (or units) per second over the job so far; null until there is enough to tell. */
  rate?: number | null;
  /**
   * Seconds left, estimated from how much of the requested time range the pages have covered
   * (pages come newest first); null while the service has not given enough to estimate (a
   * history from the epoch has no meaningful share covered, so it shows rows and rate only).
   */
  etaSeconds?: number | null;
  /**
   * Transaction syncs, once finished: the rows of the history already cached that the service
   * restated and this sync applied (the recent window's re-read, transactions/recent.ts; each a
   * row of the change log): added late, changed, removed. Summed over the job's chains.
   */
  restated?: { late: number; changed: number; removed: number } | null;
  /** An export's file, once written: where it is (desktop, CLI) or how to download it (web), and its CSV rows or PDF pages. */
  output?: { fileName: string; path: string | null; downloadId: string | null; rows?: number; pages?: number } | null;
  queuedAt: string;
  finishedAt: string | null;
}

/** An error as it may cross a process boundary or reach the UI: no stack, no secrets. */
export interface SerializedError {
  kind: string;
  message: string;
  retryable: boolean;
  field?: string;
  /** The message as a code and values (shared/core-codes.ts), when a screen may meet it: said in the screen's language. */
  said?: CoreSaid;
}

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
  /** The day the snapshot is filed under (see docs/service.md, snapshot dates). */
  asOf: string;
  /** The snapshot's date exactly as the service returned it (null for rows cached before it was kept). */
  serviceDate: string | null;
  /** Values the service sent that could not be read (null in `data`, marked in `_invalid`), and a date that names another day. */
  quality: ValueFlag[];
  requestId: string | null;
  fetchedAt: string;
  sha256: string;
  data: Array<SnapshotDataByEndpoint[E]>;
  totalNav: number | null;
  principalNav: number | null;
  rewardNav: number | null;
  positionCount: number;
}

/** One (wallet, chain, token) of a roll-forward: opening + inflow − outflow + unexplained = closing. */
export interface ReconcileRow {
  wallet: string;
  chain: string;
  /** The by-underlying view's token_id (null when only transfers name the token). */
  token_id: string | null;
  token_cid: string | null;
  token_symbol: string | null;
  token_name: string | null;
  /**
   * The quantities at the two dates: null ("—", never 0) when that date's positions are not
   * cached for the (wallet, chain); then every figure computed from it is null too.
   */
  opening_qty: number | null;
  inflow_qty: number;
  outflow_qty: number;
  closing_qty: number | null;
  unexplained_qty: number | null;
  /** |unexplained| ÷ (inflow + outflow); null when nothing moved or the remainder is unknown. */
  unexplained_share: number | null;
  /** The plain balance part (asset_type `wallet`): what transfers should explain exactly. */
  wallet_opening_qty: number | null;
  wallet_closing_qty: number | null;
  /** closing − opening − inflow + outflow of the plain balance alone. */
  wallet_unexplained_qty: number | null;
  /**
   * Net quantity the period's transactions moved from the plain balance into the wallet's own
   * protocol positions (a deposit opening one; negative: a withdrawal closing one, or a debt drawn):
   * neither inflow nor outflow, the token stays the wallet's (`moves`, docs/analytics.md).
   */
  moved_to_positions_qty: number | null;
  /**
   * Of the unexplained: the change of the token held in protocol positions (lending, pools,
   * staking, …) less what the period's transactions moved into them: accrual, rewards, price-driven moves.
   */
  position_change_qty: number | null;
  /** Successful transactions of the period that moved the token. */
  txn_count: number;
  /** reconciled: nothing unexplained; unexplained: a remainder; incomplete: the inputs are not all cached (see the problems). */
  status: 'reconciled' | 'unexplained' | 'incomplete';
}

export interface ReconcileProblem {
  wallet: string;
  chain: string;
  message: string;
}

export interface Reconciliation {
  wallets: string[];
  from: string;
  to: string;
  /** Unix ms: flows are the transactions with flowsFrom ≤ time < flowsTo (after `from`'s day, through `to`'s day). */
  flowsFrom: number;
  flowsTo: number;
  /** False when any input is missing: a date not cached, transactions not synced or not indexed, transfers that cannot be read. */
  complete: boolean;
  problems: ReconcileProblem[];
  rows: ReconcileRow[];
  /** Tokens judged spam (docs/spam.md), reconciled the same way but left out of `rows` and every figure read from them. */
  spam: ReconcileRow[];
  /** The transactions that opened or closed a position of the wallet in the period: moves between its balance and that position, not flows. */
  moves: PositionMove[];
}

/**
 * What a transfer moved between a wallet's plain balance and its own position: the principal in
 * (a deposit) or back out (a withdrawal), a debt drawn (the borrowed token arrives) or repaid.
 */
export type PositionMoveKind = 'moved_into_positions' | 'moved_out_of_positions' | 'debt_drawn' | 'debt_repaid';

/** A transaction that opened or closed one of the wallet's own protocol positions (docs/analytics.md). */
export interface PositionMove {
  wallet: string;
  chain: string;
  txn_hash: string;
  /** Unix ms. */
  time: number;
  kind: 'open' | 'close';
  protocol_id: string;
  position_cid: string;
  position_name: string | null;
  /** Every transfer of the transaction; `debt` when the position holds the token as a debt. */
  transfers: Array<{ token_cid: string; type: 'in' | 'out'; qty: number; debt: boolean; move: PositionMoveKind }>;
}

/** A transaction that moved a token in a reconciliation's period. */
export interface ReconcileTraceRow {
  txn_hash: string;
  time: number;
  action_type: string | null;
  protocol_id: string | null;
  direction: 'in' | 'out' | 'unknown';
  qty: number | null;
  /** A move between the wallet's balance and its own position (the transaction opened or closed it), not a flow; null for a flow. */
  move: { kind: PositionMoveKind; position: string | null } | null;
  /** The other end of the transaction: its address and, from the address book or a watched wallet's label, its name (set by the core's reconcile.trace). */
  counterparty?: { address: string | null; name: string | null; kind: 'internal' | 'book' | 'unknown' };
}

export interface LendingRisk {
  wallet: string;
  chain: string;
  protocolId: string | null;
  cid: string | null;
  name: string | null;
  collateralDebtRatio: number;
  liqThreshold: number;
  /** Collateral and debt legs: token, quantity, NAV (debt negative), share of the collateral's value. */
  collateral: Array<{ tokenId: string; symbol: string | null; qty: number | null; nav: number | null; share: number }>;
  debt: Array<{ tokenId: string; symbol: string | null; qty: number | null; nav: number | null }>;
  collateralNav: number | null;
  debtNav: number | null;
}

export interface RiskOverview {
  date: string;
  positions: LendingRisk[];
  /** Lending legs whose ratio or threshold is missing: their headroom is unknown. */
  unknown: Array<{ wallet: string; chain: string; name: string | null; reason: string }>;
  /** Watched (wallet, chain) pairs with no cached positions at the date. */
  missing: Array<{ wallet: string; chain: string }>;
}

export interface HealthPoint {
  date: string;
  collateralDebtRatio: number | null;
  liqThreshold: number | null;
}

export interface HealthHistory {
  wallet: string;
  chain: string;
  cid: string;
  name: string | null;
  points: HealthPoint[];
}

export interface UnlockRow {
  wallet: string;
  chain: string;
  protocolId: string | null;
  position: string | null;
  tokenId: string;
  symbol: string | null;
  unlockTime: string;
  qty: number | null;
  nav: number | null;
  votingPower: number | null;
}

export interface UnlockLadder {
  date: string;
  unlocks: UnlockRow[];
  missing: Array<{ wallet: string; chain: string }>;
}

/** A named set of watched wallets (an entity: a fund, a DAO, a desk) that scopes views and reports. */
export interface WalletGroup {
  /**
   * The record's version as read (core/store/versions.ts): send it back as `expectedVersion` with
   * an edit, which is refused if someone changed the record since. Given by the operations that
   * list or save it; absent elsewhere (an export, the user data file).
   */
  version?: number;
  id: number;
  name: string;
  wallets: string[];
}

/** One finding of the service check: what was learned or tested, and how it went. */
export interface ServiceCheckItem {
  /** Stable id (`reach`, `snapshot-date-form`, …; i12a's conventions add theirs). */
  id: string;
  label: string;
  /** What was found, in a few words. */
  value: string;
  /** The evidence: what was asked and what came back. */
  detail: string;
  status: 'ok' | 'note' | 'warning' | 'failed';
  /**
   * The evidence as a code and its values, for a screen in another language (renderer
   * lib/core-text.ts `checkEvidence`); `detail` is its English (the CLI's). Absent from a check
   * made by an older core, whose `detail` is shown as it is.
   */
  evidence?: CheckEvidence;
  /** The datetime forms the reading names (`datetimeForm`'s codes, or 'unreadable'), so a screen can name each in its language. */
  forms?: string[];
}

/**
 * A service check finding's evidence, by code. What the service sent (a date, a request ID, an
 * unreadable value, an error's own words) is a value, shown as sent.
 */
export type CheckEvidence =
  /** A request failed: the core's error message (the service client's sentences are said again by `coreError`). */
  | { code: 'error'; message: string }
  | { code: 'reached'; wallet: string; chain: string; positions: number; ms: number; requestId: string | null }
  | { code: 'noDateSent' }
  | { code: 'dateSent'; sent: string; assumedUtc: boolean }
  | { code: 'daysDiffer'; written: string; utc: string; requests: number; day: string | null }
  | { code: 'daysAgree' }
  | { code: 'askedNoDate'; asked: string }
  | { code: 'askedDated'; asked: string; got: string; written: string | null; utc: string | null; ok: boolean }
  | {
      code: 'floats';
      responses: number;
      numbers: number;
      strings: number;
      nulls: number;
      other: number;
      /** The first three unreadable values: in which response (the latest, or the day asked), where, and what was sent. */
      unreadable: Array<{ response: 'latest' | string; path: string; value: string }>;
      more: boolean;
    }
  | { code: 'firstDateSent'; sent: string; assumedUtc: boolean }
  | { code: 'noTransactions'; wallet: string; chain: string }
  /** A learned convention: its evidence (English, as learned; "not learned yet" is said again) and when. */
  | { code: 'convention'; evidence: string; learnedAt: string | null }
  /** An open anomaly: its detail (English, as recorded), where and when. */
  | { code: 'anomaly'; detail: string; wallet: string | null; chain: string | null; at: string };

/** What Folioscope learned about the connected service, and when. */
export interface ServiceCheck {
  baseUrl: string;
  mode: 'demo' | 'live';
  /** When the checks last ran; null when they never ran against this service. */
  checkedAt: string | null;
  /** The wallet and chain the probes asked about. */
  probe: { wallet: string; chain: string } | null;
  /** Requests the check made. */
  requests: number;
  items: ServiceCheckItem[];
}

/** When a schedule runs: every hour at a minute, every day at a time, or every week on a day at a time (in the settings' time zone). */
export type Cadence =
  { every: 'hour'; minute: number } | { every: 'day'; hour: number; minute: number } | { every: 'week'; weekday: number; hour: number; minute: number };

/** What a schedule covers: every watched wallet, one wallet, or a group's members (read when it runs). */
export type ScheduleScope = { kind: 'all' } | { kind: 'wallet'; address: string } | { kind: 'group'; id: number };

export interface Schedule {
  id: number;
  scope: ScheduleScope;
  /** Positions (the service's latest snapshot), transactions (new since the last sync), or both. */
  what: 'positions' | 'transactions' | 'both';
  cadence: Cadence;
  /** The zone its hour is in, its own (set when saved; the display setting does not move it). */
  zone: 'utc' | 'local';
  createdAt: string;
  /** Its newest edit (core/store/versions.ts), to send back as `expectedVersion`. */
  version?: number;
  /** The slot last run (a missed run catches up once, as this newest slot), and how it ended. */
  lastSlot: string | null;
  lastRun: { startedAt: string; finishedAt: string; state: 'ok' | 'incomplete' | 'failed'; note: string } | null;
  /** The slot it runs next: the one due now (in the past) if one is, else the next to come. */
  nextSlot: string;
}

/** One run of a schedule: its jobs as they finished. */
export interface ScheduleRun {
  schedule: number;
  slot: string;
  startedAt: string;
  finishedAt: string;
  state: 'ok' | 'incomplete' | 'failed';
  note: string;
  jobs: JobInfo[];
}

/** What `schedules.runDue` did: the runs, or why nothing ran (another process holds the lease). */
export interface DueRuns {
  runs: ScheduleRun[];
  skipped: string | null;
}

/** Why a backup of the cache was made (docs/data-format.md, "Backups"). */
export type BackupReason = 'scheduled' | 'manual' | 'before-migration';

/**
 * A backup of the cache in `<data folder>/backups`: the copy's file name and what its manifest
 * (`<name>.json`) recorded when it was made and checked. The access key is never in either.
 */
export interface BackupInfo {
  name: string;
  /** The cache file it is a copy of (demo.sqlite, live-….sqlite). */
  cache: string;
  createdAt: string;
  reason: BackupReason;
  bytes: number;
  schemaVersion: number;
  sha256: string;
  /** Rows of the main tables when it was made (wallets, groups, schedules, snapshots, transactions, …). */
  counts: Record<string, number>;
  /** Encrypted with the data folder's key (as the cache is when encryption at rest is on). */
  encrypted: boolean;
  /** What is wrong with it as listed (no manifest, an unreadable one); null when it reads. Listing never re-hashes: verify does. */
  problem: string | null;
}

/**
 * Encryption at rest of a data folder (`cache.encryption`, `folioscope cache status`): whether
 * its caches and backups are encrypted, and with what; never the key.
 */
export interface EncryptionStatus {
  /** The folder is encrypted: its encryption settings exist, and new caches are made encrypted. */
  on: boolean;
  /** Where the key is: the system keychain, or derived from a passphrase (scrypt). */
  keySource: 'keychain' | 'passphrase' | null;
  /** SQLite3 Multiple Ciphers' cipher (aegis: AEGIS-256, authenticated per page). */
  cipher: string | null;
  /** The passphrase's key derivation (scrypt's parameters), when the key comes from a passphrase. */
  kdf: { name: 'scrypt'; N: number; r: number; p: number } | null;
  /** The key's id (the first 16 hex digits of its check value): tells keys apart, says nothing of the key. */
  keyId: string | null;
  caches: Array<{ file: string; encrypted: boolean; bytes: number }>;
  backups: { encrypted: number; plain: number };
  /** Files a conversion left beside a cache (removed once that cache opens at its place). */
  leftovers: string[];
  /** Encrypted, but a cache or backup is still plain (a conversion stopped midway): encrypting again finishes it. */
  unfinished: boolean;
  /**
   * A change from one key to another stopped midway (encryption.json names the new key): every
   * file opens under one of the two, and the next start, given the new key, finishes it.
   */
  changing: boolean;
  /**
   * Whether the system keychain can keep a cache key here (the app's Settings asks it, to offer
   * a passphrase instead when it cannot); absent where it was not asked (the CLI's status).
   */
  keychainAvailable?: boolean;
}

/** How far a conversion of the data folder's files is: files (caches, backups, copies kept aside) and their bytes done, of all. */
export interface ConversionCount {
  done: number;
  files: number;
  doneBytes: number;
  bytes: number;
}

/**
 * The `cache.converting` event: a conversion of the data folder under way (encryption on, off, or
 * a change of key), told before its first file and as each is done, so a screen can show how far
 * it is; the last has `done` equal to `files`.
 */
export interface ConversionProgress extends ConversionCount {
  what: 'encrypt' | 'decrypt' | 'rekey';
}

/** `cache.locked`, `cache.unlock`: whether the data folder waits for its passphrase before its caches open. */
export interface CacheLockState {
  locked: boolean;
  /** The data folder (so the unlock screen can name the folder whose passphrase it asks for). */
  dataDir: string;
  /** A change of its passphrase stopped midway: the new passphrase opens it (and finishes the change). */
  changing?: boolean;
}

/** `backups.list`: this cache's backups, newest first, and how automatic backups are doing. */
export interface BackupList {
  folder: string;
  backups: BackupInfo[];
  /** The last automatic backup's failure (the app retries at its next check); null when none failed. */
  problem: string | null;
}

/** `backups.verify`: whether a backup can be restored, and if not, why. */
export interface BackupVerification {
  name: string;
  ok: boolean;
  problem: string | null;
  backup: BackupInfo | null;
}

/** `backups.restore`: what was restored, and where the cache it replaced was kept. */
export interface RestoreResult {
  restored: BackupInfo;
  keptAside: string;
}

/** How an item of an imported data file compares with what is here. */
export type ImportItemState = 'added' | 'changed' | 'unchanged' | 'conflict';

export interface ImportItem {
  /** `alert`: an alert rule (never a fired alert: those are not in the file); `close`: a closed period; `spam`: a spam verdict; `spam-list`: a spam list, by name. */
  kind: 'wallet' | 'group' | 'schedule' | 'alert' | 'setting' | 'counterparty' | 'close' | 'category' | 'rule' | 'note' | 'spam' | 'spam-list';
  /** The wallet's or the address-book entry's address, the group's name, the schedule or alert rule in words, the setting's name. */
  key: string;
  state: ImportItemState;
  /** What changes, or what conflicts (here … ; in the file …); empty when nothing does. */
  detail: string;
}

/** What importing a data file does (docs/data-format.md): item by item, and whether it was applied. */
export interface UserDataPreview {
  exportedAt: string;
  encrypted: boolean;
  items: ImportItem[];
  counts: Record<ImportItemState, number>;
  /** Conflicts are taken from the file (replace) or block the whole import. */
  replace: boolean;
  /** Nothing conflicts, or replace was asked: the import can be applied. */
  applicable: boolean;
  applied: boolean;
}

/**
 * An alert rule's condition (README, "Alerts"): a lending position's health below a figure, an
 * unlock within some days, NAV moving more than a percentage between the scope's two newest
 * fully cached dates, an outflow of a token above a quantity or to a counterparty the wallet
 * never dealt with, or a wallet's sync stale or incomplete for some hours.
 */
export type AlertCondition =
  | { kind: 'health'; below: number }
  | { kind: 'unlock'; withinDays: number }
  | { kind: 'nav-move'; percent: number }
  | { kind: 'outflow'; symbol: string; above: number }
  | { kind: 'new-counterparty' }
  | { kind: 'stale'; hours: number };
export type AlertKind = AlertCondition['kind'];
/**
 * What an alert is about: a rule's condition, or what the core watches without a rule (a closed
 * period whose data changed since its close, docs/closes.md; a payment to a lookalike address,
 * docs/spam.md).
 */
export type FiredAlertKind = AlertKind | 'closed-period-changed' | 'address-poisoning';

export interface AlertRule {
  id: number;
  /** The same shape as a schedule's: every watched wallet, one, or a group's members (read at each check). */
  scope: ScheduleScope;
  condition: AlertCondition;
  createdAt: string;
  /** Its newest edit (core/store/versions.ts), to send back as `expectedVersion`. */
  version?: number;
  /** The last check of the rule: when, and what it could or could not judge (e.g. partial NAV coverage). */
  /**
   * The last check: `note` in English (the CLI, logs); `facts`, what it found, for the UI to say
   * in its own language and number format (absent on checks recorded before them); `waiting`,
   * firings held back for the next checks.
   */
  lastCheck: { at: string; note: string; facts?: RuleCheckFacts; waiting?: number } | null;
}

/** What a rule's check found, as figures (ISO dates, plain numbers): the UI writes the sentence. */
export type RuleCheckFacts =
  | { kind: 'no-wallets' }
  | { kind: 'not-checked'; why: string }
  | { kind: 'outflows'; count: number; symbol: string; above: number }
  | { kind: 'new-counterparties'; count: number }
  /** `notCached` and `unreadable`: the wallet chains not judged, as "address|chain". */
  | { kind: 'positions'; what: 'health' | 'unlock'; checked: number; holds: number; notCached: string[]; unreadable: string[] }
  | { kind: 'nav-none' }
  | { kind: 'nav-partial'; date: string; cached: number; watched: number }
  | { kind: 'nav-one'; date: string }
  | { kind: 'nav-unknown'; from: string; to: string }
  | { kind: 'nav-move'; from: string; to: string; percent: number; skipped: number }
  | { kind: 'stale'; wallets: number; holds: number; hours: number };

/** One firing of a rule about one thing (a position, an unlock, a transaction, a wallet's sync, the scope's NAV). */
export interface Alert {
  id: number;
  /** Null once its rule was removed (the history stays), and for the kinds no rule fires (closed-period-changed). */
  ruleId: number | null;
  kind: FiredAlertKind;
  /** What it is about, as a key: one open alert per rule and subject. */
  subject: string;
  wallet: string | null;
  title: string;
  detail: string;
  /** The figures it fired on, from the cache only (JSON-safe). */
  facts: Record<string, string | number | boolean | null>;
  firedAt: string;
  /** When its condition cleared (it can fire again after). */
  resolvedAt: string | null;
  /** Why it was resolved, in words, when something other than its condition clearing took it back (the poisoning guard's alert: the lookalike vouched for, the payment no longer cached); else null. */
  resolution: string | null;
  acknowledgedAt: string | null;
  /** Out of the inbox's count until then. */
  snoozedUntil: string | null;
  /** The webhook's delivery, when one is set: sent (with the HTTP status) or failed (why). */
  delivery: { state: 'sent' | 'failed'; at: string; status: number | null; error: string | null } | null;
}

/** `alerts.inbox`: the alerts not acknowledged (and, when asked, the acknowledged ones), newest first, with the count that needs attention. */
export interface AlertInbox {
  alerts: Alert[];
  /** Not acknowledged and not snoozed. */
  unread: number;
}

/**
 * An entry of the address book (issue 28, docs/address-book.md): a name for an address on some
 * chains (none listed: every chain), with tags, an "ours" flag (an address the user controls
 * but does not watch) and a note. The address is stored as the transactions compare it (an EVM
 * address in lower case, any other exactly as written).
 */
export interface Counterparty {
  /**
   * The record's version as read (core/store/versions.ts): send it back as `expectedVersion` with
   * an edit, which is refused if someone changed the record since. Given by the operations that
   * list or save it; absent elsewhere (an export, the user data file).
   */
  version?: number;
  address: string;
  name: string;
  tags: string[];
  ours: boolean;
  /** The service's chain ids the name holds on; empty: every chain. */
  chains: string[];
  note: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * What an address is to the book, for a transaction's from or to: a watched wallet (ours, its
 * label as the name), an address-book entry, or neither (null).
 */
export interface CounterpartyName {
  name: string;
  ours: boolean;
  kind: 'book' | 'wallet';
}

/** One row of an address-book CSV and what importing it does (docs/address-book.md). */
export interface CounterpartyImportRow {
  /** The row's line number in the file (the header is line 1). */
  row: number;
  /** The address as it would be stored, or as written when it could not be read. */
  address: string;
  name: string;
  chains: string[];
  /**
   * add: a new entry; update: an entry whose tags, flag, chains or note change (or, with
   * replace, its name); same: nothing changes; merged: folded into an earlier row of the same
   * address and name (Safe's one row per chain); conflict: the book names it otherwise; error:
   * the row cannot be read (with why).
   */
  outcome: 'add' | 'update' | 'same' | 'merged' | 'conflict' | 'error';
  problem: string | null;
}

export interface CounterpartyImportPreview {
  format: 'folioscope' | 'safe';
  rows: CounterpartyImportRow[];
  counts: Record<CounterpartyImportRow['outcome'], number>;
  replace: boolean;
  /** No error and (unless replace) no conflict: applying writes every row, in one transaction. */
  applicable: boolean;
  applied: boolean;
}

/** One row of a wallets CSV as an import would take it (docs/wallet-import.md). */
export interface WalletImportRow {
  /** The row's line number in the file (the header is line 1). */
  row: number;
  /** The address as it would be stored, or as written when it could not be read. */
  address: string;
  label: string;
  chains: string[];
  /** The groups the row puts the wallet in (added to their members). */
  groups: string[];
  /**
   * add: a wallet to watch; update: a watched wallet whose label, tags or chains change, or that
   * joins a group; same: nothing changes; merged: folded into an earlier row of the same address
   * (Safe's one row per chain); skipped: an address-book entry that is not "ours"; conflict: the
   * wallet is watched under another label (or an earlier row labels it otherwise); error: the
   * row cannot be read (with why).
   */
  outcome: 'add' | 'update' | 'same' | 'merged' | 'skipped' | 'conflict' | 'error';
  problem: string | null;
  /** The problem as a code and values (shared/core-codes.ts), for a screen in another language; `problem` is its English. */
  problemSaid?: CoreSaid;
}

/** What importing a wallets CSV does, row by row; applied (all rows in one transaction) or not at all. */
export interface WalletImportPreview {
  format: 'folioscope' | 'safe' | 'address-book';
  rows: WalletImportRow[];
  counts: Record<WalletImportRow['outcome'], number>;
  replace: boolean;
  /** No error and (unless replace) no conflict: applying writes every row, in one transaction. */
  applicable: boolean;
  applied: boolean;
}

/** The watched wallets as a CSV (docs/wallet-import.md), the text and how many wallets it holds. */
export interface WalletExport {
  csv: string;
  count: number;
}

/** The address book as a CSV (docs/address-book.md), the text and how many entries it holds. */
export interface CounterpartyExport {
  csv: string;
  count: number;
}

/** What an edit did to its item (the audit trail, migration 16). */
/** prepare, approve, reject: a period's close prepared, then approved or rejected by another person (docs/closes.md). */
export type AuditAction = 'create' | 'update' | 'delete' | 'close' | 'reopen' | 'prepare' | 'approve' | 'reject';

/** One edit the user made to their own data: the item before and after, when, and by which operation. */
export interface AuditEntry {
  id: number;
  at: string;
  /** wallet, group, setting, schedule, alert-rule, counterparty, note, category, rule, period, spam-verdict, spam-list */
  entity: string;
  /** Which one: an address, a group's name, a setting's key, a rule's id … */
  key: string;
  action: AuditAction;
  before: unknown;
  after: unknown;
  reason: string | null;
  /** The operation that made it (e.g. wallets.update, userData.import). */
  origin: string;
  /**
   * Who made it: on a desktop the operating system's account at the machine
   * (`alice@treasury-laptop`). Null for an edit recorded before the trail named people.
   */
  person: string | null;
  /** Through what: the app's window, the web shell, the command line, a scheduled run (null: before the trail said). */
  via: 'app' | 'web' | 'cli' | 'schedule' | null;
}
