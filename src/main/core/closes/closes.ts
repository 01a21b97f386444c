/**
 * Closing a period, checking closed periods against their data, and reopening one
 * (docs/closes.md). The figures of a close are the monthly pack as built at close and are never
 * recomputed; what the data behind them is now is compared by hash, and a difference is flagged
 * on the period with what changed, and fires an alert once.
 */
import type { Alert } from '../../../shared/model.ts';
import { inForce, type CloseFlag, type CloseScope, type CloseSnapshotChange } from '../../../shared/closes.ts';
import type { MonthlyPack } from '../../../shared/pack.ts';
import type { WritableDB } from '../store/handles.ts';
import { fireCoreAlert, resolveCoreAlert } from '../alerts/index.ts';
import { approveClose, closeHolding, closesInForce, getClose, insertClose, recordCheck, rejectClose, reopenClose, type StoredClose } from './store/closes.ts';
import { editAuthor } from '../store/audit.ts';
import { changesInWindow } from '../ledger/index.ts';
import { basisSnapshots } from '../positions/index.ts';
import { flowWindow } from '../analytics/index.ts';
import { addressKey } from '../store/address-key.ts';
import { refusal } from '../store/validation.ts';
import { partNamed, partText, periodHash, type HashedPeriod } from './hash.ts';

export const CLOSED_PERIOD_CHANGED = 'closed-period-changed';

const hashed = (c: { scope: CloseScope; from: string; to: string }): HashedPeriod => ({
  wallets: c.scope.members,
  from: c.from,
  to: c.to,
  group: c.scope.kind === 'group' ? c.scope.group : null,
});

const periodText = (c: { scope: CloseScope; from: string; to: string }) => `${c.scope.name}, ${c.from} to ${c.to}`;

/**
 * Prepares a scope's period's close (`closed` false: stored with its pack and hash, waiting for
 * another person's approval), or closes it at once (`closed` true: prepared and approved by the
 * same person, a desktop's one-step close, which says so): refused when its pack is partial (the
 * reasons named) or the period is prepared or closed already. `buildPack` is called inside the
 * same write transaction as the hash and the insert, so the figures, the hash and the record
 * describe the same data (a sync on another connection waits for it).
 */
export function closePeriod(
  db: WritableDB,
  req: { scope: CloseScope; from: string; to: string; buildPack: () => MonthlyPack; closed?: boolean },
  now = new Date(),
): StoredClose {
  if (!req.scope.members.length) throw refusal('wallet', 'close.noWallets', { scope: req.scope.name });
  const id = db
    .transaction(() => {
      const open = closeHolding(db, req.scope, req.from, req.to);
      if (open?.state === 'prepared')
        throw refusal('period', 'close.preparedAlready', { scope: req.scope.name, from: req.from, to: req.to, id: open.id, at: open.preparedAt ?? '' });
      if (open) throw refusal('period', 'close.closedAlready', { scope: req.scope.name, from: req.from, to: req.to, id: open.id, at: open.closedAt ?? '' });
      const pack = req.buildPack();
      if (!pack.complete) throw refusal('period', 'close.partial', { scope: req.scope.name, from: req.from, to: req.to, reasons: pack.reasons.join(' ') });
      const { hash, parts } = periodHash(db, hashed(req));
      // The names as hashed, kept with the close: a rename after it changes no figure, and its bundle still holds them.
      const namesText = [...partText(db, partNamed('names')!, hashed(req))].join('');
      return insertClose(
        db,
        { scope: req.scope, from: req.from, to: req.to, pack, hash, parts, basis: basisSnapshots(db, req.scope.members, req.from, req.to), namesText },
        now,
        req.closed ?? true,
      );
    })
    .immediate();
  return getClose(db, id)!;
}

const short = (a: string) => (a.length > 14 ? `${a.slice(0, 8)}…${a.slice(-4)}` : a);

