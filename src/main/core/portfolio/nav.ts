/**
 * NAV over dates as every reader shows it (the chart, the history CSV, the PDF, the NAV-move
 * alert): the positions' per-date sums with the positions judged spam left out, by the same judge
 * as the portfolio view of each date (docs/spam.md), so a date's NAV and its view agree.
 *
 * The last series built are kept while what they read is unchanged, as the views are (memo.ts):
 * a series reads every date's snapshots of its wallets and judges each position, seconds at a
 * fund's scale, and Overview asks for it at every visit. What it reads is what a view of the
 * same wallets reads (their snapshots and checks, their transactions for the judge, the shared
 * marks, lists and watched wallets), counted by the database (store/inputs.ts).
 */
import type { NavScope } from '../../../shared/contract.ts';
import type { NavSeries } from '../../../shared/model.ts';
import { navHistory, navWallets } from '../positions/index.ts';
import { spamJudge } from '../spam/index.ts';
import { addressKey } from '../store/address-key.ts';
import type { ReadableDB } from '../store/db.ts';
import { inputCounts, scopeMark } from './store/inputs.ts';

interface KeptSeries {
  key: string;
  mark: string;
  series: NavSeries;
}

/** A screen's scope, a group or two, the PDF's and the alerts' scopes: a series is a few points, small to keep. */
const KEPT = 16;
const kept = new WeakMap<ReadableDB, KeptSeries[]>();

export function portfolioNav(db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }): NavSeries {
  // The wallets the series reads: its mark is theirs.
  const wallets = navWallets(db, scope);
  const key = JSON.stringify([scope.wallet ? addressKey(scope.wallet) : null, scope.from ?? null, scope.to ?? null, wallets.map((w) => [w.address, w.chains])]);
  // Read inside this connection's open write, the counters may be taken back by a rollback: nothing is given or kept under them.
  const inWrite = db.inTransaction;
  const before = scopeMark(inputCounts(db), wallets);
  const all = kept.get(db) ?? [];
  const hit = inWrite ? undefined : all.find((k) => k.key === key && k.mark === before);
  if (hit) {
    kept.set(db, [hit, ...all.filter((k) => k !== hit)]);
    return hit.series;
  }
  const series = frozen(navHistory(db, scope, spamJudge(db, { ...(scope.wallets && { wallets: scope.wallets }) })));
  // A write between the two reads of the counters (another process's commit) leaves the series unkept.
  if (!inWrite && !db.inTransaction && scopeMark(inputCounts(db), wallets) === before)
    kept.set(db, [{ key, mark: before, series }, ...all.filter((k) => k.key !== key)].slice(0, KEPT));
  return series;
}

/** The series made read-only, deep: one handed to a caller may be the next caller's too, and a change to it (a sort in place) would be theirs. */
function frozen(series: NavSeries): NavSeries {
  for (const p of series.points) {
    for (const m of p.missing) Object.freeze(m);
    Object.freeze(p.missing);
    Object.freeze(p.spam);
    Object.freeze(p);
  }
  Object.freeze(series.points);
  Object.freeze(series.freshness);
  return Object.freeze(series);
}
