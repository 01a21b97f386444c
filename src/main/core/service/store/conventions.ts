/**
 * What the client learned about the service's reading of the open points: one row per point
 * in `service_conventions` (each cache file belongs to one service, so no service column),
 * and the anomalies that make it doubt what it learned.
 */
import { conventionEvidence } from '../../../../shared/convention-evidence.ts';
import {
  ASSUMED_CONVENTIONS,
  RECENT_WINDOW_S,
  type ConventionKey,
  type ConventionPoint,
  type ConventionsReport,
  type LearnedConventions,
  type ServiceAnomaly,
} from '../../../../shared/conventions.ts';
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { all, get, run, sql, sqlWhere, value } from '../../store/sql.ts';
import { getSettings } from '../../store/settings.ts';

export interface LearnedPoint<K extends keyof LearnedConventions = keyof LearnedConventions> {
  key: K;
  value: LearnedConventions[K];
  status: ConventionPoint['status'];
  evidence: string;
}

const RUN = '_run';

const LABELS: Record<ConventionKey, string> = {
  pageBase: 'Page numbering',
  pageSizeCap: 'Largest transactions page',
  pageSizeMax: 'Largest pageSize accepted',
  timeUnit: 'Unit of start_time / end_time',
  bounds: 'Range bounds',
  order: 'Order of transactions',
  pastEnd: 'A page past the end',
  pagingWorks: 'Paging honoured',
  logsTotal: 'Meaning of logs total',
  logIndex: 'log_index',
  logsPageCap: 'Largest logs page',
};

/** The conventions in use: learned values over the client's first reading. */
export function loadConventions(db: ReadableDB): LearnedConventions {
  const out: LearnedConventions = { ...ASSUMED_CONVENTIONS };
  const rows = all<{ key: string; value: string }>(db, sql`SELECT key, value FROM service_conventions WHERE key NOT IN (${RUN}, ${PACE}, ${RECENT_WINDOW})`);
  for (const r of rows) {
    if (Object.hasOwn(ASSUMED_CONVENTIONS, r.key)) (out as unknown as Record<string, unknown>)[r.key] = JSON.parse(r.value);
  }
  return out;
}

/** When the transaction conventions were last learned, and whether an anomaly asks to re-learn. */
export function learningState(db: ReadableDB): { learnedAt: string | null; relearn: boolean; requests: number; wallet: string | null } {
  const row = get<{ value: string; learned_at: string }>(db, sql`SELECT value, learned_at FROM service_conventions WHERE key = ${RUN}`);
  if (!row) return { learnedAt: null, relearn: true, requests: 0, wallet: null };
  const v = JSON.parse(row.value) as { relearn?: boolean; requests?: number; wallet?: string | null };
  return { learnedAt: row.learned_at, relearn: v.relearn ?? false, requests: v.requests ?? 0, wallet: v.wallet ?? null };
}

/**
 * Stores a learning run and, in the same transaction, forgets every synced range (`forgetRanges`,
 * the transactions capability's bookkeeping) when what was learned reads ranges otherwise than
 * before (`invalidates`, given the conventions as they stand after the run): history is then
 * read again under the new reading.
 */
export function saveLearningRun(
  db: WritableDB,
  points: readonly LearnedPoint[],
  outcome: { requests: number; wallet: string | null; complete: boolean },
  invalidates: (after: LearnedConventions) => boolean,
  forgetRanges: (db: WritableDB) => void,
): void {
  db.transaction(() => {
    saveLearnedPoints(db, points, outcome);
    if (invalidates(loadConventions(db))) forgetRanges(db);
  })();
}

/** Stores points learned (or found unknown) and the run, in one transaction. */
export function saveLearnedPoints(
  db: WritableDB,
  points: readonly LearnedPoint[],
  outcome: { requests: number; wallet: string | null; complete: boolean },
  at = new Date().toISOString(),
): void {
  db.transaction(() => {
    for (const p of points) upsertPoint(db, p.key, JSON.stringify(p.value), p.status, p.evidence, at);
    // A run that could not see any history (an empty wallet) asks to learn again next time.
    upsertPoint(db, RUN, JSON.stringify({ relearn: !outcome.complete, requests: outcome.requests, wallet: outcome.wallet }), 'learned', '', at);
  })();
}

/** Points learned from ordinary reads (logs), outside a learning run. */
export function saveObservedPoints(db: WritableDB, points: readonly LearnedPoint[], at = new Date().toISOString()): void {
  db.transaction(() => {
    for (const p of points) upsertPoint(db, p.key, JSON.stringify(p.value), p.status, p.evidence, at);
  })();
}

function upsertPoint(db: WritableDB, key: string, json: string, status: string, evidence: string, at: string): void {
  run(
    db,
    sql`INSERT INTO service_conventions (key, value, status, evidence, learned_at) VALUES (${key}, ${json}, ${status}, ${evidence}, ${at})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, status = excluded.status, evidence = excluded.evidence, learned_at = excluded.learned_at`,
  );
}

