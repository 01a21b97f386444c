/**
 * The audit trail's writer (migration 16): every change a user makes to their own data, with the
 * item before and after, recorded in the same transaction as the change, so an edit and its
 * record land together or not at all. It stays in the open store because the store's own tables
 * (wallets, groups, settings) record their edits too, and they sit below every capability; the
 * trail is read by its owner, the audit capability (audit/store/trail.ts).
 *
 * Which operation made an edit (`origin`) is the contract operation being dispatched: app.ts
 * runs each write inside `withAuditOrigin`, so the store functions that record need no extra
 * parameter threaded through every caller (AsyncLocalStorage carries it across awaits). An
 * edit made outside any operation (a test, a migration) says `core`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditEntry, AuditAction } from '../../../shared/model.ts';
import type { WritableDB } from './handles.ts';
import { run, sql } from './sql.ts';

export type { AuditEntry, AuditAction };

const origin = new AsyncLocalStorage<{ op: string; now: (() => number) | undefined }>();

/**
 * Runs `fn` with its edits recorded as made by `op` (a contract operation), at the time `now`
 * gives (the core's clock, CoreOptions.now; this computer's unless given).
 */
export function withAuditOrigin<T>(op: string, fn: () => T, now?: () => number): T {
  return origin.run({ op, now }, fn);
}

/** The time of an edit made now: the clock of the operation being dispatched (the core's), else this computer's. */
export function editTime(): Date {
  return new Date(origin.getStore()?.now?.() ?? Date.now());
}

export interface Edit {
  /** What kind of item: wallet, group, setting, schedule, alert-rule, counterparty, note, category, rule, period, spam-verdict, spam-list. */
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
