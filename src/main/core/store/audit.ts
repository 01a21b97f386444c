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
 *
 * Who made it travels the same way (migration 26): the person (on a desktop the operating
 * system's account at this machine, `localPerson`) and the shell it came through, or
 * `schedule` for a scheduled run. An edit made outside any operation names nobody (NULL): the
 * trail never guesses a person.
 */
import { editShown } from '../../../shared/webhook.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname, userInfo } from 'node:os';
import type { AuditEntry, AuditAction } from '../../../shared/model.ts';
import type { ReadableDB, WritableDB } from './handles.ts';
import { all, get, run, sql } from './sql.ts';

export type { AuditEntry, AuditAction };

/** Where an edit came from: the app's window, the web shell, the command line, or a scheduled run. */
export type EditVia = 'app' | 'web' | 'cli' | 'schedule';

/** Who made an edit and through what. */
export interface EditAuthor {
  person: string;
  via: EditVia;
}

const origin = new AsyncLocalStorage<{ op: string; now: (() => number) | undefined; author: EditAuthor | undefined }>();

/**
 * Runs `fn` with its edits recorded as made by `op` (a contract operation) and `author`, at the
 * time `now` gives (the core's clock, CoreOptions.now; this computer's unless given).
 */
export function withAuditOrigin<T>(op: string, fn: () => T, now?: () => number, author?: EditAuthor): T {
  return origin.run({ op, now, author }, fn);
}

/**
 * The same operation's edits from here on said to come from `via` (a scheduled run started by
 * an operation or a timer): the person and the operation stay those of the run's start.
 */
export function withAuditVia<T>(via: EditVia, person: string, fn: () => T): T {
  const at = origin.getStore();
  return origin.run({ op: at?.op ?? 'core', now: at?.now, author: { person: at?.author?.person ?? person, via } }, fn);
}

/**
 * The person at this computer: the operating system's account and the machine's name, as a
 * desktop app knows them (`alice@treasury-laptop`). An account without a name in the system's
 * user database (a container's numeric user) falls back to the environment's, then to its id.
 */
export function localPerson(env: NodeJS.ProcessEnv = process.env): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    name = env['USER'] ?? env['USERNAME'] ?? env['LOGNAME'];
  }
  if (!name) name = `uid-${typeof process.getuid === 'function' ? process.getuid() : 'unknown'}`;
  return `${name}@${hostname() || 'localhost'}`.slice(0, 200);
}

/** Who is making an edit now (the operation being dispatched's person and shell); undefined outside any operation. */
export function editAuthor(): EditAuthor | undefined {
  return origin.getStore()?.author;
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
  if (edit.action === 'update' && json(edit.before) === json(edit.after)) return;
  // A secret's value (a webhook URL) is kept as where it goes, never whole (src/shared/webhook.ts).
  const before = json(editShown(edit.entity, edit.key, edit.before));
  const after = json(editShown(edit.entity, edit.key, edit.after));
  const from = origin.getStore();
  run(
    db,
    sql`INSERT INTO audit_log (at, entity, item, action, before, after, reason, origin, person, via)
        VALUES (${at.toISOString()}, ${edit.entity}, ${edit.key}, ${edit.action}, ${before}, ${after}, ${edit.reason ?? null},
                ${from?.op ?? 'core'}, ${from?.author?.person ?? null}, ${from?.author?.via ?? null})`,
  );
}

/**
 * The newest edit of one item (its id, when, who), read where the trail is written: a record's
 * version is that id (store/versions.ts). `renamed`: an item keyed by its name before an edit (a
 * category) is found by the name an update gave it too.
 */
export function newestEdit(
  db: ReadableDB,
  entity: string,
  key: string,
  o: { renamed?: boolean } = {},
): { id: number; at: string; person: string | null } | undefined {
  return o.renamed
    ? get(
        db,
        sql`SELECT id, at, person FROM audit_log
            WHERE entity = ${entity} AND (item = ${key} OR (action = 'update' AND json_extract(after, '$.name') = ${key}))
            ORDER BY id DESC LIMIT 1`,
      )
    : get(db, sql`SELECT id, at, person FROM audit_log WHERE entity = ${entity} AND item = ${key} ORDER BY id DESC LIMIT 1`);
}

/** The newest edit's id of every item of one kind, in one read (by the trail's index on entity and item). */
export function newestEditIds(db: ReadableDB, entity: string): Map<string, number> {
  const rows = all<{ item: string; v: number }>(db, sql`SELECT item, max(id) AS v FROM audit_log WHERE entity = ${entity} GROUP BY item`);
  return new Map(rows.map((r) => [r.item, r.v]));
}
