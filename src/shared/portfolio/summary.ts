/**
 * What a screen of the portfolio shows, without the rest of the view (issue 40 item 2): the
 * summary of a scope at a date (totals, allocation, exposure, risk, unlocks, coverage and spam
 * counted, and the first page of rows) and a page of its rows, sorted and filtered in the core.
 * Both are cut from the one portfolio view (./view.ts), so a figure is the view's to the cent;
 * what they leave out is only what a screen does not show at once (every row, every member that
 * is fully cached, each token's holders, the responses' provenance). A fund of 1,000 wallets on
 * 6 chains has 6,000 members and tens of thousands of rows: the whole view is tens of megabytes.
 */
import type { Freshness, UnlockRow } from '../model.ts';
import type { LiquidityRow, PositionRow, UnderlyingRow } from './rows.ts';
import type { TokenRow } from './tokens.ts';
import type { PositionTotals } from './totals.ts';
import type { AllocationShares, MemberCoverage, PortfolioView, SpamLeftOut } from './view.ts';

/**
 * The tables a page is cut from: the view's positions, its by-token rows (one per wallet chain
 * and token), its tokens (one row per token across wallets and chains, its holdings beneath: what
 * Positions "by token" shows), its liquidity rows, or the positions left out as spam.
 */
export const ROW_TABLES = ['positions', 'underlying', 'tokens', 'liquidity', 'spam'] as const;
export type RowTable = (typeof ROW_TABLES)[number];

/**
 * What rows are ordered by. `value`: the row's known value (a position's known members, a token's
 * total NAV), largest first by default, as the view orders them; the others A to Z by default.
 * `name`: a position's name (else its symbol), a token's symbol (else its name), a liquidity
 * row's token name. For the liquidity table `value` is the share owned (it has no value); for the
 * spam table, the value claimed. The tokens table (one row across wallets and chains) sorts by
 * value, symbol or name only. Ties keep the view's own order (by value, then wallet and chain as
 * the cache orders them).
 */
export const ROW_SORTS = ['value', 'wallet', 'chain', 'protocol', 'symbol', 'name'] as const;
export type RowSort = (typeof ROW_SORTS)[number];

/** The largest page a caller may ask for, and the one given when it names none. */
export const ROW_PAGE_MAX = 500;
export const ROW_PAGE_DEFAULT = 100;
/** The holdings a token of a page lists, largest value first (the by-token CSV lists every one). */
export const TOKEN_HOLDINGS_MAX = 25;
/** Members not fully cached listed in a summary when the caller names no limit (the rest by page). */
export const MEMBER_PAGE_DEFAULT = 100;
/** How many of each short list a summary names (largest tokens, soonest unlocks, spam, lending at risk). */
export const SUMMARY_TOP = 10;
/** Spam rows given whole in a summary when the caller names no limit (the table beside the totals, largest claim first). */
export const SPAM_PAGE_DEFAULT = 100;

export interface RowFilter {
  /** A chain id, exactly. */
  chain?: string | undefined;
  /** A wallet of the scope (an EVM address in any case). */
  wallet?: string | undefined;
  /** A protocol id, exactly (positions; a by-token row matches when one of its breakdown's entries is of it). */
  protocol?: string | undefined;
  /** Text found in the row's symbol or name (or one of its tokens'), in any case. */
  text?: string | undefined;
}

export interface RowQuery {
  table?: RowTable | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  sort?: RowSort | undefined;
  order?: 'asc' | 'desc' | undefined;
  filter?: RowFilter | undefined;
  /**
   * Positions only: `protocol` orders the rows protocol by protocol (the protocol of the largest
   * total first, as the screen groups them; the sort asked within each) and gives each
   * protocol's subtotals (`groups`), so a page grouped by protocol shows whole figures.
   */
  groupBy?: 'protocol' | undefined;
}

/** A protocol's positions that pass the filter: how many and their totals (null: positions of no protocol). */
export interface ProtocolGroup {
  protocol: string | null;
  count: number;
  totals: PositionTotals;
}

interface PageOf<T extends RowTable, R> {
  table: T;
  offset: number;
  limit: number;
  sort: RowSort;
  order: 'asc' | 'desc';
  /** Rows that pass the filter (every page's rows together). */
  total: number;
  /** Rows of the table before the filter. */
  of: number;
  rows: R[];
  /** The view's: whether every member of the scope is in the rows, and how many members are not (not cached at the date). */
  complete: boolean;
  notCached: number;
}

/** A page of positions, with the totals of every row that passes the filter (not only this page's). */
export type PositionsPage = PageOf<'positions', PositionRow> & {
  totals: PositionTotals;
  /** Asked with `groupBy: 'protocol'`: every protocol's subtotals over the filtered rows, in the rows' order. */
  groups?: ProtocolGroup[];
};
/** A page of by-token rows, with the summed value of every row that passes the filter (null: none known). */
export type UnderlyingPage = PageOf<'underlying', UnderlyingRow> & { totalNav: number | null };
/**
 * A page of tokens (one row per token across wallets and chains, each with its holdings), with
 * the summed value of every token that passes the filter. A chain or wallet filter keeps the
 * tokens with a holding there, whole (their other holdings too).
 */
