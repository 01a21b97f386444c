/**
 * The audit trail of the user's edits (migration 16): every change a user makes to their own
 * data, with the item before and after, recorded in the same transaction as the change, so an
 * edit and its record land together or not at all.
 *
 * Which operation made an edit (`origin`) is the contract operation being dispatched: app.ts
 * runs each write inside `withAuditOrigin`, so the store functions that record need no extra
 * parameter threaded through every caller (AsyncLocalStorage carries it across awaits). An
 * edit made outside any operation (a test, a migration) says `core`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditEntry, AuditAction } from '../../../shared/model.ts';
import type { ReadableDB, WritableDB } from './handles.ts';
import { all, get, run, sql, sqlWhere, type SqlQuery } from './sql.ts';

export type { AuditEntry, AuditAction };

const origin = new AsyncLocalStorage<{ op: string; now: (() => number) | undefined }>();

/**
 * Runs `fn` with its edits recorded as made by `op` (a contract operation), at the time `now`
 * gives (the core's clock, CoreOptions.now; this computer's unless given).
 */
export function withAuditOrigin<T>(op: string, fn: () => T, now?: () => number): T {
  return origin.run({ op, now }, fn);
}

export interface Edit {
  /** What kind of item: wallet, group, setting, schedule, alert-rule, counterparty, note, category, rule, period. */
  entity: string;
  /** Which one (an address, a group's name, a setting's key, a rule's id …). */
  key: string;
  action: AuditAction;
  /** The item before (null: it did not exist) and after (null: it no longer does). */
  before: unknown;
  after: unknown;
  /** The user's reason, where one is asked (reopening a closed period). */
  reason?: string;
}

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * Records one edit. An update that changes nothing (the same item before and after) is not
 * an edit and records nothing. Call it inside the transaction that makes the change.
 */
export function recordEdit(db: WritableDB, edit: Edit, at: Date = new Date(origin.getStore()?.now?.() ?? Date.now())): void {
  const before = json(edit.before);
  const after = json(edit.after);
  if (edit.action === 'update' && before === after) return;
  run(
    db,
    sql`INSERT INTO audit_log (at, entity, item, action, before, after, reason, origin)
        VALUES (${at.toISOString()}, ${edit.entity}, ${edit.key}, ${edit.action}, ${before}, ${after}, ${edit.reason ?? null}, ${origin.getStore()?.op ?? 'core'})`,
  );
}

export interface AuditQuery {
  entity?: string | undefined;
  key?: string | undefined;
  /** Edits at or after this instant / before this instant (ISO). */
  since?: string | undefined;
  until?: string | undefined;
  /** Newest first, from below this id (the previous page's last). */
  beforeId?: number | undefined;
  limit?: number | undefined;
}

interface Row {
  id: number;
  at: string;
  entity: string;
  item: string;
  action: AuditAction;
  before: string | null;
  after: string | null;
  reason: string | null;
  origin: string;
}

const fromRow = (r: Row): AuditEntry => ({
  id: r.id,
  at: r.at,
  entity: r.entity,
  key: r.item,
  action: r.action,
  before: r.before === null ? null : (JSON.parse(r.before) as unknown),
  after: r.after === null ? null : (JSON.parse(r.after) as unknown),
  reason: r.reason,
  origin: r.origin,
});

/** The filters asked for, and only those (an index on entity and item, or on time, serves them). */
function where(q: AuditQuery, extra: SqlQuery | false = false): SqlQuery {
  return sqlWhere([
    q.entity !== undefined && sql`entity = ${q.entity}`,
    q.key !== undefined && sql`item = ${q.key}`,
    q.since !== undefined && sql`at >= ${q.since}`,
    q.until !== undefined && sql`at < ${q.until}`,
    q.beforeId !== undefined && sql`id < ${q.beforeId}`,
    extra,
  ]);
}

/** Edits newest first. */
export function listEdits(db: ReadableDB, q: AuditQuery = {}): AuditEntry[] {
  return all<Row>(db, sql`SELECT * FROM audit_log ${where(q)} ORDER BY id DESC LIMIT ${q.limit ?? 500}`).map(fromRow);
}

/** Edits oldest first, one at a time (the CSV of a long trail is not held whole). */
export function* iterateEdits(db: ReadableDB, q: AuditQuery = {}): Generator<AuditEntry> {
  let after = 0;
  for (;;) {
    const rows = all<Row>(db, sql`SELECT * FROM audit_log ${where(q, sql`id > ${after}`)} ORDER BY id LIMIT 1000`);
    for (const r of rows) yield fromRow(r);
    if (rows.length < 1000) return;
    after = rows[rows.length - 1]!.id;
  }
}

export function countEdits(db: ReadableDB, q: AuditQuery = {}): number {
  return get<{ n: number }>(db, sql`SELECT count(*) AS n FROM audit_log ${where(q)}`)!.n;
}
