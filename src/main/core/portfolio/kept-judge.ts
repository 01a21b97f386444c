/**
 * A spam judge kept from read to read of every watched wallet (the timeline's pages, the poisoning
 * guard's checks): a judge reads what each wallet got by its own hand from its whole history once,
 * and the timeline reads a long list in many small blocks, so one made per page read a
 * million-row wallet's history again for each block.
 *
 * What it read is counted by the database (store/inputs.ts, migrations 30 and 34), so a note, a
 * sign-in or an audit entry keep it, and a write by the sync's worker or another process is seen
 * as the core's own events could not see it. When only some wallets' positions moved (a positions
 * sync, the usual write while people read), the judge forgets those wallets' part and keeps the
 * rest: a wallet's positions go into that wallet's verdicts alone. Any other move (a transaction,
 * which may change whose address appeared first in any wallet's history; a mark, a list, the
 * address book or the watched wallets, which every verdict reads) makes a new judge.
 */
import type { ReadableDB } from '../store/handles.ts';
import { spamJudge, type SpamJudge, type SpamJudgeOptions } from '../spam/index.ts';
import { allInputsMark, inputCountsBySide, type WalletInputs } from './store/inputs.ts';

/**
 * The judge for `db` now: the kept one, brought up to date, or a new one. `unwritten`: the
 * connection's open transaction has written nothing a judge reads yet (the poisoning guard's,
 * begun to record its alerts), so its counters are the file's.
 */
export type KeptJudge = (db: ReadableDB, o?: { unwritten?: boolean }) => SpamJudge;

export function keptJudge(options: SpamJudgeOptions = {}): KeptJudge {
  let kept: { db: ReadableDB; counts: Map<string, WalletInputs>; mark: number; judge: SpamJudge } | null = null;
  return (db, o = {}) => {
    // Inside this connection's open write (a sync's batch on this thread) a judge serves that read
    // alone: a rollback would take the counters back (portfolio/view.ts says why).
    if (db.inTransaction && !o.unwritten) return spamJudge(db, options);
    // Their sum first (one value, no row made): unchanged, so is every counter (they only grow).
    if (kept?.db === db && kept.mark === allInputsMark(db)) return kept.judge;
    const counts = inputCountsBySide(db);
    const mark = [...counts.values()].reduce((sum, c) => sum + c.n, 0);
    const moved = kept?.db === db ? positionsMoved(kept.counts, counts) : null;
    if (kept && moved) {
      kept.judge.forgetPositionsOf(moved);
      kept.counts = counts;
      kept.mark = mark;
      return kept.judge;
    }
    kept = { db, counts, mark, judge: spamJudge(db, options) };
    return kept.judge;
  };
}

/**
 * The wallets whose positions moved from `before` to `now`, when nothing else did (every counter
 * that moved, moved by its positions' share alone, and none went back or away); null when
 * anything else moved.
 */
export function positionsMoved(before: ReadonlyMap<string, WalletInputs>, now: ReadonlyMap<string, WalletInputs>): string[] | null {
  const moved: string[] = [];
  for (const wallet of before.keys()) if (!now.has(wallet)) return null;
  for (const [wallet, is] of now) {
    const was = before.get(wallet) ?? { n: 0, positions: 0 };
    const n = is.n - was.n;
    if (n === 0 && is.positions === was.positions) continue;
    // The shared counter ('': marks, lists, the book, the wallets) moves every verdict.
    if (wallet === '' || n < 0 || n !== is.positions - was.positions) return null;
    moved.push(wallet);
  }
  return moved;
}