export type TokensPage = PageOf<'tokens', TokenPageRow> & { totalNav: number | null };
/**
 * A token of a page: its figures whole, its holdings the largest TOKEN_HOLDINGS_MAX (a token of a
 * fund is held by thousands of wallet chains: a page of every holder would be tens of megabytes),
 * with how many holdings and positions it has in all.
 */
export type TokenPageRow = TokenRow & { holdingCount: number; positions: number };
/** A page of liquidity rows (no value of their own to total). */
export type LiquidityPage = PageOf<'liquidity', LiquidityRow>;
/** A page of the positions left out as spam, each with its verdict, and what the filtered ones claimed. */
export type SpamPage = PageOf<'spam', SpamLeftOut['rows'][number]> & { claimed: number | null };
export type RowsPage = PositionsPage | UnderlyingPage | TokensPage | LiquidityPage | SpamPage;

export interface PortfolioSummary {
  date: string;
  /** How many wallets the scope holds (their addresses: `coverage`, the rows, or the whole view). */
  walletCount: number;
  complete: boolean;
  walletsCounted: number;
  chainsCounted: string[];
  totals: PositionTotals;
  unknownValues: number;
  unknownIn: PortfolioView['unknownIn'];
  unreadableValues: number;
  allocation: { assetType: AllocationShares; protocol: AllocationShares; chain: AllocationShares };
  /** How many rows each of the view's tables holds. */
  rowCounts: { positions: number; underlying: number; liquidity: number };
  coverage: {
    /** Members (wallet × chain) of the scope, and how many are in each state. */
    members: number;
    cached: number;
    viewsMissing: number;
    notCached: number;
    /** Members whose three views could not be read as one moment. */
    moments: number;
    /** When the responses behind the figures were sent, oldest and newest. */
    fetched: { oldest: string | null; newest: string | null };
    /**
     * The members not fully cached (views missing, or not cached: those are not in the totals),
     * in the view's order, a page of them: a fully cached member needs no word on a screen.
     */
    notFullyCached: { offset: number; limit: number; total: number; members: MemberCoverage[] };
    /**
     * The members, cached or not, whose responses carry a data-quality line (values the service
     * sent unreadable: src/shared/quality.ts), the first MEMBER_PAGE_DEFAULT of them in the view's
     * order, and how many there are: Positions names them above its tables. Of those with a line
     * on their positions (the all-positions view; Overview's line): how many, the unreadable
     * values in them, how many could not be read as one moment, and the first few lines.
     */
    quality: {
      total: number;
      members: Array<Pick<MemberCoverage, 'wallet' | 'label' | 'chain' | 'quality' | 'unreadable'>>;
      noted: number;
      values: number;
      moments: number;
      notes: Array<{ wallet: string; chain: string; note: string }>;
    };
  };
  /**
   * Each wallet's totals, a page of the scope's wallets in the view's order (`wallets` in the
   * request): the same rule as the view's totals over that wallet's rows.
   */
  wallets: { offset: number; limit: number; total: number; rows: Array<{ wallet: string; totals: PositionTotals }> };
  /** Positions judged spam: counted and what they claimed; never in the rows or any figure. */
  spam: {
    count: number;
    claimed: number | null;
    /** The largest claimed first (the view's order), a few. */
    top: Array<{ wallet: string; chain: string; symbol: string | null; name: string | null; claimed: number | null; reasons: string[] }>;
    /**
     * The first of them whole, as the view has them (a page: `spam.limit` in the request, else
     * SPAM_PAGE_DEFAULT): what the spam table beside the totals shows and marks "not spam".
     */
    rows: SpamLeftOut['rows'];
  };
  exposure: {
    totalNav: number;
    tokens: number;
    /** The largest tokens, without each holder's figure (the whole view or `exposure.get` has them). */
    top: Array<{
      tokenId: string;
      symbol: string | null;
      name: string | null;
      totalQty: number;
      totalNav: number;
      holders: number;
      unreadable: boolean;
      /** The chains it is held on, each once, as its holders come (a token is held on a few chains at most). */
      chains: string[];
      /** Its first few holders with their figures, in the view's order (`holders` says how many in all). */
      heldBy: Array<{ wallet: string; chain: string; qty: number; nav: number }>;
    }>;
    /** Members whose by-token view is not cached at the date. */
    missing: number;
    freshness: Freshness;
    flagged: number;
  };
  risk: {
    /** Lending positions with a ratio and threshold, those below the risk margin, those with either unknown. */
    positions: number;
    atRisk: number;
    unknown: number;
    /** The lowest health first, a few. */
    lowest: Array<{ wallet: string; chain: string; protocolId: string | null; name: string | null; health: number; atRisk: boolean }>;
  };
  unlocks: { count: number; next: UnlockRow[] };
  /** The first page of positions (as asked, else the largest first). */
  rows: PositionsPage;
}
