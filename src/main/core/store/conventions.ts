/**
 * What the client learned about the service's reading of the open points: one row per point
 * in `service_conventions` (each cache file belongs to one service, so no service column),
 * and the anomalies that make it doubt what it learned.
 */
import {
  ASSUMED_CONVENTIONS,
  type ConventionKey,
  type ConventionPoint,
  type ConventionsReport,
  type LearnedConventions,
  type ServiceAnomaly,
} from '../../../shared/conventions.ts';
import type { ReadableDB, WritableDB } from './db.ts';
import { forgetAllRanges } from './transactions.ts';

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
  const rows = db.prepare('SELECT key, value FROM service_conventions WHERE key NOT IN (?, ?)').all(RUN, PACE) as Array<{ key: string; value: string }>;
  for (const r of rows) {
    if (Object.hasOwn(ASSUMED_CONVENTIONS, r.key)) (out as unknown as Record<string, unknown>)[r.key] = JSON.parse(r.value);
  }
  return out;
}

/** When the transaction conventions were last learned, and whether an anomaly asks to re-learn. */
export function learningState(db: ReadableDB): { learnedAt: string | null; relearn: boolean; requests: number; wallet: string | null } {
  const run = db.prepare('SELECT value, learned_at FROM service_conventions WHERE key = ?').get(RUN) as { value: string; learned_at: string } | undefined;
  if (!run) return { learnedAt: null, relearn: true, requests: 0, wallet: null };
  const v = JSON.parse(run.value) as { relearn?: boolean; requests?: number; wallet?: string | null };
  return { learnedAt: run.learned_at, relearn: v.relearn ?? false, requests: v.requests ?? 0, wallet: v.wallet ?? null };
}

/**
 * Stores a learning run and, in the same transaction, forgets every synced range when what
 * was learned reads ranges otherwise than before (`invalidates`, given the conventions as
 * they stand after the run): history is then read again under the new reading.
 */
export function saveLearningRun(
  db: WritableDB,
  points: readonly LearnedPoint[],
  run: { requests: number; wallet: string | null; complete: boolean },
  invalidates: (after: LearnedConventions) => boolean,
): void {
  db.transaction(() => {
    saveLearnedPoints(db, points, run);
    if (invalidates(loadConventions(db))) forgetAllRanges(db);
  })();
}

/** Stores points learned (or found unknown) and the run, in one transaction. */
export function saveLearnedPoints(
  db: WritableDB,
  points: readonly LearnedPoint[],
  run: { requests: number; wallet: string | null; complete: boolean },
  at = new Date().toISOString(),
): void {
  const upsert = db.prepare(
    `INSERT INTO service_conventions (key, value, status, evidence, learned_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, status = excluded.status, evidence = excluded.evidence, learned_at = excluded.learned_at`,
  );
  db.transaction(() => {
    for (const p of points) upsert.run(p.key, JSON.stringify(p.value), p.status, p.evidence, at);
    // A run that could not see any history (an empty wallet) asks to learn again next time.
    upsert.run(RUN, JSON.stringify({ relearn: !run.complete, requests: run.requests, wallet: run.wallet }), 'learned', '', at);
  })();
}

/** Points learned from ordinary reads (logs), outside a learning run. */
export function saveObservedPoints(db: WritableDB, points: readonly LearnedPoint[], at = new Date().toISOString()): void {
  const upsert = db.prepare(
    `INSERT INTO service_conventions (key, value, status, evidence, learned_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, status = excluded.status, evidence = excluded.evidence, learned_at = excluded.learned_at`,
  );
  db.transaction(() => {
    for (const p of points) upsert.run(p.key, JSON.stringify(p.value), p.status, p.evidence, at);
  })();
}

/** Asks the next sync to learn the conventions again (after an anomaly). */
export function requestRelearn(db: WritableDB): void {
  const state = learningState(db);
  if (state.learnedAt === null) return;
  db.prepare('UPDATE service_conventions SET value = ? WHERE key = ?').run(
    JSON.stringify({ relearn: true, requests: state.requests, wallet: state.wallet }),
    RUN,
  );
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
  const row = db.prepare('SELECT value FROM service_conventions WHERE key = ?').get(PACE) as { value: string } | undefined;
  const rate = row ? (JSON.parse(row.value) as { rate?: unknown }).rate : null;
  return typeof rate === 'number' && Number.isFinite(rate) && rate > 0 ? rate : null;
}

