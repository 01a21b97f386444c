/**
 * Closed periods (migration 19): the closes kept, their checks and reopenings, and the members
 * and groups a close names. What a close's hash reads of the snapshots and the history is their
 * owners' (positions' basisSnapshots, the ledger's window).
 */
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, get, run, sql, sqlJoin } from '../../store/sql.ts';
import { editAuthor, recordEdit } from '../../store/audit.ts';
import type { CloseFlag, CloseScope, CloseState, PeriodClose, PeriodCloseDetail } from '../../../../shared/closes.ts';
import type { BasisSnapshot } from '../../positions/index.ts';
import type { MonthlyPack } from '../../../../shared/pack.ts';

/** The member wallets as the wallets table has them now (label and chains: what the pack names and covers). */
export function memberWallets(db: ReadableDB, wallets: readonly string[]): Array<{ address: string; label: string; chains: string }> {
  if (!wallets.length) return [];
  return all(db, sql`SELECT address, label, chains FROM wallets WHERE address IN (${sqlJoin(wallets)}) ORDER BY address`);
}

/** A group's name and members now; null when it was removed. */
export function groupNow(db: ReadableDB, id: number): { name: string; wallets: string[] } | null {
  const g = get<{ name: string }>(db, sql`SELECT name FROM wallet_groups WHERE id = ${id}`);
  if (!g) return null;
  const wallets = all<{ wallet: string }>(db, sql`SELECT wallet FROM wallet_group_members WHERE group_id = ${id} ORDER BY wallet`).map((r) => r.wallet);
  return { name: g.name, wallets };
}

interface Row {
  id: number;
  scope_kind: CloseScope['kind'];
  scope_wallet: string | null;
  scope_group: number | null;
  scope_name: string;
  members: string;
  period_from: string;
  period_to: string;
  closed_at: string | null;
  figures: string;
  hash: string;
  parts: string;
  basis: string;
  checked_at: string | null;
  flagged_at: string | null;
  flag: string | null;
  reopened_at: string | null;
  reopen_reason: string | null;
  closed_by: string | null;
  reopened_by: string | null;
  names_text: string | null;
  prepared_at: string | null;
  prepared_by: string | null;
  rejected_at: string | null;
  rejected_by: string | null;
  reject_reason: string | null;
}

/** A close as its row keeps it, with what a check and a bundle need. */
export interface StoredClose extends PeriodCloseDetail {
  basis: BasisSnapshot[];
  /** The `names` part's text as hashed at close (null: a close made before it was kept, or imported). */
  namesText: string | null;
}

function stateOf(r: Row): CloseState {
  if (r.rejected_at) return 'rejected';
  if (!r.closed_at) return 'prepared';
  return r.reopened_at ? 'reopened' : r.flagged_at ? 'flagged' : 'closed';
}

function fromRow(r: Row): StoredClose {
  const pack = JSON.parse(r.figures) as MonthlyPack;
  // Approved: a prepared close that was closed; the approver is who closed it.
  const approved = r.prepared_at !== null && r.closed_at !== null;
  return {
    id: r.id,
    scope: { kind: r.scope_kind, wallet: r.scope_wallet, group: r.scope_group, name: r.scope_name, members: JSON.parse(r.members) as string[] },
    from: r.period_from,
    to: r.period_to,
    closedAt: r.closed_at,
    closedBy: r.closed_by,
    preparedAt: r.prepared_at,
    preparedBy: r.prepared_by,
    approvedAt: approved ? r.closed_at : null,
    approvedBy: approved ? r.closed_by : null,
    samePerson: approved && r.prepared_by === r.closed_by,
    rejectedAt: r.rejected_at,
    rejectedBy: r.rejected_by,
    rejectReason: r.reject_reason,
    hash: r.hash,
    state: stateOf(r),
    checkedAt: r.checked_at,
    flaggedAt: r.flagged_at,
    flag: r.flag ? (JSON.parse(r.flag) as CloseFlag) : null,
    reopenedAt: r.reopened_at,
    reopenReason: r.reopen_reason,
    reopenedBy: r.reopened_by,
    opening: pack.opening,
    closing: pack.closing,
    pack,
    parts: JSON.parse(r.parts) as Record<string, string>,
    basis: JSON.parse(r.basis) as BasisSnapshot[],
    namesText: r.names_text,
  };
}

/** The summary of a close (no figures), as lists show it. */
export function summaryOf(c: StoredClose): PeriodClose {
  const { pack: _pack, parts: _parts, basis: _basis, ...summary } = c;
  return summary;
}

/** Every close (newest first: by when it was closed, else prepared), or those of one period. */
export function listCloses(db: ReadableDB, o: { from?: string | undefined; to?: string | undefined } = {}): StoredClose[] {
  return all<Row>(
    db,
    sql`SELECT * FROM period_closes WHERE (${o.from ?? null} IS NULL OR period_from = ${o.from ?? null})
          AND (${o.to ?? null} IS NULL OR period_to = ${o.to ?? null})
        ORDER BY coalesce(closed_at, prepared_at) DESC, id DESC`,
  ).map(fromRow);
}

