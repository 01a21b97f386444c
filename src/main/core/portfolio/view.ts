/**
 * The one portfolio view (src/shared/portfolio/view.ts): a wallet, a group or all wallets at a
 * date, read from the cache in one pass. Overview, Positions, the PDF, the position CSVs and
 * the CLI all read this, so a total, its allocation and what it leaves out are judged once.
 */
import type { ValueFlag } from '../../../shared/service/schemas.ts';
import type { SnapshotDataByEndpoint, Wallet } from '../../../shared/model.ts';
import type { MemberCoverage, PortfolioProvenance, PortfolioView } from '../../../shared/portfolio/view.ts';
import { liquidityRows, positionRows, underlyingRows, type SnapshotResults } from '../../../shared/portfolio/rows.ts';
import { tokenRows } from '../../../shared/portfolio/tokens.ts';
import { knownValue, positionTotals } from '../../../shared/portfolio/totals.ts';
import { allocation, withShares } from '../../../shared/portfolio/allocation.ts';
import { momentNote, qualitySummary, unreadableValues } from '../../../shared/quality.ts';
import type { ReadableDB } from '../store/db.ts';
import { latestSnapshots, nearestPositionDates, snapshotData, type LatestRow } from '../positions/index.ts';
import { checkDate } from '../store/validation.ts';
import { listWallets } from '../store/wallets.ts';
import { exposureOf, lendingRiskOf, memberOrder, unlocksOf } from '../analytics/index.ts';
import { spamJudge, type SpamJudge } from '../spam/index.ts';
import { decimalSumOrNull } from '../../../shared/decimal.ts';
import type { PositionRow } from '../../../shared/portfolio/rows.ts';
import type { SpamVerdict } from '../../../shared/spam.ts';

const ENDPOINTS = ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'] as const;
type Endpoint = (typeof ENDPOINTS)[number];
/** Each endpoint's name in a member's `views`. */
export const VIEW_OF = { allPositions: 'all', positionsByUnderlying: 'underlying', liquidityAnalysis: 'liquidity' } as const;

