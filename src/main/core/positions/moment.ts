import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot } from '../../../shared/service/schemas.ts';

/**
 * Whether the three views of one (wallet, chain, date) describe one moment (issue 30, "correct
 * over time"). They come from three requests, and a live service's snapshot of today moves
 * between them: a position opens or closes, a deposit changes a quantity. The spec gives every
 * view the same evidence of what is held, so they can be compared:
 * - the positions themselves: all_positions and port_liq_analysis list them by asset_type,
 *   chain_id, protocol_id and cid; positions_by_underlying names each in its groups' breakdown
 *   (the same four members, with pos_id);
 * - each position's quantities: all_positions' and port_liq_analysis' `underlying[].qty`, and
 *   the breakdown entries' `qty` under each token.
 * Values (`nav`) are not compared: a price that ticks between the requests moves every NAV
 * without changing what is held. Nor is the snapshot's `date`: a service may stamp each answer
 * with its own time. A value the service sent unreadable (null) matches anything.
 */

/** A position as every view can name it. */
interface Held {
  name: string;
  qtys: Array<number | null>;
}

type Holdings = Map<string, Held>;

const keyOf = (p: { asset_type: string | null; chain_id: string | null; protocol_id: string | null; cid: string | null }) =>
  [p.chain_id, p.protocol_id, p.cid?.toLowerCase() ?? null, p.asset_type].join('|');

function add(h: Holdings, key: string, name: string, qty: number | null): void {
  const held = h.get(key);
  if (held) held.qtys.push(qty);
  else h.set(key, { name, qtys: [qty] });
}

function fromPositions(data: readonly PositionSnapshot[]): Holdings {
  const h: Holdings = new Map();
  for (const p of data.flatMap((s) => s.positions)) {
    const key = keyOf(p);
    const name = p.name ?? p.symbol ?? p.cid ?? key;
    if (!p.underlying.length) h.set(key, h.get(key) ?? { name, qtys: [] });
    for (const u of p.underlying) add(h, key, name, u.qty);
  }
  return h;
}

function fromGroups(data: readonly UnderlyingSnapshot[]): Holdings {
  const h: Holdings = new Map();
  for (const g of data.flatMap((s) => s.positions))
    for (const b of g.breakdown) add(h, keyOf({ ...b, cid: b.cid ?? b.pos_id }), b.name ?? b.cid ?? b.pos_id ?? '', b.qty);
  return h;
}

function fromLiquidity(data: readonly LiquiditySnapshot[]): Holdings {
  const h: Holdings = new Map();
  for (const p of data.flatMap((s) => s.positions)) {
    const key = keyOf(p);
    const name = p.principal_token_name ?? p.principal_token_symbol ?? p.cid ?? key;
    if (!p.underlying.length) h.set(key, h.get(key) ?? { name, qtys: [] });
    for (const u of p.underlying) add(h, key, name, u.qty);
  }
  return h;
}

/** Two quantities agree within a millionth (a service may round one view's figures otherwise than another's). */
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b), 1e-12);

/** Where two lists of one position's quantities differ (in any order), or null when they agree. */
function quantitiesDiffer(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): [string, string] | null {
  if (a.length !== b.length) return [`${a.length} token${a.length === 1 ? '' : 's'}`, `${b.length}`];
  // With a value unreadable in either, only the counts can be compared.
  if (a.includes(null) || b.includes(null)) return null;
  const x = [...(a as number[])].sort((p, q) => p - q);
  const y = [...(b as number[])].sort((p, q) => p - q);
  const i = x.findIndex((v, k) => !close(v, y[k]!));
  return i < 0 ? null : [`a quantity of ${x[i]}`, `${y[i]}`];
}

const VIEW_NAMES = ['positions', 'by-token', 'liquidity'] as const;

/**
 * Why the three views do not describe one moment, in words (`the positions view lists 8
 * positions, the by-token view 7 and the liquidity view 8`), or null when they agree.
 */
export function viewsDisagree(
  all: readonly PositionSnapshot[],
  grouped: readonly UnderlyingSnapshot[],
  liquidity: readonly LiquiditySnapshot[],
): string | null {
  const views = [fromPositions(all), fromGroups(grouped), fromLiquidity(liquidity)];
  const [a, b, c] = views.map((v) => v.size);
  if (a !== b || b !== c) return `the positions view lists ${a} positions, the by-token view ${b} and the liquidity view ${c}`;
  for (const [i, view] of views.entries())
    for (const [key, held] of view)
      for (const [j, other] of views.entries()) if (!other.has(key)) return `${held.name} is in the ${VIEW_NAMES[i]} view but not in the ${VIEW_NAMES[j]} view`;
  for (const [key, held] of views[0]!)
    for (const j of [1, 2]) {
      const differs = quantitiesDiffer(held.qtys, views[j]!.get(key)!.qtys);
      if (differs) return `${held.name} has ${differs[0]} in the positions view, ${differs[1]} in the ${VIEW_NAMES[j]} view`;
    }
  return null;
}
