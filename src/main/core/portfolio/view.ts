/**
 * The one portfolio view (src/shared/portfolio/view.ts): a wallet, a group or all wallets at a
 * date, read from the cache in one pass. Overview, Positions, the PDF, the position CSVs and
 * the CLI all read this, so a total, its allocation and what it leaves out are judged once.
 */
import type { ValueFlag } from '../../../shared/service/schemas.ts';
import type { SnapshotDataByEndpoint, Wallet } from '../../../shared/model.ts';
import type { MemberCoverage, PortfolioProvenance, PortfolioView } from '../../../shared/portfolio/view.ts';
import { allocationLabel, liquidityRows, positionRows, underlyingRows, type AllocationKey, type SnapshotResults } from '../../../shared/portfolio/rows.ts';
import { tokenPart, tokenRowsOfParts } from '../../../shared/portfolio/tokens.ts';
import { knownValue, navSums, positionTotalsOf } from '../../../shared/portfolio/totals.ts';
import { allocationOfParts, exactByLabel, withShares } from '../../../shared/portfolio/allocation.ts';
import { momentNote, qualitySummary, unreadableValues } from '../../../shared/quality.ts';
import type { ReadableDB } from '../store/db.ts';
import { latestSnapshotsOf, nearestPositionDates, snapshotData, SnapshotGone, type LatestRow } from '../positions/index.ts';
import { checkDate } from '../store/validation.ts';
import { listWallets } from '../store/wallets.ts';
import { exposureOf, lendingRiskOf, memberOrder, unlocksOf } from '../analytics/index.ts';
import { spamJudge, type SharedJudge, type SpamJudge } from '../spam/index.ts';
import { decimalSumOrNull } from '../../../shared/decimal.ts';
import type { PositionRow } from '../../../shared/portfolio/rows.ts';
import type { SpamVerdict } from '../../../shared/spam.ts';
import { inputCounts } from './store/inputs.ts';
import type { MemberPart, MemberParts } from './parts.ts';
import { runSteps, runStepsUnlessAborted, stepsAgain, TURN_MS } from '../store/steps.ts';

const ENDPOINTS = ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'] as const;
type Endpoint = (typeof ENDPOINTS)[number];
/** Each endpoint's name in a member's `views`. */
export const VIEW_OF = { allPositions: 'all', positionsByUnderlying: 'underlying', liquidityAnalysis: 'liquidity' } as const;

/**
 * The view of `wallets` (a scope already resolved to its watched wallets) at `date`; its positions
 * judged by `share`'s judge when given (a pass of several reads: the pack).
 */
export function portfolioView(db: ReadableDB, wallets: readonly Wallet[], date: string, share?: SharedJudge): PortfolioView {
  return runSteps(viewSteps(db, wallets, date, undefined, undefined, share));
}

/**
 * The view's work, made again when a snapshot it listed is deleted before its turn reads it; a
 * shared judge is renewed then, so no day it read of the gone snapshot outlives the view.
 */
function viewSteps(
  db: ReadableDB,
  wallets: readonly Wallet[],
  date: string,
  parts?: MemberParts,
  uncommitted?: () => void,
  share?: SharedJudge,
): Generator<void, PortfolioView> {
  let made = 0;
  return stepsAgain(
    () => {
      if (made++) share?.renew();
      return buildView(db, wallets, date, parts, uncommitted, share?.current);
    },
    (e) => e instanceof SnapshotGone,
  );
}

/**
 * The same view for a caller that may stop wanting it (store/steps.ts): the work gives the event
 * loop a turn between members every few milliseconds, so an abort that arrives meanwhile stops it there.
 */
export function portfolioViewUnlessAborted(
  db: ReadableDB,
  wallets: readonly Wallet[],
  date: string,
  signal: AbortSignal,
  {
    turnMs = TURN_MS,
    parts,
    uncommitted,
    share,
  }: { turnMs?: number; parts?: MemberParts | undefined; uncommitted?: (() => void) | undefined; share?: SharedJudge | undefined } = {},
): Promise<PortfolioView> {
  return runStepsUnlessAborted(viewSteps(db, wallets, date, parts, uncommitted, share), signal, turnMs);
}

