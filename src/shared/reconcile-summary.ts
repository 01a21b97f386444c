import type { ReconcileRow } from './model.ts';

/**
 * The verdict line of a roll-forward, counted once for the screen and the PDF so that they never
 * disagree (issue 39: the screen left remainders held in protocol positions out of "unexplained"
 * and the PDF counted them in).
 */
export interface ReconcileCounts {
  tokens: number;
  /** Tokens that moved (some transaction) and reconcile to the unit. */
  exact: number;
  /** A remainder the wallet's plain balance does not explain. */
  unexplained: number;
  /** A remainder wholly inside protocol positions: interest, rebases, rewards, a pool's price moves. */
  inPositions: number;
  incomplete: number;
}

/** A remainder wholly inside protocol positions (the plain balance reconciles to the unit). */
export function inPositionsOnly(r: Pick<ReconcileRow, 'status' | 'wallet_unexplained_qty'>): boolean {
  return r.status === 'unexplained' && r.wallet_unexplained_qty === 0;
}

export function reconcileCounts(rows: readonly ReconcileRow[]): ReconcileCounts {
  return {
    tokens: rows.length,
    exact: rows.filter((r) => r.status === 'reconciled' && r.txn_count > 0).length,
    unexplained: rows.filter((r) => r.status === 'unexplained' && !inPositionsOnly(r)).length,
    inPositions: rows.filter(inPositionsOnly).length,
    incomplete: rows.filter((r) => r.status === 'incomplete').length,
  };
}

/** "38 tokens: 6 that moved reconcile exactly, 21 show an unexplained remainder", each count in `n`'s notation, each verb agreeing with it. */
export function reconcileSummaryText(c: ReconcileCounts, n: (v: number) => string): string {
  return (
    `${n(c.tokens)} token${c.tokens === 1 ? '' : 's'}: ${n(c.exact)} that moved ${c.exact === 1 ? 'reconciles' : 'reconcile'} exactly, ` +
    `${n(c.unexplained)} ${c.unexplained === 1 ? 'shows' : 'show'} an unexplained remainder`
  );
}

/** " 5 more changed only inside protocol positions (…): their plain balances reconcile exactly." */
export function inPositionsText(count: number, n: (v: number) => string): string {
  return count === 1
    ? `${n(count)} more changed only inside protocol positions (interest, rebases, rewards, pool price moves): its plain balance reconciles exactly`
    : `${n(count)} more changed only inside protocol positions (interest, rebases, rewards, pool price moves): their plain balances reconcile exactly`;
}