/** The view of `wallets` (a scope already resolved to its watched wallets) at `date`. */
export function portfolioView(db: ReadableDB, wallets: readonly Wallet[], date: string): PortfolioView {
  const steps = buildView(db, wallets, date);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same view for a caller that may stop wanting it (a screen left, a newer date picked:
 * cancellation across the contract, app.ts): the work gives the event loop a turn between
 * members every few milliseconds, so an abort that arrives meanwhile stops it there.
 */
export async function portfolioViewUnlessAborted(
  db: ReadableDB,
  wallets: readonly Wallet[],
  date: string,
  signal: AbortSignal,
  turnMs = TURN_MS,
): Promise<PortfolioView> {
  const steps = buildView(db, wallets, date);
  let since = performance.now();
  for (;;) {
    signal.throwIfAborted();
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - since >= turnMs) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
}

/** How long the view's work runs before it lets an abort (or anything else waiting) in. */
const TURN_MS = 8;

/** The view's work, member by member: it pauses (yields) after each one. */
function* buildView(db: ReadableDB, wallets: readonly Wallet[], date: string, judge?: SpamJudge): Generator<void, PortfolioView> {
  checkDate('date', date);
  const memberKey = (wallet: string, chain: string) => `${wallet}|${chain}`;
  const inScope = new Set(wallets.flatMap((w) => w.chains.map((c) => memberKey(w.address, c))));
  const oneWallet = wallets.length === 1 ? wallets[0]!.address : undefined;
  const rows = new Map<Endpoint, Map<string, LatestRow>>();
  for (const endpoint of ENDPOINTS) {
    const found = latestSnapshots(db, endpoint, { date, ...(oneWallet && { wallet: oneWallet }) }).filter((r) => inScope.has(memberKey(r.wallet, r.chain)));
    rows.set(endpoint, new Map(found.map((r) => [memberKey(r.wallet, r.chain), r])));
  }
  // Spam is judged with each member's day as read here: the judge is given the views rather than
  // reading and parsing them again (at a fund's scale, a fifth of the view's time).
  const judged = judge ?? spamJudge(db, { wallets: wallets.map((w) => w.address) });

  const members: MemberCoverage[] = [];
  const provenance: PortfolioProvenance[] = [];
  // Each view's snapshots per wallet and chain, in the order the wallets and chains are watched.
  const results = new Map<Endpoint, Array<{ wallet: string; chains: Array<{ chain: string; snapshot: { data: unknown[] } | null }> }>>(
    ENDPOINTS.map((e) => [e, []]),
  );
  for (const w of wallets) {
    for (const e of ENDPOINTS) results.get(e)!.push({ wallet: w.address, chains: [] });
    for (const chain of w.chains) {
      const k = memberKey(w.address, chain);
      const views = { all: false, underlying: false, liquidity: false };
      const quality = { all: '', underlying: '', liquidity: '' };
      let unreadable = 0;
      let moment: string | null = null;
      const fetched: string[] = [];
      for (const endpoint of ENDPOINTS) {
        const r = rows.get(endpoint)!.get(k);
        const data = r ? (snapshotData(db, r.id) as unknown[]) : null;
        results
          .get(endpoint)!
          .at(-1)!
          .chains.push({ chain, snapshot: data && { data } });
        if (!r) continue;
        const flags = r.quality ? (JSON.parse(r.quality) as ValueFlag[]) : [];
        views[VIEW_OF[endpoint]] = true;
        quality[VIEW_OF[endpoint]] = qualitySummary(flags, data!);
        unreadable += unreadableValues(flags).length;
        moment ??= momentNote(flags);
        fetched.push(r.fetched_at);
        provenance.push({ wallet: w.address, chain, endpoint, asOf: r.as_of, fetchedAt: r.fetched_at, requestId: r.request_id, sha256: r.sha256, flags });
      }
      const dataOf = (endpoint: Endpoint) => results.get(endpoint)!.at(-1)!.chains.at(-1)!.snapshot?.data ?? null;
      judged.knowDay(w.address, chain, date, {
        underlying: dataOf('positionsByUnderlying') as SnapshotDataByEndpoint['positionsByUnderlying'][] | null,
        liquidity: dataOf('liquidityAnalysis') as SnapshotDataByEndpoint['liquidityAnalysis'][] | null,
      });
      yield;
      members.push({
        wallet: w.address,
        label: w.label,
        chain,
        state: !views.all ? 'not-cached' : views.underlying && views.liquidity ? 'cached' : 'views-missing',
        views,
        unreadable,
        quality,
        moment,
        nearestBefore: null,
        nearestAfter: null,
        fetchedAt: fetched.sort().at(-1) ?? null,
      });
    }
  }

  // Where a member not fully cached at the date is cached instead (named, never used): read only
  // when one is, since it reads every member's dates (most of a fully cached fund's view's SQL).
  if (members.some((m) => m.state !== 'cached')) {
    const nearest = nearestPositionDates(db, date);
    for (const m of members) {
      if (m.state === 'cached') continue;
      const near = nearest.get(memberKey(m.wallet, m.chain));
      m.nearestBefore = near?.before ?? null;
      m.nearestAfter = near?.after ?? null;
    }
  }

  const of = (e: Endpoint): SnapshotResults => results.get(e)!;
  // Spam is judged once here, for every screen, report and the CLI (docs/spam.md): its positions,
  // the tokens they hold and their liquidity rows leave every table and total below.
  const { genuine: listed, spam, spamTokens } = withoutSpam(positionRows(of('allPositions')), date, judged);
  // Largest first; ties by wallet and chain (as the cache orders them), then as the service listed them.
  // Each row's value summed once, not at every comparison (a decimal sum each: most of the sort's time at 100,000 rows).
  const values = new Map(listed.map((r) => [r, knownValue(r.position)]));
  const positions = [...listed].sort((a, b) => values.get(b)! - values.get(a)! || memberOrder(a, b));
  const underlying = underlyingRows(of('positionsByUnderlying')).filter((u) => !spamTokens.has(`${u.wallet}|${u.chain}|${u.group.token_id}`));
  const spamKeys = new Set(spam.rows.map((r) => r.key));
  const liquidity = liquidityRows(of('liquidityAnalysis'), new Map(positions.map((p) => [p.key, p.atRisk]))).filter((l) => !spamKeys.has(l.key));

  // Each row's value as summed once above, not again for each of the three allocations.
  const shares = (key: (r: (typeof positions)[number]) => string) => withShares(allocation(positions, key, (r) => values.get(r)!));
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
    tokens: tokenRows(underlying),
    liquidity,
    // Members cached that list no position are worth 0: known, not unknown ("—").
    totals: !positions.length && counted.size ? { total: 0, principal: 0, reward: 0, count: 0 } : positionTotals(positions.map((p) => p.position)),
    spam,
    unknownValues: positions.filter((p) => p.total === null).length,
    unknownIn: {
      principal: positions.some((p) => p.position._invalid?.['principal_nav'] !== undefined || bothUnknown(p)),
      reward: positions.some((p) => p.position._invalid?.['reward_nav'] !== undefined || bothUnknown(p)),
    },
    unreadableValues: members.reduce((n, m) => n + m.unreadable, 0),
    allocation: {
      assetType: shares((r) => r.position.asset_type ?? 'unknown'),
      protocol: shares((r) => r.position.protocol_id ?? 'unknown'),
      chain: shares((r) => r.chain),
    },
    provenance,
  };
  return { ...view, risk: lendingRiskOf(view, listed), unlocks: unlocksOf(view, listed), exposure: exposureOf(view) };
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
