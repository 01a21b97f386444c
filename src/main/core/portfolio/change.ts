/**
 * The change since an earlier cached date (src/shared/portfolio/change.ts), from the one
 * portfolio view at both dates: the same genuine positions (spam left out at each date), the
 * same coverage, the same rows the screen shows, so a change never counts what a table leaves out.
 */
import type { Wallet } from '../../../shared/model.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import type { PortfolioChange, RowChange, MemberRef } from '../../../shared/portfolio/change.ts';
import { changeSum, positionQuantity, unknownChange } from '../../../shared/portfolio/change.ts';
import type { PositionRow } from '../../../shared/portfolio/rows.ts';
import type { TokenRow } from '../../../shared/portfolio/tokens.ts';
import { decimalSum } from '../../../shared/decimal.ts';
import type { ReadableDB } from '../store/db.ts';
import { checkDate, ValidationError } from '../store/validation.ts';
import { portfolioViewUnlessAborted } from './view.ts';
import type { ViewReader } from './memo.ts';

const memberKey = (m: { wallet: string; chain: string }) => `${m.wallet}|${m.chain}`;
const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
/** What was there is gone: its figure counts against the change (-0 would read "-$0.00"). */
const negated = (v: number | null) => (v === null ? null : v === 0 ? 0 : -v);
const difference = (now: number | null, then: number | null) => (now === null || then === null ? null : decimalSum([now, -then]));

const NOT_CACHED: RowChange = { state: 'unknown', value: null, valueWhy: 'not-cached', qty: null, qtyWhy: 'not-cached' };

/** Members cached at one of the two dates only (by `cached`), each with the date that lacks it. */
function oneSided(then: PortfolioView, now: PortfolioView, cached: (m: PortfolioView['members'][number]) => boolean): Array<MemberRef & { date: string }> {
  const at = (v: PortfolioView) => new Map(v.members.map((m) => [memberKey(m), cached(m)]));
  const [t, n] = [at(then), at(now)];
  const out: Array<MemberRef & { date: string }> = [];
  for (const m of now.members) {
    const k = memberKey(m);
    if (n.get(k) && !t.get(k)) out.push({ wallet: m.wallet, label: m.label, chain: m.chain, date: then.date });
    else if (!n.get(k) && t.get(k)) out.push({ wallet: m.wallet, label: m.label, chain: m.chain, date: now.date });
  }
  return out;
}

/** A position's change between its row then (undefined: not there) and now (undefined: gone). */
function positionChange(now: PositionRow | undefined, then: PositionRow | undefined): RowChange {
  const value = now && then ? difference(now.total, then.total) : now ? now.total : negated(then!.total);
  const q1 = now && positionQuantity(now.position);
  const q0 = then && positionQuantity(then.position);
  const several = (q1 && q1.tokens !== 1) || (q0 && q0.tokens !== 1);
  // One token at both dates, but another token: its units cannot be compared.
  const otherToken = now && then && !several && now.position.underlying[0]!.internal_id !== then.position.underlying[0]!.internal_id;
  const qty = several || otherToken ? null : q1 && q0 ? difference(q1.qty, q0.qty) : q1 ? q1.qty : negated(q0!.qty);
  return {
    state: now && then ? 'held' : now ? 'new' : 'gone',
    value,
    valueWhy: value === null ? 'value-unknown' : null,
    qty,
    qtyWhy: qty !== null ? null : several ? 'several-tokens' : 'qty-unknown',
  };
}

/** A token row's change: unknown value or quantity when a holding's figure is unknown at either date. */
function tokenChange(now: TokenRow | undefined, then: TokenRow | undefined): RowChange {
  const navOf = (t: TokenRow | undefined) => (t === undefined ? 0 : t.holdings.every((h) => known(h.nav)) ? t.nav : null);
  const qtyOf = (t: TokenRow | undefined) => (t === undefined ? 0 : t.holdings.every((h) => known(h.qty)) ? t.qty : null);
  const value = now ? difference(navOf(now), navOf(then)) : negated(navOf(then));
  const qty = now ? difference(qtyOf(now), qtyOf(then)) : negated(qtyOf(then));
  return {
    state: now && then ? 'held' : now ? 'new' : 'gone',
    value,
    valueWhy: value === null ? 'value-unknown' : null,
    qty,
    qtyWhy: qty === null ? 'qty-unknown' : null,
  };
}

