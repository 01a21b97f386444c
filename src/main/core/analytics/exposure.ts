/**
 * Exposure per underlying token over a scope at a date, from the portfolio view's by-token
 * table: the members it lacks are the view's, named, never a smaller figure said whole.
 */
import type { Exposure, TokenExposure } from '../../../shared/model.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import { decimalSum } from '../../../shared/decimal.ts';
import { unreadableValues } from '../../../shared/quality.ts';

/**
 * One row per token as a user names it (symbol and name), across wallets and chains: UNI held on
 * eth and on arb is one exposure (issue 39), each wallet chain's own figure kept beneath it. A
 * token the service names by neither stays by its id.
 */
function tokenKey(g: { token_id: string; token_symbol: string | null; token_name: string | null }): string {
  return g.token_symbol === null && g.token_name === null ? `id:${g.token_id}` : `named:${g.token_symbol ?? ''}\u0000${g.token_name ?? ''}`;
}

export function exposureOf(view: Pick<PortfolioView, 'date' | 'underlying' | 'members' | 'provenance'>): Exposure {
  const tokens = new Map<string, TokenExposure>();
  for (const { wallet, chain, group: g } of view.underlying) {
    const key = tokenKey(g);
    const t = tokens.get(key) ?? { tokenId: g.token_id, symbol: g.token_symbol, name: g.token_name, totalQty: 0, totalNav: 0, wallets: [] };
    // Exact in decimal, as every other total (src/shared/portfolio/totals.ts).
    t.totalQty = decimalSum([t.totalQty, g.total_qty ?? 0]);
    t.totalNav = decimalSum([t.totalNav, g.total_nav ?? 0]);
    t.wallets.push({ wallet, chain, qty: g.total_qty ?? 0, nav: g.total_nav ?? 0 });
    // A figure the service sent unreadable counts as 0 here: the token says it is partial.
    if (g._invalid?.['total_qty'] !== undefined || g._invalid?.['total_nav'] !== undefined) t.unreadable = true;
    tokens.set(key, t);
  }
  const list = [...tokens.values()].sort((a, b) => b.totalNav - a.totalNav);
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
