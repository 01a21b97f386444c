/**
 * Closed periods (issue 28, item 3; docs/closes.md): a scope's monthly pack frozen at close,
 * with the SHA-256 of the data behind it. A later change to that data is flagged on the period
 * (and fires an alert), never absorbed into its figures; a reopen asks for a reason.
 */
import type { MonthlyPack } from './pack.ts';

/** Who a close covers, as it was at close. */
export interface CloseScope {
  kind: 'all' | 'wallet' | 'group';
  /** The wallet's address (kind wallet). */
  wallet: string | null;
  /** The group's id (kind group; the group may since have been removed). */
  group: number | null;
  /** The wallet's label or address, the group's name, or "All wallets", at close. */
  name: string;
  /** The member wallets' addresses at close: the data hashed is theirs. */
  members: string[];
}

/** A transaction of the period the change log says was restated after the close. */
export interface CloseTransactionChange {
  kind: 'late' | 'changed' | 'removed';
  wallet: string;
  chain: string;
  txnHash: string;
  /** Unix ms. */
  time: number;
  /** The columns that changed (kind changed). */
  fields: string[] | null;
  seenAt: string;
}

/** A snapshot the figures stood on that is now another (refetched with another body), new, or gone. */
export interface CloseSnapshotChange {
  change: 'replaced' | 'added' | 'removed';
  wallet: string;
  chain: string;
  endpoint: string;
  asOf: string;
}

/** What a check found changed since the close. */
export interface CloseFlag {
  /** The check that found it. */
  at: string;
  /** The hash of the data now. */
  hash: string;
  /** The parts whose hash differs (transactions, snapshots, wallets, group, …). */
  parts: string[];
  /** One line per change, in words ("transaction 0x… on eth changed: block, status"). */
  summary: string[];
  transactions: CloseTransactionChange[];
  snapshots: CloseSnapshotChange[];
  /** Parts of the user's own data that were edited (wallet labels, the group's members, …), in words. */
  edited: string[];
  /**
   * Whether the data behind the figures changed (the close is then flagged and an alert fired);
   * false when only names did (labels, the group's name, the address book's names): recorded on
   * the close, but it stays closed. Absent in a finding recorded before: figures.
   */
  figures?: boolean;
}

/** Whether a finding is a change of the figures' data (a flag), not of names only. */
export const changesFigures = (flag: CloseFlag | null): boolean => !!flag && flag.figures !== false;

/**
 * prepared: its pack and hash stored, waiting for another person's approval (not in force);
 * closed: in force and unchanged; flagged: in force, its data changed since; reopened: no longer
 * in force; rejected: a prepared close the approver turned down (never in force).
 */
export type CloseState = 'prepared' | 'closed' | 'flagged' | 'reopened' | 'rejected';

export interface PeriodClose {
  id: number;
  scope: CloseScope;
  from: string;
  to: string;
  /** When it was closed (approved); null while prepared, or when rejected. */
  closedAt: string | null;
  /** Who closed it — the approver (the audit trail's person: `alice@treasury-laptop`); null for a close made before closes named people. */
  closedBy: string | null;
  /** When and by whom it was prepared; null for a close made before closes were prepared (closed in one step). */
  preparedAt: string | null;
  preparedBy: string | null;
  /** Who approved it and when (the same as closedBy/closedAt for a prepared close); null while prepared, rejected, or before closes were prepared. */
  approvedAt: string | null;
  approvedBy: string | null;
  /** Prepared and approved by the same person (a desktop's one-step close says so); false otherwise or when not known. */
  samePerson: boolean;
  /** A prepared close turned down: when, by whom, and why. */
  rejectedAt: string | null;
  rejectedBy: string | null;
  rejectReason: string | null;
  /** SHA-256 (hex) of the data behind the figures at close. */
  hash: string;
  /** closed: in force and unchanged; flagged: in force, its data changed since; reopened: no longer in force. */
  state: CloseState;
  checkedAt: string | null;
  flaggedAt: string | null;
  flag: CloseFlag | null;
  reopenedAt: string | null;
  reopenReason: string | null;
  /** Who reopened it (null: not reopened, or before reopens named people). */
  reopenedBy: string | null;
  /** The closed figures' opening and closing NAV. */
  opening: number | null;
  closing: number | null;
}

/** One close with its stored figures (never recomputed). */
export interface PeriodCloseDetail extends PeriodClose {
  pack: MonthlyPack;
  /** The hashed parts and their SHA-256 at close. */
  parts: Record<string, string>;
}

/** `closes.check`: how many closes in force were checked, and those found changed by this check. */
export interface CloseCheck {
  checked: number;
  flagged: PeriodClose[];
}

/** The reason a reopen (or a rejection) asks for: at most this many characters. */
export const REOPEN_REASON_MAX = 500;

/** Whether a close is in force: closed (approved), not reopened. */
export const inForce = (c: Pick<PeriodClose, 'state'>): boolean => c.state === 'closed' || c.state === 'flagged';

/** Whether a close holds its scope's period (prepared or in force): a second cannot be prepared. */
export const holdsPeriod = (c: Pick<PeriodClose, 'state'>): boolean => c.state === 'prepared' || inForce(c);

/**
 * The close's people for a document (the pack's PDF and CSV, the bundle): who prepared it and
 * who approved (closed) it, with their times; `samePerson` when one person did both.
 */
export interface ClosePeople {
  at: string;
  by: string | null;
  prepared: { at: string; by: string | null } | null;
  samePerson: boolean;
}