/** What changed between the close and now, in the parts whose hash differs. */
function findChanges(db: WritableDB, c: StoredClose, nowParts: Record<string, string>, hash: string, at: string): CloseFlag {
  const parts = Object.keys(c.parts).filter((n) => c.parts[n] !== nowParts[n]);
  const summary: string[] = [];
  const { start, end } = flowWindow(c.from, c.to);
  const transactions = parts.includes('transactions') ? changesInWindow(db, c.scope.members, start, end, (c.preparedAt ?? c.closedAt)!) : [];
  for (const t of transactions) {
    const what = t.kind === 'late' ? 'indexed late' : t.kind === 'removed' ? 'removed' : `changed (${(t.fields ?? []).join(', ')})`;
    summary.push(`transaction ${t.txnHash} of ${short(t.wallet)} on ${t.chain} ${what}`);
  }
  if (parts.includes('transactions') && !transactions.length)
    summary.push("the period's transactions differ (synced or purged again; the change log has no restatement in the period)");
  const snapshots: CloseSnapshotChange[] = [];
  // Compared by content (a close since version 22), else by the body as received (one before).
  const byContent = parts.includes('snapshot-contents');
  if (byContent || parts.includes('snapshots')) {
    const key = (s: { wallet: string; chain: string; endpoint: string; asOf: string }) => `${s.wallet}|${s.chain}|${s.endpoint}|${s.asOf}`;
    const then = new Map(c.basis.map((s) => [key(s), s]));
    const nowRows = basisSnapshots(db, c.scope.members, c.from, c.to);
    const now = new Map(nowRows.map((s) => [key(s), s]));
    for (const s of nowRows) {
      const before = then.get(key(s));
      if (!before) snapshots.push({ change: 'added', wallet: s.wallet, chain: s.chain, endpoint: s.endpoint, asOf: s.asOf });
      else if (byContent ? before.content !== s.content : before.sha256 !== s.sha256)
        snapshots.push({ change: 'replaced', wallet: s.wallet, chain: s.chain, endpoint: s.endpoint, asOf: s.asOf });
    }
    for (const s of c.basis) if (!now.has(key(s))) snapshots.push({ change: 'removed', wallet: s.wallet, chain: s.chain, endpoint: s.endpoint, asOf: s.asOf });
    for (const s of snapshots)
      summary.push(
        `${s.endpoint} of ${short(s.wallet)} on ${s.chain} at ${s.asOf} ${s.change === 'replaced' ? 'replaced (fetched again with other figures)' : s.change === 'added' ? 'cached since' : 'no longer cached'}`,
      );
  }
  const found = parts.map((n) => partNamed(n));
  const edited = found.flatMap((p) => (p?.edited ? [p.edited] : []));
  for (const e of edited) summary.push(`data edited: ${e}`);
  // Only names changed (labels, the group's name, the book's names): a finding of its own.
  const figures = found.some((p) => !p?.names);
  return { at, hash, parts, summary, transactions, snapshots, edited, figures };
}

/**
 * Checks one close against its data now (one transaction). A close whose hash differs is flagged
 * with what changed (the latest finding kept); the first time, an alert fires (returned, for the
 * caller to announce and deliver). Null when it is no longer in force or nothing new was found.
 */
export function checkClose(db: WritableDB, id: number, now = new Date()): { close: StoredClose; alert: Alert | null } | null {
  const at = now.toISOString();
  return db
    .transaction(() => {
      const c = getClose(db, id);
      // Only a close in force: a prepared one is checked at its approval, a rejected one never holds.
      if (!c || !inForce(c)) return null;
      const { hash, parts } = periodHash(db, hashed(c), Object.keys(c.parts));
      // Unchanged since the close, or since the finding already recorded: only the check's time.
      if (hash === c.hash || c.flag?.hash === hash) {
        recordCheck(db, c.id, at, hash === c.hash ? null : c.flag);
        return null;
      }
      const flag = findChanges(db, c, parts, hash, at);
      recordCheck(db, c.id, at, flag);
      // A rename is recorded on the close (shown with it) but neither flags it nor alerts.
      if (c.flaggedAt || !flag.figures) return null;
      const alert = fireCoreAlert(
        db,
        CLOSED_PERIOD_CHANGED,
        {
          subject: `period:${c.id}`,
          wallet: c.scope.wallet,
          title: `Closed period changed: ${periodText(c)}`,
          detail: `The data behind the figures closed at ${c.closedAt ?? ''} changed since: ${flag.summary.slice(0, 5).join('; ')}${flag.summary.length > 5 ? `; and ${flag.summary.length - 5} more` : ''}. The closed figures are kept as they were; reopen the period with a reason to close it again.`,
          facts: { close: c.id, scope: c.scope.name, from: c.from, to: c.to, closedAt: c.closedAt, hash: c.hash, hashNow: hash, changes: flag.summary.length },
        },
        at,
      );
      return { close: getClose(db, c.id)!, alert };
    })
    .immediate();
}

