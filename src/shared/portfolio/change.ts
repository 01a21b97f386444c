/**
 * The change since an earlier cached date (issue 39, item 4): per position and per token, the
 * value and quantity at the as-of date less those at the earlier one, computed in the core from
 * the portfolio view at both dates (src/main/core/portfolio/change.ts), so spam, coverage and
 * unreadable values are judged as the view judges them. A change nobody can know is null ("—"
 * with its reason), never 0.
 */
import type { Position } from '../service/schemas.ts';
import type { PositionRow } from './rows.ts';
import type { TokenRow } from './tokens.ts';
import { impliedPrice } from './tokens.ts';
import { decimalSum } from '../decimal.ts';

/**
 * - `held`: at both dates;
 * - `new`: not at the earlier date, though its wallet chain was cached then (from 0);
 * - `gone`: at the earlier date, not at the as-of date, its wallet chain cached at both (to 0);
 * - `unknown`: its wallet chain (or, by token, some wallet chain of the scope) is not cached at
 *   one of the dates, so whether it was held then cannot be told.
 */
export type ChangeState = 'held' | 'new' | 'gone' | 'unknown';

/**
 * Why a change is null:
 * - `not-cached`: a wallet chain is not cached at one of the two dates (`notCached` names them);
 * - `value-unknown`: a value was not sent, or unreadable, at a date the row exists;
 * - `qty-unknown`: likewise its quantity;
 * - `several-tokens`: a position of several tokens has no one quantity (its tokens are beneath).
 */
export type ChangeWhy = 'not-cached' | 'value-unknown' | 'qty-unknown' | 'several-tokens';

export interface RowChange {
  state: ChangeState;
  /** Value at the as-of date less value at the earlier date; null: unknown (`valueWhy`). */
  value: number | null;
  valueWhy: ChangeWhy | null;
  /** Likewise the quantity (one token's units). */
  qty: number | null;
  qtyWhy: ChangeWhy | null;
}

export interface MemberRef {
  wallet: string;
  label: string | null;
  chain: string;
}

export interface PortfolioChange {
  date: string;
  since: string;
  /**
   * By position row key (PositionRow.key), for the rows at the as-of date: those asked (`keys`: a
   * screen's page), else every one (at a fund's scale ~180 bytes a row, megabytes whole).
   */
  positions: Record<string, RowChange>;
  /** Positions at the earlier date that are gone since, each with its change (to 0); none when asked without (`gone: false`). */
  gone: Array<PositionRow & { change: RowChange }>;
  /** By token row key (TokenRow.key), for the rows at the as-of date: those asked (`tokenKeys`), else every one. */
  tokens: Record<string, RowChange>;
  goneTokens: Array<TokenRow & { change: RowChange }>;
  /**
   * The change of the total value: the sum of every row's change, gone ones included (equal to
   * the total at the as-of date less the total then). Null when some row's change is unknown.
   */
  total: number | null;
  totalWhy: ChangeWhy | null;
  /**
   * How many position rows (at the as-of date, and gone) have a change of value nobody can know
   * for a reason other than a wallet chain not cached (that one is named in `notCached`): over
   * every row, whichever were asked.
   */
  unknown: number;
  /** Wallet chains whose positions are cached at one of the two dates only, and which date lacks them. */
  notCached: Array<MemberRef & { date: string }>;
  /** The same for the by-token view (which by-token changes depend on). */
  notCachedTokens: Array<MemberRef & { date: string }>;
}

/**
 * A position's one quantity and its implied price: those of its token when it holds exactly one;
 * null for a position of several tokens (each is shown beneath) or of none.
 */
export function positionQuantity(p: Pick<Position, 'underlying'>): { qty: number | null; price: number | null; tokens: number } {
  const [only, ...more] = p.underlying;
  if (!only || more.length) return { qty: null, price: null, tokens: p.underlying.length };
  const qty = only._invalid?.['qty'] !== undefined ? null : only.qty;
  const nav = only._invalid?.['nav'] !== undefined ? null : only.nav;
  return { qty, price: impliedPrice(nav, qty), tokens: 1 };
}

/** A change of value nobody can know for a reason other than a wallet chain not cached (that one is named apart). */
export const unknownChange = (c: RowChange | undefined): boolean => !!c && c.value === null && c.valueWhy !== 'not-cached';

/** The sum of changes, null as soon as one is unknown (a partial sum would pass for the whole). */
export function changeSum(values: ReadonlyArray<number | null>): number | null {
  return values.some((v) => v === null) ? null : decimalSum(values as number[]);
}
