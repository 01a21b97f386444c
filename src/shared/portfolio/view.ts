/**
 * The portfolio view: what a wallet, a group or all wallets hold at a date, assembled once in
 * the core (src/main/core/portfolio/) and read by every screen, report and the CLI, so a figure
 * cannot differ between them. Its coverage says, member by member (wallet × chain), what the
 * figures stand on; a total over a scope with a member not covered is partial and says so.
 */
import type { ValueFlag } from '../service/schemas.ts';
import type { Exposure, RiskOverview, UnlockLadder } from '../model.ts';
import type { LiquidityRow, PositionRow, UnderlyingRow } from './rows.ts';
import type { AllocationEntry } from './allocation.ts';
import type { PositionTotals } from './totals.ts';
import type { SpamVerdict } from '../spam.ts';
import type { TokenRow } from './tokens.ts';

/**
 * One member's standing at the date:
 * - `cached`: all three views were cached at the date;
 * - `views-missing`: the positions view is cached at the date (the member is in the totals), but
 *   not both of the other two (the by-token or liquidity table lacks the member);
 * - `not-cached`: the positions view is not cached at the date (the member is not in the totals). The nearest cached dates are named, never used: a figure
 *   of another day would pass for this one's.
 */
export type MemberState = 'cached' | 'views-missing' | 'not-cached';

export interface MemberCoverage {
  wallet: string;
  /** The wallet's label, if the user gave one. */
  label: string | null;
  chain: string;
  state: MemberState;
  /** Which of the three views are cached at the date. */
  views: { all: boolean; underlying: boolean; liquidity: boolean };
  /** Values the service sent unreadable in this member's responses (left out of every total). */
  unreadable: number;
  /** The data-quality line of each view's response, where it has one (src/shared/quality.ts). */
  quality: { all: string; underlying: string; liquidity: string };
  /**
   * Set when the three views at the date could not be read as one moment (a live service's
   * snapshot changed between the requests, every time: positions/sync.ts readOneMoment): how they
   * differ, so the by-token and liquidity tables may not match the positions. Null when they agree.
   */
  moment: string | null;
  /** The nearest dates at which this member is cached, before and after the date (not used); null for a member cached in all three views at the date. */
  nearestBefore: string | null;
  nearestAfter: string | null;
  /** When the responses behind the member's figures were last sent by the service. */
  fetchedAt: string | null;
}

export type AllocationShares = Array<AllocationEntry & { share: number }>;

export interface PortfolioProvenance {
  wallet: string;
  chain: string;
  endpoint: 'allPositions' | 'positionsByUnderlying' | 'liquidityAnalysis';
  asOf: string;
  fetchedAt: string;
  requestId: string | null;
  sha256: string;
  flags: ValueFlag[];
}

/**
 * Positions judged spam (docs/spam.md): kept in the cache, shown on request, and left out of
 * every total, allocation, exposure and table of the view, which says so beside its totals.
 */
export interface SpamLeftOut {
  /** The positions left out, largest claimed value first, each with its verdict and reasons. */
  rows: Array<PositionRow & { verdict: SpamVerdict }>;
  count: number;
  /** What the service said they were worth (their known values summed): never in a total. */
  claimed: number | null;
}

export interface PortfolioView {
  date: string;
  /** The wallets of the scope, in the order they are watched. */
  wallets: string[];
  /** Every member (wallet × chain) of the scope and what the figures stand on there. */
  members: MemberCoverage[];
  /**
   * Whether the totals cover the whole scope: every member's positions cached at the date. A
   * view that is not complete is partial, and every screen and report that shows its totals
   * says so, naming the members in `missing`.
   */
  complete: boolean;
  /** The members whose positions are not in the totals (state `not-cached`). */
  missing: MemberCoverage[];
  /** Wallets with at least one member counted, of the wallets in the scope. */
  walletsCounted: number;
  chainsCounted: string[];
  /** Largest value first. */
  positions: PositionRow[];
  underlying: UnderlyingRow[];
  /**
   * The by-token rows (`underlying`) as one row per token across wallets and chains, each with its
   * holdings beneath (./tokens.ts): Positions "by token" shows these.
   */
  tokens: TokenRow[];
  liquidity: LiquidityRow[];
  totals: PositionTotals;
  /** Positions judged spam: not in `positions`, the totals, allocation, exposure or risk. */
  spam: SpamLeftOut;
  /** Positions whose value is unknown (sent unreadable, or not at all): left out of the totals. */
  unknownValues: number;
  /** Which of the totals leave an unreadable value out. */
  unknownIn: { principal: boolean; reward: boolean };
  /** Values the service sent unreadable over the whole view. */
  unreadableValues: number;
  allocation: { assetType: AllocationShares; protocol: AllocationShares; chain: AllocationShares };
  /** The responses behind the figures. */
  provenance: PortfolioProvenance[];
  /** Lending positions with their ratio and threshold, from the same positions. */
  risk: RiskOverview;
  /** Locked tokens unlocking on or after the date. */
  unlocks: UnlockLadder;
  /** Exposure per underlying token, from the by-token table. */
  exposure: Exposure;
}

/** "Wallet label or 0x12ab…cd (chain)" for each member, as every report names them. */
export function memberNames(members: ReadonlyArray<Pick<MemberCoverage, 'wallet' | 'chain' | 'label'>>): string[] {
  return members.map((m) => `${m.label || `${m.wallet.slice(0, 6)}…${m.wallet.slice(-4)}`} (${m.chain})`);
}

/** One sentence saying why a view's totals are partial; null when the view is complete. */
export function partialReason(view: Pick<PortfolioView, 'complete' | 'missing' | 'date'>): string | null {
  if (view.complete) return null;
  const names = memberNames(view.missing);
  return `Partial: ${names.length} of the scope's wallet chains ${names.length === 1 ? 'is' : 'are'} not cached at ${view.date} and not in the totals: ${names.join(', ')}.`;
}
