/**
 * What each wallet's portfolio view read, as counted by the database (migration 30): a counter
 * per wallet that every write to its snapshots, their checks or its transactions moves, and the
 * wallet '' that every write to the spam marks, the lists, the address book or the watched
 * wallets moves. Equal counters mean the view's inputs are unchanged, whoever wrote to the file
 * meanwhile (a note, an audit entry, another wallet's sync).
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

/**
 * One mark for every counter at once (their sum: counters only grow, so any write a view or the
 * spam judge reads moves it): what a reader of every wallet keeps its work under (the timeline's
 * spam judge, whose lookalikes read every watched wallet's history).
 */
export function allInputsMark(db: ReadableDB): number {
  return value<number>(db, sql`SELECT total(n) FROM view_inputs`)!;
}

/** One mark for everything a view of these wallets read: equal marks, equal inputs. */
export function scopeMark(counts: InputCounts, wallets: ReadonlyArray<{ address: string }>): string {
  return `${counts.shared}:${wallets.map((w) => counts.of(w.address)).join(',')}`;
}