export function getClose(db: ReadableDB, id: number): StoredClose | null {
  const r = get<Row>(db, sql`SELECT * FROM period_closes WHERE id = ${id}`);
  return r ? fromRow(r) : null;
}

/** The close in force (closed, not reopened) of a scope's period, if any. */
export function closeInForce(db: ReadableDB, scope: Pick<CloseScope, 'kind' | 'wallet' | 'group'>, from: string, to: string): StoredClose | null {
  const c = closeHolding(db, scope, from, to);
  return c && c.state !== 'prepared' ? c : null;
}

/** The close that holds a scope's period: prepared, or in force (the unique index allows one). */
export function closeHolding(db: ReadableDB, scope: Pick<CloseScope, 'kind' | 'wallet' | 'group'>, from: string, to: string): StoredClose | null {
  const r = get<Row>(
    db,
    sql`SELECT * FROM period_closes WHERE reopened_at IS NULL AND rejected_at IS NULL AND scope_kind = ${scope.kind}
          AND coalesce(scope_wallet, '') = ${scope.wallet ?? ''} AND coalesce(scope_group, 0) = ${scope.group ?? 0}
          AND period_from = ${from} AND period_to = ${to}`,
  );
  return r ? fromRow(r) : null;
}

/** Every close in force (closed, not reopened), oldest first: what a check looks at. A prepared close is checked at its approval. */
export function closesInForce(db: ReadableDB): StoredClose[] {
  return all<Row>(db, sql`SELECT * FROM period_closes WHERE reopened_at IS NULL AND closed_at IS NOT NULL ORDER BY id`).map(fromRow);
}

/** The key the audit trail names a period by: its scope and dates. */
export function periodKey(scope: Pick<CloseScope, 'kind' | 'wallet' | 'name'>, from: string, to: string): string {
  const who = scope.kind === 'all' ? 'all wallets' : scope.kind === 'wallet' ? scope.wallet! : `group ${scope.name}`;
  return `${who} ${from}..${to}`;
}

export interface NewClose {
  scope: CloseScope;
  from: string;
  to: string;
  pack: MonthlyPack;
  hash: string;
  parts: Record<string, string>;
  basis: BasisSnapshot[];
  namesText?: string | undefined;
}

/**
 * Records a prepared close (`closed` false: waiting for another person's approval) or a close
 * prepared and approved at once by the same person (`closed` true: a desktop's one-step close),
 * and its audit entry, together; the close holding the same period refuses a second (unique index).
 */
export function insertClose(db: WritableDB, c: NewClose, now = new Date(), closed = true): number {
  return db
    .transaction(() => {
      const at = now.toISOString();
      const person = editAuthor()?.person ?? null;
      const closedAt = closed ? at : null;
      const id = Number(
        run(
          db,
          sql`INSERT INTO period_closes (scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash, parts, basis,
                                         checked_at, closed_by, names_text, prepared_at, prepared_by)
              VALUES (${c.scope.kind}, ${c.scope.wallet}, ${c.scope.group}, ${c.scope.name}, ${JSON.stringify(c.scope.members)}, ${c.from}, ${c.to}, ${closedAt},
                      ${JSON.stringify(c.pack)}, ${c.hash}, ${JSON.stringify(c.parts)}, ${JSON.stringify(c.basis)}, ${at}, ${closed ? person : null},
                      ${c.namesText ?? null}, ${at}, ${person})`,
        ).lastInsertRowid,
      );
      recordEdit(
        db,
        {
          entity: 'period',
          key: periodKey(c.scope, c.from, c.to),
          action: closed ? 'close' : 'prepare',
          before: null,
          after: {
            close: id,
            state: closed ? 'closed' : 'prepared',
            scope: c.scope,
            from: c.from,
            to: c.to,
            hash: c.hash,
            opening: c.pack.opening,
            closing: c.pack.closing,
            ...(closed && { samePerson: true }),
          },
        },
        now,
      );
      return id;
    })
    .immediate();
}

/** Approves a prepared close: it is closed from now, by the approver (the operation's person); false when it is not prepared. */
export function approveClose(db: WritableDB, id: number, now = new Date()): boolean {
  return db
    .transaction(() => {
      const c = getClose(db, id);
      if (!c || c.state !== 'prepared') return false;
      const at = now.toISOString();
      const person = editAuthor()?.person ?? null;
      run(db, sql`UPDATE period_closes SET closed_at = ${at}, closed_by = ${person}, checked_at = ${at} WHERE id = ${id}`);
      recordEdit(
        db,
        {
          entity: 'period',
          key: periodKey(c.scope, c.from, c.to),
          action: 'approve',
          before: { close: id, state: 'prepared', hash: c.hash, preparedBy: c.preparedBy, preparedAt: c.preparedAt },
          after: { close: id, state: 'closed', hash: c.hash, ...(person !== null && person === c.preparedBy && { samePerson: true }) },
        },
        now,
      );
      return true;
    })
    .immediate();
}