/**
 * The ids of the closes in force, oldest first: what a check looks at. With `wallets`, only those
 * with one of them as a member (a sync job writes one wallet's data: no other close can change).
 */
export const closesToCheck = (db: WritableDB, wallets?: ReadonlySet<string>): number[] =>
  closesInForce(db)
    .filter((c) => !wallets || c.scope.members.some((m) => wallets.has(addressKey(m))))
    .map((c) => c.id);

/** Checks every close in force at once (see checkClose); those newly flagged. */
export function checkCloses(db: WritableDB, now = new Date()): { checked: number; flagged: Array<{ close: StoredClose; alert: Alert | null }> } {
  const ids = closesToCheck(db);
  const flagged = ids.flatMap((id) => checkClose(db, id, now) ?? []);
  return { checked: ids.length, flagged };
}

/** A prepared close, or the refusal that says why it is not one (missing, or closed, rejected …). */
function preparedClose(db: WritableDB, id: number): StoredClose {
  const c = getClose(db, id);
  if (!c) throw refusal('id', 'close.missing', { id });
  if (c.state !== 'prepared') throw refusal('id', 'close.notPrepared', { id, scope: c.scope.name, from: c.from, to: c.to, state: c.state });
  return c;
}

/**
 * Approves a prepared close: from now it is closed, by the approver (the operation's person),
 * on the pack and hash stored when it was prepared. The hash is recomputed first: when the data
 * behind the figures changed since it was prepared, the approver would be approving something
 * else, so it is refused, naming the parts that changed (reject it and prepare it again). On a
 * team server (`team`) the preparer may not approve their own; on a desktop alone they may, and
 * the close says so (samePerson).
 */
export function approvePeriod(db: WritableDB, id: number, o: { team: boolean }, now = new Date()): StoredClose {
  db.transaction(() => {
    const c = preparedClose(db, id);
    const person = editAuthor()?.person ?? null;
    if (o.team && person !== null && person === c.preparedBy)
      throw refusal('id', 'close.ownApproval', { id, scope: c.scope.name, from: c.from, to: c.to, person });
    const { hash, parts } = periodHash(db, hashed(c), Object.keys(c.parts));
    if (hash !== c.hash) {
      const changed = Object.keys(c.parts).filter((n) => c.parts[n] !== parts[n]);
      throw refusal('id', 'close.changedSincePrepared', { id, scope: c.scope.name, from: c.from, to: c.to, at: c.preparedAt ?? '', parts: changed.join(', ') });
    }
    approveClose(db, id, now);
  }).immediate();
  return getClose(db, id)!;
}

/** Rejects a prepared close with the approver's reason (required): it ends, never in force, and frees its period. */
export function rejectPeriod(db: WritableDB, id: number, reason: string, now = new Date()): StoredClose {
  const why = reason.trim();
  if (!why) throw refusal('reason', 'close.noRejectReason', {});
  db.transaction(() => {
    preparedClose(db, id);
    rejectClose(db, id, why, now);
  }).immediate();
  return getClose(db, id)!;
}

/** Reopens a close in force with the user's reason (required); its open alert is resolved. */
export function reopenPeriod(db: WritableDB, id: number, reason: string, now = new Date()): StoredClose {
  const why = reason.trim();
  if (!why) throw refusal('reason', 'close.noReason', {});
  db.transaction(() => {
    const c = getClose(db, id);
    if (!c) throw refusal('id', 'close.missing', { id });
    if (c.state === 'prepared' || c.state === 'rejected')
      throw refusal('id', 'close.notClosed', { id, scope: c.scope.name, from: c.from, to: c.to, state: c.state });
    if (!reopenClose(db, id, why, now))
      throw refusal('id', 'close.reopenedAlready', { scope: c.scope.name, from: c.from, to: c.to, id, at: c.reopenedAt ?? '' });
    resolveCoreAlert(db, CLOSED_PERIOD_CHANGED, `period:${id}`, now.toISOString());
  }).immediate();
  return getClose(db, id)!;
}
