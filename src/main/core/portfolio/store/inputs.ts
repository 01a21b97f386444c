/**
 * What each wallet's portfolio view read, as counted by the database (migration 30): a counter
 * per wallet that every write to its snapshots, their checks or its transactions moves, and the
 * wallet '' that every write to the spam marks, the lists, the address book or the watched
 * wallets moves. Equal counters mean the view's inputs are unchanged, whoever wrote to the file
 * meanwhile (a note, an audit entry, another wallet's sync). Of a wallet's counter, `positions`
 * counts the writes to its snapshots and their checks (migration 34): the kept spam judge
 * (kept-judge.ts) tells by it a wallet whose positions alone moved.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, value } from '../../store/sql.ts';

export interface InputCounts {
  /** A wallet's counter (0: nothing of it was written since the counters began). */
  of(wallet: string): number;
  /** The small tables every wallet's verdicts read. */
  readonly shared: number;
}

/** Every counter, read at once (one row per wallet: a fund's is a thousand small rows). */
export function inputCounts(db: ReadableDB): InputCounts {
  const counts = new Map(all<{ wallet: string; n: number }>(db, sql`SELECT wallet, n FROM view_inputs`).map((r) => [r.wallet, r.n]));
  return { of: (wallet) => counts.get(wallet) ?? 0, shared: counts.get('') ?? 0 };
}

/** Every counter's sum: unchanged, no counter moved (they only grow while a file lives). */
export function allInputsMark(db: ReadableDB): number {
  return value<number>(db, sql`SELECT total(n) FROM view_inputs`)!;
}

/** One mark for everything a view of these wallets read: equal marks, equal inputs. */
export function scopeMark(counts: InputCounts, wallets: ReadonlyArray<{ address: string }>): string {
  return `${counts.shared}:${wallets.map((w) => counts.of(w.address)).join(',')}`;
}

/** A wallet's counter (`n`) and how much of it its positions moved (migration 34). */
export interface WalletInputs {
  n: number;
  positions: number;
}

/** Every counter with its positions' share, read at once (one statement: one state of them all). */
export function inputCountsBySide(db: ReadableDB): Map<string, WalletInputs> {
  return new Map(all<{ wallet: string; n: number; positions: number }>(db, sql`SELECT wallet, n, positions FROM view_inputs`).map((r) => [r.wallet, r]));
}