/** Rejects a prepared close with the approver's reason: it ends, never in force, kept in the list; false when it is not prepared. */
export function rejectClose(db: WritableDB, id: number, reason: string, now = new Date()): boolean {
  return db
    .transaction(() => {
      const c = getClose(db, id);
      if (!c || c.state !== 'prepared') return false;
      const at = now.toISOString();
      run(db, sql`UPDATE period_closes SET rejected_at = ${at}, rejected_by = ${editAuthor()?.person ?? null}, reject_reason = ${reason} WHERE id = ${id}`);
      recordEdit(
        db,
        {
          entity: 'period',
          key: periodKey(c.scope, c.from, c.to),
          action: 'reject',
          before: { close: id, state: 'prepared', hash: c.hash, preparedBy: c.preparedBy },
          after: { close: id, state: 'rejected' },
          reason,
        },
        now,
      );
      return true;
    })
    .immediate();
}

/** A check's outcome: when it ran and, when the data changed, what (the first such check sets flagged_at). */
export function recordCheck(db: WritableDB, id: number, at: string, flag: CloseFlag | null): void {
  // Nothing found: a names-only finding (never flagged) is gone with the names it saw.
  if (!flag)
    return void run(db, sql`UPDATE period_closes SET checked_at = ${at}, flag = CASE WHEN flagged_at IS NULL THEN NULL ELSE flag END WHERE id = ${id}`);
  // Flagged (in force, its figures' data changed) only by a change of more than names.
  const flaggedAt = flag.figures === false ? null : at;
  run(db, sql`UPDATE period_closes SET checked_at = ${at}, flagged_at = coalesce(flagged_at, ${flaggedAt}), flag = ${JSON.stringify(flag)} WHERE id = ${id}`);
}

/** Reopens a close in force, with the user's reason, and records it in the audit trail; false when it is not in force. */
export function reopenClose(db: WritableDB, id: number, reason: string, now = new Date()): boolean {
  return db
    .transaction(() => {
      const c = getClose(db, id);
      if (!c || (c.state !== 'closed' && c.state !== 'flagged')) return false;
      const at = now.toISOString();
      run(db, sql`UPDATE period_closes SET reopened_at = ${at}, reopen_reason = ${reason}, reopened_by = ${editAuthor()?.person ?? null} WHERE id = ${id}`);
      recordEdit(
        db,
        {
          entity: 'period',
          key: periodKey(c.scope, c.from, c.to),
          action: 'reopen',
          before: { close: id, state: c.state, hash: c.hash, ...(c.flag && { changed: c.flag.summary }) },
          after: { close: id, state: 'reopened' },
          reason,
        },
        now,
      );
      return true;
    })
    .immediate();
}

/** Closes imported from a data file, as they were (their dates, figures, hash and reopen), each in the audit trail. */
export function importClose(
  db: WritableDB,
  c: NewClose & {
    closedAt: string;
    reopenedAt: string | null;
    reopenReason: string | null;
    closedBy?: string | null;
    reopenedBy?: string | null;
    preparedAt?: string | null;
    preparedBy?: string | null;
  },
): number {
  // Who prepared, closed and reopened it, as the file says (a file written before closes named people says nobody).
  const id = Number(
    run(
      db,
      sql`INSERT INTO period_closes (scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash, parts, basis, reopened_at, reopen_reason,
                                     closed_by, reopened_by, prepared_at, prepared_by)
          VALUES (${c.scope.kind}, ${c.scope.wallet}, ${c.scope.group}, ${c.scope.name}, ${JSON.stringify(c.scope.members)}, ${c.from}, ${c.to}, ${c.closedAt},
                  ${JSON.stringify(c.pack)}, ${c.hash}, ${JSON.stringify(c.parts)}, ${JSON.stringify(c.basis)}, ${c.reopenedAt}, ${c.reopenReason},
                  ${c.closedBy ?? null}, ${c.reopenedBy ?? null}, ${c.preparedAt ?? null}, ${c.preparedBy ?? null})`,
    ).lastInsertRowid,
  );
  recordEdit(db, {
    entity: 'period',
    key: periodKey(c.scope, c.from, c.to),
    action: 'create',
    before: null,
    after: { close: id, scope: c.scope, from: c.from, to: c.to, hash: c.hash, closedAt: c.closedAt, reopenedAt: c.reopenedAt, reopenReason: c.reopenReason },
  });
  return id;
}