/** A member's key: its wallet and chain (as the latest snapshots and the nearest dates are looked up). */
const memberKey = (wallet: string, chain: string) => `${wallet}|${chain}`;

/** The view's work, member by member: it pauses (yields) after each one. */
function* buildView(
  db: ReadableDB,
  wallets: readonly Wallet[],
  date: string,
  parts?: MemberParts,
  uncommitted?: () => void,
  shared?: SpamJudge,
): Generator<void, PortfolioView> {
  checkDate('date', date);
  // The counters first: every part made below is then at least as new as the mark it is kept under
  // (./parts.ts). Not inside this connection's open transaction (a sync's batch written on this
  // thread, transactions/store/page-writer.ts, spans turns of the event loop): a rollback would
  // take the counters back to values later writes reach again with other data, so nothing read
  // then is given or kept under them.
  const inWrite = db.inTransaction;
  if (inWrite) uncommitted?.();
  const counts = parts && !inWrite ? inputCounts(db) : null;
  // Each member's kept part, if its inputs are unchanged; the rest are made below. A wallet's
  // counter moves with every write to its snapshots (and their checks), so the mark needs no
  // snapshot ids: the latest rows at the date are read only for the members made again.
  const made: Array<{ wallet: Wallet; chain: string; key: string; mark: string | null; part: MemberPart | undefined }> = [];
  for (const w of wallets)
    for (const chain of w.chains) {
      const key = `${date}|${memberKey(w.address, chain)}`;
      const mark = counts && `${counts.shared}:${counts.of(w.address)}`;
      made.push({ wallet: w, chain, key, mark, part: mark ? parts!.get(key, mark) : undefined });
    }
  const toMake = made.filter((m) => !m.part);
  if (toMake.length) {
    const rows = latestOf(db, date, wallets, new Set(toMake.map((m) => m.wallet.address)));
    // Made only when a member's part is not kept: it reads the user's marks and lists up front.
    const judge = shared ?? spamJudge(db, { wallets: wallets.map((w) => w.address) });
    for (const m of toMake) {
      const k = memberKey(m.wallet.address, m.chain);
      m.part = memberPart(
        db,
        m.wallet.address,
        m.chain,
        date,
        ENDPOINTS.map((e) => rows.get(e)!.get(k)),
        judge,
      );
      // Read in one stretch: kept only if no write of this connection was open meanwhile.
      if (db.inTransaction) uncommitted?.();
      else if (m.mark) parts!.set(m.key, m.mark, m.part);
      yield;
    }
  }

  // Where a member not fully cached at the date is cached instead (named, never used): read only
  // when one is, since it reads every member's dates (most of a fully cached fund's view's SQL).
  const done = made.map((m) => ({ wallet: m.wallet, part: m.part! }));
  const unplaced = done.filter((m) => m.part.coverage.state !== 'cached' && !m.part.nearest);
  if (unplaced.length) {
    const nearest = nearestPositionDates(db, date);
    for (const { part } of unplaced) {
      const near = nearest.get(memberKey(part.coverage.wallet, part.coverage.chain));
      part.nearest = { before: near?.before ?? null, after: near?.after ?? null };
    }
  }
  // In the order of MemberCoverage's fields, as `--json` has always written them.
  const members: MemberCoverage[] = done.map(({ wallet, part: { coverage: c, nearest } }) => ({
    wallet: c.wallet,
    label: wallet.label,
    chain: c.chain,
    state: c.state,
    views: c.views,
    unreadable: c.unreadable,
    quality: c.quality,
    moment: c.moment,
    nearestBefore: nearest?.before ?? null,
    nearestAfter: nearest?.after ?? null,
    fetchedAt: c.fetchedAt,
  }));
  const provenance = done.flatMap((m) => m.part.provenance);

  // The genuine positions as listed, member after member, each row's value summed once with its
  // part (a decimal sum each: at 100,000 rows most of the sort's time when done at every
  // comparison), and each row's member's place in the cache's order (memberOrder), so the sort
  // compares numbers only.
  const byMemberOrder = done.map((_, i) => i).sort((a, b) => memberOrder(done[a]!.part.coverage, done[b]!.part.coverage) || a - b);
  const rank = new Int32Array(done.length);
  byMemberOrder.forEach((m, place) => (rank[m] = place));
  const listed: PositionRow[] = [];
  const value: number[] = [];
  const rowRank: number[] = [];
  done.forEach(({ part }, m) =>
    part.genuine.forEach((r, i) => {
      listed.push(r);
      value.push(part.values[i]!);
      rowRank.push(rank[m]!);
    }),
  );
  // Largest first; ties by wallet and chain (as the cache orders them), then as the service listed them.
  const positions = listed
    .map((_, i) => i)
    .sort((a, b) => value[b]! - value[a]! || rowRank[a]! - rowRank[b]! || a - b)
    .map((i) => listed[i]!);
  // By wallet and chain as the cache orders them, then as listed: what the risk and unlocks read.
  const byMember = byMemberOrder.flatMap((m) => done[m]!.part.genuine);
  const underlying = done.flatMap((m) => m.part.underlying);
  const liquidity = done.flatMap((m) => m.part.liquidity);
  const spamRows = done.flatMap((m) => m.part.spam).sort((a, b) => knownValue(b.position) - knownValue(a.position) || memberOrder(a, b));

  // Each member's sums by label, made with its part, added up: a write to one member of a fund
  // sums that member's rows again, not the fund's. The labels in the order the positions meet them.
  const shares = (by: AllocationKey) => {
    const order = new Set<string>();
    for (const r of positions) order.add(allocationLabel(r, by));
    return withShares(
      allocationOfParts(
        order,
        done.map((m) => m.part.allocation[by]),
      ),
    );
  };
  const missing = members.filter((m) => m.state === 'not-cached');
  const counted = new Set(members.filter((m) => m.state !== 'not-cached').map((m) => m.wallet));
  provenance.sort((a, b) => a.wallet.localeCompare(b.wallet) || a.chain.localeCompare(b.chain) || a.endpoint.localeCompare(b.endpoint));
  const bothUnknown = (p: (typeof positions)[number]) => p.position.principal_nav === null && p.position.reward_nav === null;
  const view = {
    date,
    wallets: wallets.map((w) => w.address),
    members,
    // An empty scope covers nothing: never a complete portfolio.
    complete: members.length > 0 && missing.length === 0,
    missing,
    walletsCounted: counted.size,
    chainsCounted: [...new Set(members.filter((m) => m.state !== 'not-cached').map((m) => m.chain))].sort(),
    positions,
    underlying,
    // Each member's rows grouped with its part, joined: the same rows tokenRows(underlying) gives.
    tokens: tokenRowsOfParts(done.map((m) => m.part.tokens)),
    liquidity,
    // Members cached that list no position are worth 0: known, not unknown ("—").
    totals: !positions.length && counted.size ? { total: 0, principal: 0, reward: 0, count: 0 } : positionTotalsOf(done.map((m) => m.part.navs)),
    spam: { rows: spamRows, count: spamRows.length, claimed: decimalSumOrNull(spamRows.map((r) => r.total)) },
    unknownValues: positions.filter((p) => p.total === null).length,
    unknownIn: {
      principal: positions.some((p) => p.position._invalid?.['principal_nav'] !== undefined || bothUnknown(p)),
      reward: positions.some((p) => p.position._invalid?.['reward_nav'] !== undefined || bothUnknown(p)),
    },
    unreadableValues: members.reduce((n, m) => n + m.unreadable, 0),
    allocation: {
      assetType: shares('asset_type'),
      protocol: shares('protocol_id'),
      chain: shares('chain'),
    },
    provenance,
  };
  return { ...view, risk: lendingRiskOf(view, byMember), unlocks: unlocksOf(view, byMember), exposure: exposureOf(view) };
}

