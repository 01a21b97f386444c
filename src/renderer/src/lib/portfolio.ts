/**
 * Pure helpers of the Overview and Positions views: sorting, filtering, the NAV chart's range
 * and telling twins apart. The rows, totals and allocation are the core's portfolio view's
 * (src/shared/portfolio/rows.ts builds them; a view totals what it shows with the same rules).
 */
import type { Position } from '../../../shared/service/schemas.ts';
import type { PositionRow } from '../../../shared/portfolio/rows.ts';
import { chain } from './format.ts';

/** What `distinguishers` reads of a row: a position row's, or a liquidity row's. */
interface Twin {
  key: string;
  wallet: string;
  chain: string;
  position: { cid: string | null; underlying: ReadonlyArray<{ symbol: string | null; details: { is_reward?: unknown } }> };
}

/** Sorts rows by a key function; nulls last whatever the direction. */
export function sortBy<T>(rows: T[], key: (r: T) => string | number | null, dir: 'asc' | 'desc'): T[] {
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null && y === null) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return dir === 'asc' ? c : -c;
  });
}

/** Case-insensitive match of a filter text against any of the given fields. */
export function matches(text: string, ...fields: Array<string | null | undefined>): boolean {
  const t = text.trim().toLowerCase();
  return !t || fields.some((f) => f?.toLowerCase().includes(t));
}

/** Range presets of the NAV chart: where they start, and the step a history fill uses. */
export function rangeStart(range: '30d' | '90d' | '1y' | 'all', asOf: string): { from: string; every: 'day' | 'week' | 'month' } {
  const d = new Date(`${asOf}T00:00:00Z`);
  if (range === '30d') d.setUTCDate(d.getUTCDate() - 29);
  else if (range === '90d') d.setUTCDate(d.getUTCDate() - 89);
  else if (range === '1y') d.setUTCFullYear(d.getUTCFullYear() - 1);
  else return { from: '2024-01-01', every: 'month' };
  return { from: d.toISOString().slice(0, 10), every: range === '1y' ? 'week' : 'day' };
}

/**
 * What tells identically named positions apart (a table may hide the chain and wallet
 * columns in a narrow window): nothing for a unique name; else the chain if that alone
 * differs, else the pair of underlying tokens ("WBTC/USDC"), else a short id of the
 * position's contract. A wallet is named by `walletName` (its label where it has one).
 * Returns the suffix to show after the name, by row key. Rows of the liquidity view name their
 * position by its principal token (`nameOf`).
 */
export function distinguishers<R extends Twin = PositionRow>(
  rows: readonly R[],
  walletName: (address: string) => string = (a) => `${a.slice(0, 6)}…`,
  nameOf: (r: R) => string | null | undefined = (r) => (r.position as { name?: string | null }).name,
): Map<string, string> {
  const out = new Map<string, string>();
  const byName = new Map<string, R[]>();
  for (const r of rows) {
    const name = nameOf(r) ?? '';
    byName.set(name, [...(byName.get(name) ?? []), r]);
  }
  const pair = (r: R) => [...new Set(r.position.underlying.filter((u) => !u.details.is_reward).map((u) => u.symbol ?? '?'))].join('/');
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    const once = (f: (r: R) => string, r: R) => group.filter((x) => f(x) === f(r)).length === 1;
    const manyChains = new Set(group.map((r) => r.chain)).size > 1;
    const manyWallets = new Set(group.map((r) => r.wallet)).size > 1;
    for (const [i, r] of group.entries()) {
      const where = [manyWallets ? walletName(r.wallet) : '', manyChains ? chain(r.chain) : ''].filter(Boolean).join(' · ');
      const whereKey = (x: R) => `${x.wallet}|${x.chain}`;
      if (where && once(whereKey, r)) out.set(r.key, where);
      else if (pair(r) && once(pair, r)) out.set(r.key, where ? `${where} · ${pair(r)}` : pair(r));
      else out.set(r.key, `${where ? `${where} · ` : ''}${r.position.cid ? `#${r.position.cid.slice(-4)}` : `#${i + 1}`}`);
    }
  }
  return out;
}

/** Underlying ids (debt_positions, collateral) as the tokens they are in the same position. */
export function tokensOf(position: Position, ids: readonly string[] | undefined): string {
  return (ids ?? []).map((id) => position.underlying.find((u) => u.internal_id === id)?.symbol ?? `${id.slice(0, 6)}…`).join(', ');
}
