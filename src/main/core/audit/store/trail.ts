/**
 * The audit trail read back (written by store/audit.ts `recordEdit`, in the transaction of each
 * edit): a page of edits, all of them for the CSV, and how many match.
 */
import { editShown, isSecretEdit } from '../../../../shared/webhook.ts';
import type { AuditAction, AuditEntry } from '../../../../shared/model.ts';
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, get, run, sql, sqlWhere, value, type SqlQuery } from '../../store/sql.ts';

export interface AuditQuery {
  entity?: string | undefined;
  key?: string | undefined;
  /** Edits by this person (exactly as recorded: `alice@treasury-laptop`). */
  person?: string | undefined;
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
  person: string | null;
  via: string | null;
}

const fromRow = (r: Row): AuditEntry => ({
  id: r.id,
  at: r.at,
  entity: r.entity,
  key: r.item,
  action: r.action,
  // An entry written before secrets were kept shown only (src/shared/webhook.ts) is read so too.
  before: r.before === null ? null : editShown(r.entity, r.item, JSON.parse(r.before)),
  after: r.after === null ? null : editShown(r.entity, r.item, JSON.parse(r.after)),
  reason: r.reason,
  origin: r.origin,
  person: r.person,
  via: r.via as AuditEntry['via'],
});

/** The filters asked for, and only those (an index on entity and item, or on time, serves them). */
function where(q: AuditQuery, extra: SqlQuery | false = false): SqlQuery {
  return sqlWhere([
    q.entity !== undefined && sql`entity = ${q.entity}`,
    q.key !== undefined && sql`item = ${q.key}`,
    q.person !== undefined && sql`person = ${q.person}`,
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

/** Everyone the trail names, with how many edits each made (the filter's choices), most first. */
export function editors(db: ReadableDB): Array<{ person: string; edits: number }> {
  return all<{ person: string; edits: number }>(
    db,
    sql`SELECT person, count(*) AS edits FROM audit_log WHERE person IS NOT NULL GROUP BY person ORDER BY edits DESC, person LIMIT 500`,
  );
}

/**
 * Takes the secrets out of the trail of a copy of the books (a team server's replica for someone
 * who may not see them, store/replica-files.ts): an entry written before the trail kept secrets
 * shown only still holds a webhook URL whole. The copy's append-only trigger is set aside for this
 * one update and put back as it was, so the copy's schema is the server's.
 */
export function scrubSecretEdits(copy: WritableDB): void {
  const trigger = value<string>(copy, sql`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_log_no_update'`);
  const rows = all<Row>(copy, sql`SELECT * FROM audit_log WHERE entity = 'setting'`).filter((r) => isSecretEdit(r.entity, r.item));
  if (!rows.length) return;
  copy.transaction(() => {
    if (trigger) run(copy, sql`DROP TRIGGER audit_log_no_update`);
    for (const r of rows) {
      const shown = (text: string | null) => (text === null ? null : JSON.stringify(editShown(r.entity, r.item, JSON.parse(text))));
      run(copy, sql`UPDATE audit_log SET before = ${shown(r.before)}, after = ${shown(r.after)} WHERE id = ${r.id}`);
    }
    if (trigger) copy.exec(trigger);
  })();
}