export function savePace(db: WritableDB, rate: number, at = new Date().toISOString()): void {
  db.prepare(
    `INSERT INTO service_conventions (key, value, status, evidence, learned_at) VALUES (?, ?, 'learned', ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, evidence = excluded.evidence, learned_at = excluded.learned_at`,
  ).run(PACE, JSON.stringify({ rate }), 'the service refused requests for their rate', at);
}

// --- anomalies ---------------------------------------------------------------------------

export function recordAnomaly(
  db: WritableDB,
  a: { kind: ServiceAnomaly['kind']; wallet: string | null; chain: string | null; detail: string },
  at = new Date().toISOString(),
): number {
  // One open anomaly per (kind, wallet, chain): a repeat refreshes its detail and time.
  const open = db
    .prepare('SELECT id FROM service_anomalies WHERE kind = ? AND wallet IS ? AND chain IS ? AND resolved_at IS NULL')
    .get(a.kind, a.wallet, a.chain) as { id: number } | undefined;
  if (open) {
    db.prepare('UPDATE service_anomalies SET detail = ?, at = ? WHERE id = ?').run(a.detail, at, open.id);
    return open.id;
  }
  return Number(
    db.prepare('INSERT INTO service_anomalies (kind, wallet, chain, detail, at) VALUES (?, ?, ?, ?, ?)').run(a.kind, a.wallet, a.chain, a.detail, at)
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
  const rows = db
    .prepare('SELECT id, kind FROM service_anomalies WHERE resolved_at IS NULL AND wallet IS ? AND chain IS ?')
    .all(scope.wallet, scope.chain) as Array<{ id: number; kind: string }>;
  const resolve = db.prepare('UPDATE service_anomalies SET resolved_at = ? WHERE id = ?');
  let n = 0;
  for (const r of rows) {
    if (kinds && !kinds.includes(r.kind)) continue;
    resolve.run(at, r.id);
    n++;
  }
  return n;
}

export function listAnomalies(db: ReadableDB, options: { wallet?: string; openOnly?: boolean; limit?: number } = {}): ServiceAnomaly[] {
  const rows = db
    .prepare(
      `SELECT * FROM service_anomalies WHERE (? IS NULL OR wallet = ?) AND (? = 0 OR resolved_at IS NULL)
       ORDER BY resolved_at IS NOT NULL, at DESC LIMIT ?`,
    )
    .all(options.wallet ?? null, options.wallet ?? null, options.openOnly ? 1 : 0, options.limit ?? 50) as Array<{
    id: number;
    kind: string;
    wallet: string | null;
    chain: string | null;
    detail: string;
    at: string;
    resolved_at: string | null;
  }>;
  return rows.map((r) => ({ id: r.id, kind: r.kind, wallet: r.wallet, chain: r.chain, detail: r.detail, at: r.at, resolvedAt: r.resolved_at }));
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
    (
      db.prepare('SELECT * FROM service_conventions').all() as Array<{
        key: string;
        value: string;
        status: ConventionPoint['status'];
        evidence: string;
        learned_at: string;
      }>
    ).map((r) => [r.key, r]),
  );
  const current = loadConventions(db);
  const points: ConventionPoint[] = (Object.keys(LABELS) as ConventionKey[]).map((key) => {
    const row = rows.get(key);
    const value = current[key];
    return {
      key,
      label: LABELS[key],
      value: describe(key, value) + (key === 'pageSizeCap' && !current.capProven ? ' asked (not proven served whole)' : ''),
      evidence: row?.evidence ?? "not learned yet: the client's first reading is used",
      status: row?.status ?? 'assumed',
      learnedAt: row?.learned_at ?? null,
    };
  });
  const state = learningState(db);
  return { learnedAt: state.learnedAt, points, anomalies: listAnomalies(db), requests: state.requests };
}

/** Whether any cached snapshot shows the wallet holding positions on the chain. */
export function hasPositionActivity(db: ReadableDB, wallet: string, chain: string): boolean {
  return db.prepare('SELECT 1 FROM snapshots WHERE wallet = ? AND chain = ? AND position_count > 0 LIMIT 1').get(wallet, chain) !== undefined;
}
