import type { ReadableDB } from '../db.ts';
import { listWallets } from '../wallets.ts';
import { flaggedCount, freshnessOf, latestSnapshots, snapshotData } from './latest.ts';
import type { TokenExposure, Exposure } from '../../../../shared/model.ts';
import { decimalSum } from '../../../../shared/decimal.ts';

/** Exposure per underlying token across all watched wallets (or a group's members) at a date, from cached snapshots. */
export function exposureAt(db: ReadableDB, date: string, wallets?: readonly string[]): Exposure {
  const rows = latestSnapshots(db, 'positionsByUnderlying', { date });
  const tokens = new Map<string, TokenExposure>();
  const watched = listWallets(db).filter((w) => !wallets || wallets.includes(w.address));
  const present = new Set(rows.map((r) => `${r.wallet}|${r.chain}`));
  let flagged = 0;
  for (const r of rows) {
    if (!watched.some((w) => w.address === r.wallet && w.chains.includes(r.chain))) continue;
    flagged += flaggedCount(r.quality);
    for (const snap of snapshotData<'positionsByUnderlying'>(db, r.id)) {
      for (const g of snap.positions) {
        const t = tokens.get(g.token_id) ?? { tokenId: g.token_id, symbol: g.token_symbol, name: g.token_name, totalQty: 0, totalNav: 0, wallets: [] };
        // Exact in decimal, as every other total (src/shared/portfolio/totals.ts).
        t.totalQty = decimalSum([t.totalQty, g.total_qty ?? 0]);
        t.totalNav = decimalSum([t.totalNav, g.total_nav ?? 0]);
        t.wallets.push({ wallet: r.wallet, chain: r.chain, qty: g.total_qty ?? 0, nav: g.total_nav ?? 0 });
        // A figure the service sent unreadable counts as 0 here: the token says it is partial.
        if (g._invalid?.['total_qty'] !== undefined || g._invalid?.['total_nav'] !== undefined) t.unreadable = true;
        tokens.set(g.token_id, t);
      }
    }
  }
  const list = [...tokens.values()].sort((a, b) => b.totalNav - a.totalNav);
  return {
    date,
    tokens: list,
    totalNav: decimalSum(list.map((t) => t.totalNav)),
    missing: watched.flatMap((w) => w.chains.filter((c) => !present.has(`${w.address}|${c}`)).map((chain) => ({ wallet: w.address, chain }))),
    freshness: freshnessOf(rows),
    flagged,
  };
}
