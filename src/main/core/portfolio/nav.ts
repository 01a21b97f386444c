/**
 * NAV over dates as every reader shows it (the chart, the history CSV, the PDF, the NAV-move
 * alert): the positions' per-date sums with the positions judged spam left out, by the same judge
 * as the portfolio view of each date (docs/spam.md), so a date's NAV and its view agree.
 */
import type { NavScope } from '../../../shared/contract.ts';
import type { NavSeries } from '../../../shared/model.ts';
import { navHistory } from '../positions/index.ts';
import { spamJudge } from '../spam/index.ts';
import type { ReadableDB } from '../store/db.ts';

export function portfolioNav(db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }): NavSeries {
  return navHistory(db, scope, spamJudge(db, { ...(scope.wallets && { wallets: scope.wallets }) }));
}