/** Asks the next sync to learn the conventions again (after an anomaly). */
export function requestRelearn(db: WritableDB): void {
  const state = learningState(db);
  if (state.learnedAt === null) return;
  run(db, sql`UPDATE service_conventions SET value = ${JSON.stringify({ relearn: true, requests: state.requests, wallet: state.wallet })} WHERE key = ${RUN}`);
}

// --- the service's pace ------------------------------------------------------------------

const PACE = '_pace';

/**
 * The request pace the client learned from the service's refusals (requests per second; see
 * RequestPacer), or null when it has refused nothing for its rate. Kept with the conventions,
 * since a cache file belongs to one service: the next process (a cron run) starts at it rather
 * than learning it again from fresh refusals.
 */
export function loadPace(db: ReadableDB): number | null {
  const json = value<string>(db, sql`SELECT value FROM service_conventions WHERE key = ${PACE}`);
  const rate = json !== undefined ? (JSON.parse(json) as { rate?: unknown }).rate : null;
  return typeof rate === 'number' && Number.isFinite(rate) && rate > 0 ? rate : null;
}

export function savePace(db: WritableDB, rate: number, at = new Date().toISOString()): void {
  run(
    db,
    sql`INSERT INTO service_conventions (key, value, status, evidence, learned_at)
        VALUES (${PACE}, ${JSON.stringify({ rate })}, 'learned', ${'the service refused requests for their rate'}, ${at})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, evidence = excluded.evidence, learned_at = excluded.learned_at`,
  );
}

// --- the recent window ------------------------------------------------------------------

const RECENT_WINDOW = '_recent_window';

/** How wide the recent window was learned to be (transactions/recent.ts), with why and when. */
export interface LearnedRecentWindow {
  seconds: number;
  evidence: string;
  learnedAt: string;
}

/**
 * The recent window's width learned from this service's restatements (seconds), or null when
 * none has widened it. Kept with the conventions, since a cache file belongs to one service.
 */
export function loadRecentWindow(db: ReadableDB): LearnedRecentWindow | null {
  const row = get<{ value: string; evidence: string; learned_at: string }>(
    db,
    sql`SELECT value, evidence, learned_at FROM service_conventions WHERE key = ${RECENT_WINDOW}`,
  );
  if (!row) return null;
  const seconds = (JSON.parse(row.value) as { seconds?: unknown }).seconds;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? { seconds, evidence: row.evidence, learnedAt: row.learned_at } : null;
}

export function saveRecentWindow(db: WritableDB, seconds: number, evidence: string, at = new Date().toISOString()): void {
  upsertPoint(db, RECENT_WINDOW, JSON.stringify({ seconds }), 'learned', evidence, at);
}

/** The recent window in use (seconds): the default, widened by what was learned, and at least what the user set. */
export function recentWindowWidth(db: ReadableDB): { seconds: number; learned: LearnedRecentWindow | null; setHours: number | null } {
  const learned = loadRecentWindow(db);
  const setHours = getSettings(db).recentWindowHours;
  return { seconds: Math.max(RECENT_WINDOW_S, learned?.seconds ?? 0, (setHours ?? 0) * 3600), learned, setHours };
}

const hours = (s: number) => `${+(s / 3600).toFixed(1)} h`;

/** The recent window as a point of the service report (Settings › Service, `folioscope doctor`). */
function recentWindowPoint(db: ReadableDB): ConventionPoint {
  const w = recentWindowWidth(db);
  const set = (line: string) => (w.setHours !== null ? conventionEvidence('recentSet', { evidence: line, set: w.setHours }) : line);
  return {
    key: 'recentWindow',
    label: 'Recent window re-read',
    value: hours(w.seconds),
    evidence: set(
      w.learned
        ? conventionEvidence('recentWidened', { hours: hours(RECENT_WINDOW_S), evidence: w.learned.evidence })
        : conventionEvidence('recentDefault', { hours: hours(RECENT_WINDOW_S) }),
    ),
    status: w.learned ? 'learned' : 'assumed',
    learnedAt: w.learned?.learnedAt ?? null,
  };
}

// --- anomalies ---------------------------------------------------------------------------

export function recordAnomaly(
  db: WritableDB,
  a: { kind: ServiceAnomaly['kind']; wallet: string | null; chain: string | null; detail: string },
  at = new Date().toISOString(),
): number {
  // One open anomaly per (kind, wallet, chain): a repeat refreshes its detail and time.
  const open = value<number>(
    db,
    sql`SELECT id FROM service_anomalies WHERE kind = ${a.kind} AND wallet IS ${a.wallet} AND chain IS ${a.chain} AND resolved_at IS NULL`,
  );
  if (open !== undefined) {
    run(db, sql`UPDATE service_anomalies SET detail = ${a.detail}, at = ${at} WHERE id = ${open}`);
    return open;
  }
  return Number(
    run(db, sql`INSERT INTO service_anomalies (kind, wallet, chain, detail, at) VALUES (${a.kind}, ${a.wallet}, ${a.chain}, ${a.detail}, ${at})`)
      .lastInsertRowid,
  );
}

