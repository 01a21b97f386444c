/**
 * What the client has learned about how the connected service reads the spec's open points
 * (docs/service.md), as the core stores it and the shells show it (Settings, `folioscope
 * doctor`). Plain types and labels: the renderer may import this.
 */

/** The open points the client learns. i12b adds the datetime and value readings. */
export type ConventionKey =
  'pageBase' | 'pageSizeCap' | 'pageSizeMax' | 'timeUnit' | 'bounds' | 'order' | 'pastEnd' | 'pagingWorks' | 'logsTotal' | 'logIndex' | 'logsPageCap';

export interface LearnedConventions {
  /** `page` of the first page. */
  pageBase: 0 | 1;
  /** The largest transactions page the service serves; `capProven`: seen cut at exactly this. */
  pageSizeCap: number;
  capProven: boolean;
  /** The largest `pageSize` the service accepts (a larger one is refused), for both endpoints. */
  pageSizeMax: number;
  timeUnit: 's' | 'ms';
  /** `unknown`: not proven inclusive, so the client widens every range by one unit each side. */
  bounds: 'inclusive' | 'half-open' | 'exclusive' | 'unknown';
  order: 'newest-first' | 'oldest-first' | 'unordered' | 'unknown';
  pastEnd: 'empty' | 'repeat-last' | 'unknown';
  /** Whether page 2 differs from page 1 (false: the service ignores `page`). */
  pagingWorks: boolean | null;
  logsTotal: 'logs' | 'pages' | 'unknown';
  logIndex: 'global' | 'per-page' | 'unknown';
  logsPageCap: number | null;
}

/**
 * The recent window every transaction sync reads again (transactions/recent.ts; docs/service.md, "The
 * recent window"): this wide unless learned wider or set wider, in seconds.
 */
export const RECENT_WINDOW_S = 24 * 3600;
/** The widest the recent window is learned to be (30 days): every sync re-reads that much of every wallet. */
export const RECENT_WINDOW_MAX_LEARNED_S = 30 * 86_400;

/** The client's first reading, used until something is learned. */
export const ASSUMED_CONVENTIONS: Readonly<LearnedConventions> = Object.freeze({
  pageBase: 1,
  pageSizeCap: 1000,
  capProven: false,
  pageSizeMax: 1000,
  timeUnit: 's',
  bounds: 'unknown',
  order: 'unknown',
  pastEnd: 'unknown',
  pagingWorks: null,
  logsTotal: 'unknown',
  logIndex: 'unknown',
  logsPageCap: null,
});

export interface ConventionPoint {
  key: ConventionKey | string;
  /** Short label for the open point, e.g. "Page numbering". */
  label: string;
  /** The reading in use, shown as text (e.g. "1-based", "milliseconds", "unknown"). */
  value: string;
  /** How it was learned, or why it could not be ("page 0 answered 400", "no wallet with history yet"). */
  evidence: string;
  /** learned: proven by a request; assumed: the default, not proven; unknown: the client cannot tell. */
  status: 'learned' | 'assumed' | 'unknown';
  learnedAt: string | null;
}

export interface ServiceAnomaly {
  id: number;
  kind: 'rows-outside-range' | 'empty-history-with-positions' | 'logs-count-mismatch' | 'repeated-page' | 'short-page' | 'learning-failed' | string;
  wallet: string | null;
  chain: string | null;
  detail: string;
  at: string;
  /** Set when re-learning explained it (or a later read came out right). */
  resolvedAt: string | null;
}

export interface ConventionsReport {
  /** When the transaction conventions were last learned; null: never. */
  learnedAt: string | null;
  points: ConventionPoint[];
  /** Unresolved anomalies first. */
  anomalies: ServiceAnomaly[];
  /** Requests spent by the last learning run. */
  requests: number;
}

/** Completeness of a result, as every shell says it. */
export interface Completeness {
  state: 'complete' | 'incomplete' | 'failed';
  /** Why it is not complete, one line each; empty when complete. */
  reasons: string[];
  /** What the user can do about it. */
  action: string | null;
  /**
   * An export's figures themselves are partial (a member's positions not cached at its date, a
   * roll-forward or a NAV date that lacks one), not only its transactions' period unproved: the
   * CLI then exits 3 (README, "Command line").
   */
  partial?: boolean;
}
