/**
 * What a screen of the portfolio shows, cut from the one view (./view.ts) in the core (issue 40
 * item 2): the summary of a scope at a date and pages of its rows, sorted and filtered here, so a
 * fund's 6,000 members and tens of thousands of rows never cross the contract whole. Every
 * figure is the view's own (the same totals, allocation, exposure, spam), never summed again.
 */
import { totals as rowTotals, type PositionRow } from '../../../shared/portfolio/rows.ts';
import {
  MEMBER_PAGE_DEFAULT,
  ROW_PAGE_DEFAULT,
  SPAM_PAGE_DEFAULT,
  SUMMARY_TOP,
  TOKEN_HOLDINGS_MAX,
  type PortfolioSummary,
  type LiquidityPage,
  type PositionsPage,
  type ProtocolGroup,
  type RowQuery,
  type RowSort,
  type RowsPage,
  type SpamPage,
  type TokensPage,
  type UnderlyingPage,
} from '../../../shared/portfolio/summary.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import { knownValue, positionTotals } from '../../../shared/portfolio/totals.ts';
import { health, isAtRisk } from '../../../shared/portfolio/risk.ts';
import { decimalSumOrNull } from '../../../shared/decimal.ts';
import { ValidationError } from '../store/validation.ts';

/** The summary of a view: its figures whole, its lists counted with a few named, the first page of positions. */
export function summaryOf(
  view: PortfolioView,
  o: {
    rows?: Omit<RowQuery, 'table'> | undefined;
    members?: { offset?: number | undefined; limit?: number | undefined } | undefined;
    wallets?: { offset?: number | undefined; limit?: number | undefined } | undefined;
    spam?: { limit?: number | undefined } | undefined;
  } = {},
): PortfolioSummary {
  const m = view.members;
  const notedAll = m.filter((x) => x.quality.all);
  const wOffset = o.wallets?.offset ?? 0;
  const wLimit = o.wallets?.limit ?? MEMBER_PAGE_DEFAULT;
  const walletPage = view.wallets.slice(wOffset, wOffset + wLimit);
  // Each wallet of the page's rows, in one pass over the view's positions (their order kept).
  const onPage = new Map(walletPage.map((w) => [w, [] as PositionRow[]]));
  for (const r of view.positions) onPage.get(r.wallet)?.push(r);
  const notFully = m.filter((x) => x.state !== 'cached');
  const noted = m.filter((x) => x.quality.all || x.quality.underlying || x.quality.liquidity);
  const mOffset = o.members?.offset ?? 0;
  const mLimit = o.members?.limit ?? MEMBER_PAGE_DEFAULT;
  const fetched = m.map((x) => x.fetchedAt).filter((x): x is string => x !== null);
  fetched.sort();
  const lending = view.risk.positions.map((p) => ({
    wallet: p.wallet,
    chain: p.chain,
    protocolId: p.protocolId,
    name: p.name,
    health: health(p.collateralDebtRatio, p.liqThreshold)!,
    atRisk: isAtRisk(p.collateralDebtRatio, p.liqThreshold),
  }));
  return {
    date: view.date,
    walletCount: view.wallets.length,
    complete: view.complete,
    walletsCounted: view.walletsCounted,
    chainsCounted: view.chainsCounted,
    totals: view.totals,
    unknownValues: view.unknownValues,
    unknownIn: view.unknownIn,
    unreadableValues: view.unreadableValues,
    allocation: view.allocation,
    rowCounts: { positions: view.positions.length, underlying: view.underlying.length, liquidity: view.liquidity.length },
    coverage: {
      members: m.length,
      cached: m.length - notFully.length,
      viewsMissing: notFully.filter((x) => x.state === 'views-missing').length,
      notCached: view.missing.length,
      moments: m.filter((x) => x.moment !== null).length,
      fetched: { oldest: fetched[0] ?? null, newest: fetched.at(-1) ?? null },
      notFullyCached: { offset: mOffset, limit: mLimit, total: notFully.length, members: notFully.slice(mOffset, mOffset + mLimit) },
      quality: {
        total: noted.length,
        members: noted
          .slice(0, MEMBER_PAGE_DEFAULT)
          .map((x) => ({ wallet: x.wallet, label: x.label, chain: x.chain, quality: x.quality, unreadable: x.unreadable })),
        // Overview's line: the members with a note on their positions (the all-positions view).
        noted: notedAll.length,
        values: notedAll.reduce((n, x) => n + x.unreadable, 0),
        moments: notedAll.filter((x) => x.moment !== null).length,
        notes: notedAll.slice(0, SUMMARY_TOP).map((x) => ({ wallet: x.wallet, chain: x.chain, note: x.quality.all })),
      },
    },
    // The same rule as the screens' own per-wallet totals were (rows.ts totals over the wallet's rows).
    wallets: { offset: wOffset, limit: wLimit, total: view.wallets.length, rows: walletPage.map((w) => ({ wallet: w, totals: rowTotals(onPage.get(w)!) })) },
    spam: {
      count: view.spam.count,
      claimed: view.spam.claimed,
      top: view.spam.rows.slice(0, SUMMARY_TOP).map((r) => ({
        wallet: r.wallet,
        chain: r.chain,
        symbol: r.position.symbol ?? null,
        name: r.position.name ?? null,
        claimed: r.total,
        reasons: r.verdict.reasons.map((x) => x.text),
      })),
      rows: view.spam.rows.slice(0, o.spam?.limit ?? SPAM_PAGE_DEFAULT),
    },
    exposure: {
      totalNav: view.exposure.totalNav,
      tokens: view.exposure.tokens.length,
      top: view.exposure.tokens.slice(0, SUMMARY_TOP).map((t) => ({
        tokenId: t.tokenId,
        symbol: t.symbol,
        name: t.name,
        totalQty: t.totalQty,
        totalNav: t.totalNav,
        holders: t.wallets.length,
        unreadable: t.unreadable === true,
        chains: [...new Set(t.wallets.map((w) => w.chain))],
        heldBy: t.wallets.slice(0, SUMMARY_TOP),
      })),
      missing: view.exposure.missing.length,
      freshness: view.exposure.freshness,
      flagged: view.exposure.flagged,
    },
    risk: {
      positions: lending.length,
      atRisk: lending.filter((p) => p.atRisk).length,
      unknown: view.risk.unknown.length,
      // A stable sort: equal health keeps the risk list's order (wallet and chain as the cache orders them).
      lowest: [...lending].sort((a, b) => a.health - b.health).slice(0, SUMMARY_TOP),
    },
    unlocks: { count: view.unlocks.unlocks.length, next: view.unlocks.unlocks.slice(0, SUMMARY_TOP) },
    rows: rowsPage(view, { ...o.rows, table: 'positions' }) as PositionsPage,
  };
}