/** Marks open anomalies of a wallet and chain (of some kinds, or all) resolved. */
export function resolveAnomalies(
  db: WritableDB,
  scope: { wallet: string | null; chain: string | null; kinds?: readonly string[] },
  at = new Date().toISOString(),
): number {
  const kinds = scope.kinds ?? null;
  const rows = all<{ id: number; kind: string }>(
    db,
    sql`SELECT id, kind FROM service_anomalies WHERE resolved_at IS NULL AND wallet IS ${scope.wallet} AND chain IS ${scope.chain}`,
  );
  let n = 0;
  for (const r of rows) {
    if (kinds && !kinds.includes(r.kind)) continue;
    run(db, sql`UPDATE service_anomalies SET resolved_at = ${at} WHERE id = ${r.id}`);
    n++;
  }
  return n;
}

interface AnomalyRow {
  id: number;
  kind: string;
  wallet: string | null;
  chain: string | null;
  detail: string;
  at: string;
  resolved_at: string | null;
}
const anomalyOf = (r: AnomalyRow): ServiceAnomaly => ({
  id: r.id,
  kind: r.kind,
  wallet: r.wallet,
  chain: r.chain,
  detail: r.detail,
  at: r.at,
  resolvedAt: r.resolved_at,
});

/** Open ones first, newest first (the later written of one moment first). */
export function listAnomalies(db: ReadableDB, options: { wallet?: string; openOnly?: boolean; limit?: number } = {}): ServiceAnomaly[] {
  const wallet = options.wallet ?? null;
  const where = sqlWhere([wallet !== null && sql`wallet = ${wallet}`, !!options.openOnly && sql`resolved_at IS NULL`]);
  const rows = all<AnomalyRow>(
    db,
    sql`SELECT * FROM service_anomalies ${where} ORDER BY resolved_at IS NOT NULL, at DESC, id DESC LIMIT ${options.limit ?? 50}`,
  );
  return rows.map(anomalyOf);
}

/** listAnomalies({ wallet, openOnly }) of each of some wallets, in one statement (a fund's sidebar: 1,000 wallets). */
export function openAnomaliesOf(db: ReadableDB, wallets: readonly string[], limit = 50): Map<string, ServiceAnomaly[]> {
  const rows = all<AnomalyRow>(
    db,
    sql`SELECT id, kind, wallet, chain, detail, at, resolved_at FROM (
          SELECT *, row_number() OVER (PARTITION BY wallet ORDER BY at DESC, id DESC) AS n FROM service_anomalies
           WHERE resolved_at IS NULL AND wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets)})))
         WHERE n <= ${limit} ORDER BY wallet, at DESC, id DESC`,
  );
  const byWallet = Map.groupBy(rows, (r) => r.wallet!);
  return new Map(wallets.map((w) => [w, (byWallet.get(w) ?? []).map(anomalyOf)]));
}

// --- the report the shells show ------------------------------------------------------------

function describe(key: ConventionKey, value: unknown): string {
  switch (key) {
    case 'pageBase':
      return value === 0 ? '0-based' : '1-based';
    case 'timeUnit':
      return value === 'ms' ? 'milliseconds' : 'seconds';
    case 'pagingWorks':
      return value === null ? 'unknown' : value ? 'yes' : 'no (page is ignored)';
    case 'logsPageCap':
      return value === null ? 'not seen below the page asked' : String(value);
    default:
      return String(value);
  }
}

/** Every open point with its reading, status and evidence, and the anomalies; for Settings and doctor. */
export function conventionsReport(db: ReadableDB): ConventionsReport {
  const rows = new Map(
    all<{
      key: string;
      value: string;
      status: ConventionPoint['status'];
      evidence: string;
      learned_at: string;
    }>(db, sql`SELECT * FROM service_conventions`).map((r) => [r.key, r]),
  );
  const current = loadConventions(db);
  const points: ConventionPoint[] = (Object.keys(LABELS) as ConventionKey[]).map((key) => {
    const row = rows.get(key);
    const value = current[key];
    return {
      key,
      label: LABELS[key],
      value: describe(key, value) + (key === 'pageSizeCap' && !current.capProven ? ' asked (not proven served whole)' : ''),
      evidence: row?.evidence ?? conventionEvidence('notLearned'),
      status: row?.status ?? 'assumed',
      learnedAt: row?.learned_at ?? null,
    };
  });
  points.push(recentWindowPoint(db));
  const state = learningState(db);
  return { learnedAt: state.learnedAt, points, anomalies: listAnomalies(db), requests: state.requests };
}
