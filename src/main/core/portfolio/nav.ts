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
import { navHistorySteps, navWallets, SnapshotGone } from '../positions/index.ts';
import { runSteps, runStepsUnlessAborted, stepsAgain, TURN_MS } from '../store/steps.ts';
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
  return runSteps(navSeries(db, scope));
}

/**
 * The same for a caller that may stop wanting it (Overview's chart: a screen left, another range
 * picked), in turns of the event loop (store/steps.ts): built from nothing at a fund's scale it is
 * seconds of work, during which the core answered nothing else, a click on another screen
 * included (bench/RESULTS.md).
 */
export function portfolioNavUnlessAborted(
  db: ReadableDB,
  scope: NavScope & { wallets?: readonly string[] },
  signal: AbortSignal,
  turnMs = TURN_MS,
): Promise<NavSeries> {
  return runStepsUnlessAborted(navSeries(db, scope), signal, turnMs);
}

/** Read again when a snapshot it was reading is deleted between its turns. */
const navSeries = (db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }): Generator<void, NavSeries> =>
  stepsAgain(
    () => navSeriesOnce(db, scope),
    (e) => e instanceof SnapshotGone,
  );

function* navSeriesOnce(db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }): Generator<void, NavSeries> {
  // The wallets the series reads: its mark is theirs.
  const wallets = navWallets(db, scope);
  const key = JSON.stringify([scope.wallet ? addressKey(scope.wallet) : null, scope.from ?? null, scope.to ?? null, wallets.map((w) => [w.address, w.chains])]);
  // Read inside this connection's open write, the counters may be taken back by a rollback:
  // nothing is given or kept under them. The series is read in turns, between which a write of
  // this connection may open (a sync's batch on this thread): a part read inside one leaves it unkept too.
  let uncommitted = db.inTransaction;
  const before = scopeMark(inputCounts(db), wallets);
  const all = kept.get(db) ?? [];
  const hit = uncommitted ? undefined : all.find((k) => k.key === key && k.mark === before);
  if (hit) {
    kept.set(db, [hit, ...all.filter((k) => k !== hit)]);
    return hit.series;
  }
  // Each snapshot's day is judged once, in turn: the judge keeps no day after the next.
  const steps = navHistorySteps(db, scope, spamJudge(db, { ...(scope.wallets && { wallets: scope.wallets }), dayByDay: true }));
  let built: NavSeries;
  for (;;) {
    if (db.inTransaction) uncommitted = true;
    const step = steps.next();
    if (step.done) {
      built = step.value;
      break;
    }
    yield;
  }
  const series = frozen(built);
  // A write while it was read (another process's commit, or this one's between turns) leaves the series unkept.
  if (!uncommitted && !db.inTransaction && scopeMark(inputCounts(db), wallets) === before) {
    const now = kept.get(db) ?? [];
    kept.set(db, [{ key, mark: before, series }, ...now.filter((k) => k.key !== key)].slice(0, KEPT));
  }
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