/** The rows of `keys` asked for (a screen's page), or every row when none were asked. */
export interface ChangeKeys {
  keys?: readonly string[] | undefined;
  tokenKeys?: readonly string[] | undefined;
  /** false: the gone rows left out of the answer (a page before the table's last, which does not show them); still counted in the total. */
  gone?: boolean | undefined;
}

/** `all` cut to the keys asked (each once, in no other order), or whole when none were asked. */
function only(all: Record<string, RowChange>, keys: readonly string[] | undefined): Record<string, RowChange> {
  if (!keys) return all;
  const out: Record<string, RowChange> = {};
  for (const k of keys) if (Object.hasOwn(all, k)) out[k] = all[k]!;
  return out;
}

/**
 * What changed from the view `then` (the earlier date) to the view `now`, over the same scope;
 * every row's change is made (the total and the unknown count are over all of them), those of
 * the rows asked are answered.
 */
export function changeBetween(then: PortfolioView, now: PortfolioView, asked: ChangeKeys = {}): PortfolioChange {
  const notCached = oneSided(then, now, (m) => m.state !== 'not-cached');
  const notCachedTokens = oneSided(then, now, (m) => m.views.underlying);
  const lacking = new Set(notCached.map(memberKey));
  const cachedNow = new Set(now.members.filter((m) => m.state !== 'not-cached').map(memberKey));

  const before = new Map(then.positions.map((r) => [r.key, r]));
  const positions: Record<string, RowChange> = {};
  for (const r of now.positions) positions[r.key] = lacking.has(memberKey(r)) ? NOT_CACHED : positionChange(r, before.get(r.key));
  const present = new Set(now.positions.map((r) => r.key));
  // A position of a wallet chain not cached now is not gone: whether it is still held is not known.
  const gone = then.positions.filter((r) => !present.has(r.key) && cachedNow.has(memberKey(r))).map((r) => ({ ...r, change: positionChange(undefined, r) }));

  // A token row spans wallet chains: any wallet chain cached at one date only may have held any
  // token at the other, so every by-token change is unknown then.
  const tokensUnknown = notCachedTokens.length > 0;
  const tokensBefore = new Map(then.tokens.map((t) => [t.key, t]));
  const tokens: Record<string, RowChange> = {};
  for (const t of now.tokens) tokens[t.key] = tokensUnknown ? NOT_CACHED : tokenChange(t, tokensBefore.get(t.key));
  const tokenKeys = new Set(now.tokens.map((t) => t.key));
  const goneTokens = tokensUnknown ? [] : then.tokens.filter((t) => !tokenKeys.has(t.key)).map((t) => ({ ...t, change: tokenChange(undefined, t) }));

  const every = [...Object.values(positions), ...gone.map((g) => g.change)];
  const total = notCached.length ? null : changeSum(every.map((c) => c.value));
  return {
    date: now.date,
    since: then.date,
    positions: only(positions, asked.keys),
    // At a fund's scale the month's gone rows are most of a page's answer: sent only when asked.
    gone: asked.gone === false ? [] : gone,
    tokens: only(tokens, asked.tokenKeys),
    goneTokens: asked.gone === false ? [] : goneTokens,
    total,
    totalWhy: total !== null ? null : notCached.length ? 'not-cached' : 'value-unknown',
    unknown: every.filter(unknownChange).length,
    notCached,
    notCachedTokens,
  };
}

/**
 * The change of a scope's portfolio from `since` to `date` (since the earlier), cancellable as the
 * view is; `views` reads each end (the handlers' kept views, memo.ts, so the screen's own date is
 * not built again).
 */
export async function portfolioChange(
  db: ReadableDB,
  wallets: readonly Wallet[],
  date: string,
  since: string,
  signal: AbortSignal,
  views: ViewReader = (d, w, at, s) => portfolioViewUnlessAborted(d, w, at, s),
  asked: ChangeKeys = {},
): Promise<PortfolioChange> {
  checkDate('date', date);
  checkDate('since', since);
  if (since >= date) throw new ValidationError('since', `The change since a date needs a date before ${date}; ${since} is not.`);
  const then = await views(db, wallets, since, signal);
  const now = await views(db, wallets, date, signal);
  return changeBetween(then, now, asked);
}
