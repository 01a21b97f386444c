import type { ReadableDB } from '../../store/db.ts';
import { addressKey } from '../../store/address-key.ts';
import { listWallets } from '../../store/wallets.ts';
import { flaggedCount, freshnessOf, latestSnapshots, snapshotData } from './latest.ts';
import { runSteps } from '../../store/steps.ts';
import { positionTotals, positionValue } from '../../../../shared/portfolio/totals.ts';
import type { Position } from '../../../../shared/service/schemas.ts';
import { decimalSumOrNull } from '../../../../shared/decimal.ts';
import type { NavScope } from '../../../../shared/contract.ts';
import type { NavPoint, NavSeries, Wallet } from '../../../../shared/model.ts';

/**
 * What leaves a snapshot's positions out of its NAV (the spam judge, docs/spam.md; given by the
 * portfolio read model, which sits above both): one verdict per position, in order.
 */
export interface NavLeaveOut {
  positions(wallet: string, chain: string, day: string, ps: readonly Position[]): ReadonlyArray<{ spam: boolean }>;
}

/** The watched wallets a NAV series of `scope` reads: a wallet group's members (`wallets`), one wallet, or all. */
export function navWallets(db: ReadableDB, scope: Pick<NavScope, 'wallet'> & { wallets?: readonly string[] }): Wallet[] {
  return listWallets(db).filter((w) => (!scope.wallet || w.address === addressKey(scope.wallet)) && (!scope.wallets || scope.wallets.includes(w.address)));
}

/**
 * NAV per date from cached snapshots only: per wallet, and in total (wallet omitted)
 * summed over every watched wallet and chain. A date where some chain is not cached says
 * so (chainsCached < chainsWatched) rather than pretending the sum is whole.
 */
export function navHistory(db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }, leaveOut?: NavLeaveOut): NavSeries {
  return runSteps(navHistorySteps(db, scope, leaveOut));
}

/**
 * The same, pausing (yielding) after each snapshot whose positions it reads and judges: at a
 * fund's scale tens of thousands, seconds of work (store/steps.ts runs it in turns). The rows of
 * the dates are read first; a snapshot's positions when its turn comes (SnapshotGone, latest.ts,
 * if it was deleted meanwhile).
 */
export function* navHistorySteps(db: ReadableDB, scope: NavScope & { wallets?: readonly string[] }, leaveOut?: NavLeaveOut): Generator<void, NavSeries> {
  const rows = latestSnapshots(db, 'allPositions', {
    ...(scope.wallet && { wallet: scope.wallet }),
    ...(scope.from && { from: scope.from }),
    ...(scope.to && { to: scope.to }),
  });
  const wallets = navWallets(db, scope);
  const watched = new Map(wallets.map((w) => [w.address, new Set(w.chains)]));
  const chainsWatched = [...watched.values()].reduce((n, s) => n + s.size, 0);
  const byDate = new Map<string, NavPoint>();
  // The stored per-snapshot totals of each date, summed once per date at the end with the one
  // null rule (src/shared/portfolio/totals.ts): exact in decimal, as they are written to CSV.
  const terms = new Map<string, { total: Array<number | null>; principal: Array<number | null>; reward: Array<number | null>; spam: Array<number | null> }>();
  for (const r of rows) {
    if (!watched.get(r.wallet)?.has(r.chain)) continue;
    const p = byDate.get(r.as_of) ?? {
      date: r.as_of,
      totalNav: null,
      principalNav: null,
      rewardNav: null,
      chainsCached: 0,
      chainsWatched,
      missing: [],
      fetchedAt: r.fetched_at,
      flagged: 0,
      spam: { count: 0, claimed: null },
    };
    const t = terms.get(r.as_of) ?? { total: [], principal: [], reward: [], spam: [] };
    // A snapshot that lists no position is cached and worth 0, not unknown.
    const empty = r.position_count === 0;
    // The stored totals hold every position; with some judged spam, the snapshot's totals are
    // those of the others, by the same rule (as the portfolio view of that date counts them).
    const ps = leaveOut && !empty ? (snapshotData(db, r.id) as Array<{ positions: Position[] }>).flatMap((s) => s.positions) : [];
    const verdicts = leaveOut && ps.length ? leaveOut.positions(r.wallet, r.chain, r.as_of, ps) : [];
    const spam = ps.filter((_, i) => verdicts[i]?.spam);
    if (spam.length) {
      const kept = positionTotals(ps.filter((_, i) => !verdicts[i]?.spam));
      t.total.push(kept.count ? kept.total : 0);
      t.principal.push(kept.count ? kept.principal : 0);
      t.reward.push(kept.count ? kept.reward : 0);
      p.spam.count += spam.length;
      t.spam.push(...spam.map(positionValue));
    } else {
      t.total.push(empty ? 0 : r.total_nav);
      t.principal.push(empty ? 0 : r.principal_nav);
      t.reward.push(empty ? 0 : r.reward_nav);
    }
    terms.set(r.as_of, t);
    p.chainsCached++;
    p.flagged += flaggedCount(r.quality);
    if (r.fetched_at > p.fetchedAt) p.fetchedAt = r.fetched_at;
    byDate.set(r.as_of, p);
    if (ps.length) yield;
  }
  const present = new Set(rows.map((r) => `${r.as_of}|${r.wallet}|${r.chain}`));
  for (const p of byDate.values()) {
    for (const [wallet, chains] of watched) for (const chain of chains) if (!present.has(`${p.date}|${wallet}|${chain}`)) p.missing.push({ wallet, chain });
    const t = terms.get(p.date)!;
    p.totalNav = decimalSumOrNull(t.total);
    p.principalNav = decimalSumOrNull(t.principal);
    p.rewardNav = decimalSumOrNull(t.reward);
    p.spam.claimed = decimalSumOrNull(t.spam);
  }
  // A group's freshness is its members' alone: the rows read are every wallet's.
  const members = rows.filter((r) => watched.get(r.wallet)?.has(r.chain));
  return { wallet: scope.wallet ? addressKey(scope.wallet) : null, points: [...byDate.values()], freshness: freshnessOf(members) };
}