/**
 * The latest snapshot of each view at the date of the scope's members whose wallet is in
 * `wanted` (the members made again): one query per view for the whole date, or, for a few
 * wallets (a sync's, one wallet's view), one per wallet.
 */
function latestOf(db: ReadableDB, date: string, wallets: readonly Wallet[], wanted: ReadonlySet<string>): Map<Endpoint, Map<string, LatestRow>> {
  const inScope = new Set(wallets.flatMap((w) => (wanted.has(w.address) ? w.chains.map((c) => memberKey(w.address, c)) : [])));
  const out = new Map<Endpoint, Map<string, LatestRow>>();
  for (const endpoint of ENDPOINTS) {
    const found = latestSnapshotsOf(db, endpoint, date, wanted);
    out.set(endpoint, new Map(found.filter((r) => inScope.has(memberKey(r.wallet, r.chain))).map((r) => [memberKey(r.wallet, r.chain), r])));
  }
  return out;
}

/**
 * One member's part of the view at a date (./parts.ts): its snapshots read and parsed, its
 * coverage and provenance, its positions judged for spam (with its day's other views), and its
 * rows. Spam is judged here, for every screen, report and the CLI (docs/spam.md): its positions,
 * the tokens they hold and their liquidity rows leave every table and total.
 */
function memberPart(db: ReadableDB, wallet: string, chain: string, date: string, found: ReadonlyArray<LatestRow | undefined>, judge: SpamJudge): MemberPart {
  const views = { all: false, underlying: false, liquidity: false };
  const quality = { all: '', underlying: '', liquidity: '' };
  let unreadable = 0;
  let moment: string | null = null;
  const fetched: string[] = [];
  const provenance: PortfolioProvenance[] = [];
  const data = new Map<Endpoint, unknown[] | null>();
  ENDPOINTS.forEach((endpoint, i) => {
    const r = found[i];
    const body = r ? (snapshotData(db, r.id) as unknown[]) : null;
    data.set(endpoint, body);
    if (!r) return;
    const flags = r.quality ? (JSON.parse(r.quality) as ValueFlag[]) : [];
    views[VIEW_OF[endpoint]] = true;
    quality[VIEW_OF[endpoint]] = qualitySummary(flags, body!);
    unreadable += unreadableValues(flags).length;
    moment ??= momentNote(flags);
    fetched.push(r.fetched_at);
    provenance.push({ wallet, chain, endpoint, asOf: r.as_of, fetchedAt: r.fetched_at, requestId: r.request_id, sha256: r.sha256, flags });
  });
  // The judge is given the day's views rather than reading and parsing them again (at a fund's
  // scale, a fifth of the view's time).
  judge.knowDay(wallet, chain, date, {
    underlying: data.get('positionsByUnderlying') as SnapshotDataByEndpoint['positionsByUnderlying'][] | null,
    liquidity: data.get('liquidityAnalysis') as SnapshotDataByEndpoint['liquidityAnalysis'][] | null,
  });
  const of = (e: Endpoint): SnapshotResults => {
    const body = data.get(e);
    return [{ wallet, chains: [{ chain, snapshot: body ? { data: body } : null }] }];
  };
  const { genuine, spam, spamTokens } = withoutSpam(positionRows(of('allPositions')), date, judge);
  const values = genuine.map((r) => knownValue(r.position));
  // A row's risk is its position's: by key, the last of a key in the view's order winning, as
  // the view orders them (largest first, then as listed: a stable sort within one member).
  const byValue = genuine.map((_, i) => i).sort((a, b) => values[b]! - values[a]!);
  const spamKeys = new Set(spam.rows.map((r) => r.key));
  const underlying = underlyingRows(of('positionsByUnderlying')).filter((u) => !spamTokens.has(`${u.wallet}|${u.chain}|${u.group.token_id}`));
  return {
    coverage: {
      wallet,
      chain,
      state: !views.all ? 'not-cached' : views.underlying && views.liquidity ? 'cached' : 'views-missing',
      views,
      unreadable,
      quality,
      moment,
      fetchedAt: fetched.sort().at(-1) ?? null,
    },
    provenance,
    genuine,
    values,
    navs: navSums(genuine.map((r) => r.position)),
    allocation: {
      asset_type: exactByLabel(
        genuine,
        (r) => allocationLabel(r, 'asset_type'),
        (_, i) => values[i]!,
      ),
      protocol_id: exactByLabel(
        genuine,
        (r) => allocationLabel(r, 'protocol_id'),
        (_, i) => values[i]!,
      ),
      chain: exactByLabel(
        genuine,
        (r) => allocationLabel(r, 'chain'),
        (_, i) => values[i]!,
      ),
    },
    spam: spam.rows,
    underlying,
    tokens: tokenPart(chain, underlying),
    liquidity: liquidityRows(of('liquidityAnalysis'), new Map(byValue.map((i) => [genuine[i]!.key, genuine[i]!.atRisk]))).filter((l) => !spamKeys.has(l.key)),
  };
}