/** A page of one of the view's tables, filtered and sorted as asked; ties keep the view's order. */
export function rowsPage(view: PortfolioView, q: RowQuery = {}): RowsPage {
  const table = q.table ?? 'positions';
  const sort = q.sort ?? 'value';
  const order = q.order ?? (sort === 'value' ? 'desc' : 'asc');
  const offset = q.offset ?? 0;
  const limit = q.limit ?? ROW_PAGE_DEFAULT;
  const f = q.filter ?? {};
  if (q.groupBy !== undefined && table !== 'positions') throw new ValidationError('groupBy', 'Only the positions are grouped by protocol.');
  let wallet: string | undefined;
  if (f.wallet !== undefined) {
    // An address in any case, as the wallets list is read everywhere else; one outside the scope is a mistake, said so.
    wallet = view.wallets.find((w) => w === f.wallet) ?? view.wallets.find((w) => w.toLowerCase() === f.wallet!.toLowerCase());
    if (!wallet) throw new ValidationError('filter.wallet', `${f.wallet} is not a wallet of this scope.`);
  }
  const text = f.text?.toLowerCase();
  const has = (...xs: Array<string | null | undefined>) => text === undefined || xs.some((x) => typeof x === 'string' && x.toLowerCase().includes(text));
  const common = (r: { wallet: string; chain: string }) => (wallet === undefined || r.wallet === wallet) && (f.chain === undefined || r.chain === f.chain);
  const base = { offset, limit, sort, order, complete: view.complete, notCached: view.missing.length };

  const positionKeys: SortKeys<PositionRow> = {
    value: (r) => knownValue(r.position),
    protocol: (r) => r.position.protocol_id,
    symbol: (r) => r.position.symbol ?? r.position.name,
    name: (r) => r.position.name ?? r.position.symbol,
  };
  const positionMatch = (r: PositionRow) =>
    common(r) &&
    (f.protocol === undefined || r.position.protocol_id === f.protocol) &&
    (text === undefined || has(r.position.symbol, r.position.name, ...r.position.underlying.flatMap((u) => [u.symbol, u.name])));
  if (table === 'spam') {
    const rows = view.spam.rows.filter(positionMatch);
    const page: SpamPage = {
      table,
      ...base,
      total: rows.length,
      of: view.spam.rows.length,
      // The view's own order is the largest claimed first.
      rows: (sort === 'value' && order === 'desc' ? rows : sortRows(rows, sort, order, positionKeys)).slice(offset, offset + limit),
      claimed: rows.length === view.spam.rows.length ? view.spam.claimed : decimalSumOrNull(rows.map((r) => r.total)),
    };
    return page;
  }
  if (table === 'positions') {
    const rows = view.positions.filter(positionMatch);
    // The view's own order is by value, largest first (ties as the cache orders members): nothing to sort again.
    let sorted = sort === 'value' && order === 'desc' ? rows : sortRows(rows, sort, order, positionKeys);
    let groups: ProtocolGroup[] | undefined;
    if (q.groupBy === 'protocol') {
      // Protocol by protocol, the largest total first (then by name; no protocol last among equals), the asked order within each: a stable sort.
      const byProtocol = new Map<string | null, PositionRow[]>();
      for (const r of sorted) {
        const k = r.position.protocol_id ?? null;
        const list = byProtocol.get(k);
        if (list) list.push(r);
        else byProtocol.set(k, [r]);
      }
      groups = [...byProtocol].map(([protocol, rs]) => ({ protocol, count: rs.length, totals: positionTotals(rs.map((r) => r.position)) }));
      groups.sort(
        (a, b) =>
          (b.totals.total ?? 0) - (a.totals.total ?? 0) ||
          (a.protocol === null ? 1 : b.protocol === null ? -1 : byCodeUnit(a.protocol.toLowerCase(), b.protocol.toLowerCase())),
      );
      sorted = groups.flatMap((g) => byProtocol.get(g.protocol)!);
    }
    const page: PositionsPage = {
      table,
      ...base,
      total: rows.length,
      of: view.positions.length,
      rows: sorted.slice(offset, offset + limit),
      // The filtered rows' totals by the view's own rule (unknown is never 0): the view's when nothing is filtered out.
      // Nothing matching in a scope with members counted sums to 0, as the view's own empty members do.
      totals:
        rows.length === view.positions.length
          ? view.totals
          : !rows.length && view.walletsCounted
            ? { total: 0, principal: 0, reward: 0, count: 0 }
            : positionTotals(rows.map((r) => r.position)),
      ...(groups && { groups }),
    };
    return page;
  }
  if (table === 'liquidity') {
    const rows = view.liquidity.filter(
      (r) =>
        common(r) &&
        (f.protocol === undefined || r.position.protocol_id === f.protocol) &&
        has(r.position.principal_token_name, r.position.principal_token_symbol, ...r.position.underlying.map((u) => u.symbol)),
    );
    const page: LiquidityPage = {
      table,
      ...base,
      total: rows.length,
      of: view.liquidity.length,
      // No value of its own: `value` is the share of the pool owned.
      rows: sortRows(rows, sort, order, {
        value: (r) => r.position.principal_pct_ownership ?? 0,
        protocol: (r) => r.position.protocol_id,
        symbol: (r) => r.position.principal_token_symbol ?? r.position.principal_token_name,
        name: (r) => r.position.principal_token_name ?? r.position.principal_token_symbol,
      }).slice(offset, offset + limit),
    };
    return page;
  }
  if (sort === 'protocol') throw new ValidationError('sort', 'The by-token table has no protocol of its own: sort it by value, wallet, chain, symbol or name.');
  if (table === 'tokens') {
    if (sort === 'wallet' || sort === 'chain')
      throw new ValidationError('sort', 'A token is one row across wallets and chains: sort the tokens by value, symbol or name.');
    if (f.protocol !== undefined)
      throw new ValidationError('filter.protocol', 'A token across wallets and chains has no protocol: filter the tokens by chain, wallet or text.');
    const rows = view.tokens.filter((t) => ((wallet === undefined && f.chain === undefined) || t.holdings.some(common) ? has(t.symbol, t.name) : false));
    const page: TokensPage = {
      table,
      ...base,
      total: rows.length,
      of: view.tokens.length,
      rows: (sort === 'value' && order === 'desc'
        ? rows
        : sortRows(rows, sort, order, {
            value: (t) => t.nav ?? 0,
            protocol: () => null,
            symbol: (t) => t.symbol ?? t.name,
            name: (t) => t.symbol ?? t.name,
          })
      )
        .slice(offset, offset + limit)
        .map((t) => ({
          ...t,
          holdings: t.holdings.slice(0, TOKEN_HOLDINGS_MAX),
          holdingCount: t.holdings.length,
          positions: t.holdings.reduce((n, h) => n + h.positions, 0),
        })),
      totalNav: decimalSumOrNull(rows.map((t) => t.nav)),
    };
    return page;
  }
  const rows = view.underlying.filter(
    (r) =>
      common(r) && (f.protocol === undefined || r.group.breakdown.some((b) => b.protocol_id === f.protocol)) && has(r.group.token_symbol, r.group.token_name),
  );
  const page: UnderlyingPage = {
    table,
    ...base,
    total: rows.length,
    of: view.underlying.length,
    rows: sortRows(rows, sort, order, {
      value: (r) => r.group.total_nav ?? 0,
      protocol: () => null,
      symbol: (r) => r.group.token_symbol ?? r.group.token_name,
      name: (r) => r.group.token_name ?? r.group.token_symbol,
    }).slice(offset, offset + limit),
    totalNav: decimalSumOrNull(rows.map((r) => r.group.total_nav)),
  };
  return page;
}

