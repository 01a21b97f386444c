/**
 * Exposure per underlying token over a scope at a date, from the portfolio view's by-token
 * table: the members it lacks are the view's, named, never a smaller figure said whole.
 */
import type { Exposure, TokenExposure } from '../../../shared/model.ts';
import { tokenRows, type TokenRow } from '../../../shared/portfolio/tokens.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import { decimalSum } from '../../../shared/decimal.ts';
import { unreadableValues } from '../../../shared/quality.ts';

/**
 * One row per token across wallets and chains (issue 39, item 17): UNI held on eth and on arb is
 * one exposure, each wallet chain's own figure kept beneath it. Grouped as Positions groups "by
 * token" (src/shared/portfolio/tokens.ts), so the two never name a token differently.
 */
export function exposureOf(view: Pick<PortfolioView, 'date' | 'underlying' | 'members' | 'provenance'> & { tokens?: readonly TokenRow[] }): Exposure {
  // The view's by-token table when it has one (the same grouping, made once).
  const list: TokenExposure[] = (view.tokens ?? tokenRows(view.underlying)).map((t) => ({
    tokenId: t.holdings[0]!.tokenId,
    symbol: t.symbol,
    name: t.name,
    // A figure the service sent unreadable (or not at all) counts as 0 here: the token says it is partial.
    totalQty: t.qty ?? 0,
    totalNav: t.nav ?? 0,
    wallets: t.holdings.map((h) => ({ wallet: h.wallet, chain: h.chain, qty: h.qty ?? 0, nav: h.nav ?? 0 })),
    ...(t.holdings.some((h) => h.unreadable) && { unreadable: true }),
  }));
  const behind = view.provenance.filter((p) => p.endpoint === 'positionsByUnderlying');
  const fetched = behind.map((p) => p.fetchedAt).sort();
  const asOf = behind.map((p) => p.asOf).sort();
  return {
    date: view.date,
    tokens: list,
    totalNav: decimalSum(list.map((t) => t.totalNav)),
    missing: view.members.filter((m) => !m.views.underlying).map((m) => ({ wallet: m.wallet, chain: m.chain })),
    freshness: behind.length
      ? { asOf: asOf.at(-1)!, oldestFetchedAt: fetched[0]!, newestFetchedAt: fetched.at(-1)! }
      : { asOf: null, oldestFetchedAt: null, newestFetchedAt: null },
    flagged: behind.reduce((n, p) => n + unreadableValues(p.flags).length, 0),
  };
}