/**
 * A day's position rows split into the genuine and the spam (the judge's verdict per position, with
 * the day's other views), and the token ids the spam positions hold (their by-token rows go too).
 */
export function withoutSpam(
  rows: readonly PositionRow[],
  date: string,
  judge: SpamJudge,
): { genuine: PositionRow[]; spam: PortfolioView['spam']; spamTokens: Set<string> } {
  const genuine: PositionRow[] = [];
  const left: Array<PositionRow & { verdict: SpamVerdict }> = [];
  const byMember = new Map<string, PositionRow[]>();
  for (const r of rows) {
    const k = `${r.wallet}|${r.chain}`;
    const member = byMember.get(k);
    if (member) member.push(r);
    else byMember.set(k, [r]);
  }
  for (const member of byMember.values()) {
    const verdicts = judge.positions(
      member[0]!.wallet,
      member[0]!.chain,
      date,
      member.map((r) => r.position),
    );
    member.forEach((r, i) => (verdicts[i]!.spam ? left.push({ ...r, verdict: verdicts[i]! }) : genuine.push(r)));
  }
  // Back in the order they came (the caller sorts the genuine ones as it always has).
  const order = new Map(rows.map((r, i) => [r, i]));
  genuine.sort((a, b) => order.get(a)! - order.get(b)!);
  left.sort((a, b) => knownValue(b.position) - knownValue(a.position) || memberOrder(a, b));
  const spamTokens = new Set(left.flatMap((r) => r.position.underlying.map((u) => `${r.wallet}|${r.chain}|${u.internal_id}`)));
  // A token a genuine position holds too stays: only what nothing but spam holds leaves the by-token table.
  for (const r of genuine) for (const u of r.position.underlying) spamTokens.delete(`${r.wallet}|${r.chain}|${u.internal_id}`);
  return {
    genuine,
    spam: { rows: left, count: left.length, claimed: decimalSumOrNull(left.map((r) => r.total)) },
    spamTokens,
  };
}

/** The watched wallets of a scope given as addresses (a group's members, one wallet), or all. */
export function walletsOf(db: ReadableDB, addresses?: readonly string[]): Wallet[] {
  const all = listWallets(db);
  return addresses ? all.filter((w) => addresses.includes(w.address)) : all;
}

/** Exposure per token at a date over a scope (every watched wallet when none is given): the view's. */
export const exposureAt = (db: ReadableDB, date: string, wallets?: readonly string[]) => portfolioView(db, walletsOf(db, wallets), date).exposure;

/** Lending risk at a date over a scope (every watched wallet when none is given): the view's. */
export const lendingRisk = (db: ReadableDB, date: string, wallets?: readonly string[]) => portfolioView(db, walletsOf(db, wallets), date).risk;

/** Unlocks on or after a date over a scope (every watched wallet when none is given): the view's. */
export const unlockLadder = (db: ReadableDB, date: string, wallets?: readonly string[]) => portfolioView(db, walletsOf(db, wallets), date).unlocks;