const byCodeUnit = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** What a table's rows are ordered by, beyond their wallet and chain. */
interface SortKeys<R> {
  value: (r: R) => number;
  protocol: (r: R) => string | null | undefined;
  symbol: (r: R) => string | null | undefined;
  name: (r: R) => string | null | undefined;
}

/**
 * Rows in the order asked. The rows come in the view's order, which breaks every tie (a stable
 * sort); a row without the key (no protocol, no symbol) comes last whichever way the rest run.
 */
function sortRows<R extends object>(rows: R[], sort: RowSort, order: 'asc' | 'desc', keys: SortKeys<R>): R[] {
  const sign = order === 'asc' ? 1 : -1;
  if (sort === 'value') {
    // Sorting the view's own order by value again, largest first, changes nothing: the default page is the view's.
    const keyed = rows.map((r) => ({ r, v: keys.value(r) }));
    keyed.sort((a, b) => sign * (a.v - b.v));
    return keyed.map((x) => x.r);
  }
  const text = (r: R): string | null => {
    // Every table sorted by wallet or chain has both (the tokens table refuses those sorts).
    const at = r as { wallet?: string; chain?: string };
    if (sort === 'wallet') return `${at.wallet}\u0000${at.chain}`;
    if (sort === 'chain') return `${at.chain}\u0000${at.wallet}`;
    const t = keys[sort](r);
    return typeof t === 'string' ? t : null;
  };
  const keyed = rows.map((r) => {
    const t = text(r);
    // Case folded first, then exact: "usdc" and "USDC" sit together, in a fixed order.
    return { r, t, folded: t?.toLowerCase() ?? null };
  });
  keyed.sort((a, b) => {
    if (a.t === null || b.t === null) return a.t === b.t ? 0 : a.t === null ? 1 : -1;
    return sign * (byCodeUnit(a.folded!, b.folded!) || byCodeUnit(a.t, b.t));
  });
  return keyed.map((x) => x.r);
}
