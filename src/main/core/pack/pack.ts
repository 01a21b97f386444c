/**
 * The monthly pack (docs/pack.md): a scope's NAV at two cached dates and what moved it.
 *
 * The roll-forward, per token of each wallet on each chain (a "line"):
 *   closing NAV = opening NAV + flows (each transfer × the price of its day)
 *               + accrual (quantity no transaction explains × the closing price)
 *               + price effect (the rest: what the price did to the opening holding and to each flow)
 * Prices are those the snapshots imply (a token's NAV ÷ quantity in the by-token view of the
 * scope's wallets on that chain), taken from the cached date nearest the transfer's day; which
 * dates were used is listed per token, and a transfer with no price in the period is in no
 * figure and makes the pack partial, naming the token.
 * The scope's total is the portfolio view's (the figure every screen shows); where the positions
 * view and the by-token view disagree, `other` shows the difference, so the lines add up to the
 * change in the total exactly (decimal sums).
 *
 * The period's flows are those of the reconciliation (analytics/store/reconcile.ts): successful
 * transactions after the opening date's day through the closing date's day; what the
 * reconciliation cannot prove (a period not synced, a date not cached) makes the pack partial.
 * A transaction the reconciliation finds opening or closing one of the scope's own positions
 * (analytics/store/position-moves.ts) moves tokens between a balance and that position: no flow and
 * no change in NAV, its transfers are valued like flows and named apart (`positionMoves`).
 */
import { decimalSum } from '../../../shared/decimal.ts';
import type { PositionMoveKind, Wallet } from '../../../shared/model.ts';
import {
  ALL_WALLETS,
  UNCATEGORISED,
  type MonthlyPack,
  type PackCounterpartyLine,
  type PackFlowLine,
  type PackPart,
  type PackToken,
} from '../../../shared/pack.ts';
import { memberNames, partialReason } from '../../../shared/portfolio/view.ts';
import { englishCoreSentences } from '../../../shared/core-sentences.ts';
import { portfolioView } from '../portfolio/index.ts';
import type { ReadableDB } from '../store/db.ts';
import { addressKey } from '../store/address-key.ts';
import { snapshotTokensAt, underlyingDatesBetween, type SnapshotToken } from '../positions/index.ts';

import { checkPeriod, flowWindow, reconcile } from '../analytics/index.ts';
import { categoriesOf, hasAnnotations, periodTransactions } from '../ledger/index.ts';
import { sharedJudge, type SharedJudge } from '../spam/index.ts';
import { counterpartyNamer } from '../counterparties/index.ts';
export { monthPeriod } from '../../../shared/months.ts';

/** A counterparty's name, from the address book or the watched wallets (the address book's namer). */
export type CounterpartyNamer = (address: string | null, chain: string) => { name: string; ours: boolean; kind: 'book' | 'wallet' } | null;
/** The category of each transaction, keyed `${wallet}|${chain}|${txnHash}` (the annotations' categoriesOf). */
export type Categoriser = (keys: Array<{ wallet: string; chain: string; txnHash: string }>) => Map<string, { category: string | null }>;

export interface PackRequest {
  wallets: readonly Wallet[];
  from: string;
  to: string;
  scope: string;
  namer?: CounterpartyNamer | undefined;
  categorise?: Categoriser | undefined;
}

const tokenKey = (cid: string | null | undefined, id: string | null | undefined) => (cid ? `cid:${cid.toLowerCase()}` : `id:${id ?? ''}`);
const short = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);
const sum = (xs: ReadonlyArray<number>) => decimalSum(xs);
/** To the cent, half away from zero (money as the reports print it). */
const cents = (x: number) => (x < 0 ? -Math.round(-x * 100) : Math.round(x * 100)) / 100;

interface Held {
  qty: number;
  nav: number | null;
  symbol: string | null;
  cid: string | null;
}

/** One (wallet, chain)'s by-token holdings at a date (its snapshot's tokens), by token key. */
function heldOf(tokens: readonly SnapshotToken[]): Map<string, Held> {
  const out = new Map<string, Held>();
  for (const g of tokens) {
    const key = tokenKey(g.cid, g.tokenId);
    const h = out.get(key) ?? { qty: 0, nav: 0, symbol: g.symbol, cid: g.cid?.toLowerCase() ?? null };
    h.qty = sum([h.qty, g.qty ?? 0]);
    h.nav = h.nav === null || g.nav === null || g.nav === undefined ? null : sum([h.nav, g.nav]);
    out.set(key, h);
  }
  return out;
}

/**
 * Prices per chain and token at each cached date of the period: NAV ÷ quantity over the
 * scope's wallets. Read once per date, for every member at once.
 */
function priceIndex(db: ReadableDB, wallets: readonly Wallet[], dates: readonly string[]) {
  const byDate = new Map<string, Map<string, number>>();
  const holdings = new Map<string, Map<string, Held> | null>();
  const addresses = wallets.map((w) => w.address);
  for (const date of dates) {
    const qty = new Map<string, number[]>();
    const nav = new Map<string, number[]>();
    const tokensAt = snapshotTokensAt(db, date, addresses);
    for (const w of wallets)
      for (const chain of w.chains) {
        const tokens = tokensAt.get(`${w.address}|${chain}`);
        const held = tokens ? heldOf(tokens) : null;
        holdings.set(`${w.address}|${chain}|${date}`, held);
        for (const [key, h] of held ?? []) {
          if (h.nav === null || h.qty === 0) continue;
          const k = `${chain}|${key}`;
          (qty.get(k) ?? qty.set(k, []).get(k)!).push(h.qty);
          (nav.get(k) ?? nav.set(k, []).get(k)!).push(h.nav);
        }
      }
    const prices = new Map<string, number>();
    for (const [k, q] of qty) {
      const total = sum(q);
      if (total !== 0) prices.set(k, sum(nav.get(k)!) / total);
    }
    byDate.set(date, prices);
  }
  /** The price of a token on a chain at the cached date nearest `onDay` (the earlier one on a tie). */
  const priceNear = (chain: string, key: string, onDay: string): { price: number; date: string } | null => {
    let best: { price: number; date: string; distance: number } | null = null;
    for (const date of dates) {
      const price = byDate.get(date)!.get(`${chain}|${key}`);
      if (price === undefined) continue;
      const distance = Math.abs(Date.parse(date) - Date.parse(onDay));
      if (!best || distance < best.distance) best = { price, date, distance };
    }
    return best && { price: best.price, date: best.date };
  };
  return { priceNear, holdings };
}

function addFlow<L extends { inflow: number; outflow: number; transfers: number; unvalued: number }>(line: L, value: number | null): void {
  if (value === null) line.unvalued += 1;
  else {
    line.transfers += 1;
    if (value >= 0) line.inflow = sum([line.inflow, value]);
    else line.outflow = sum([line.outflow, -value]);
  }
}

/** What the pack reads of the portfolio view at one end of the month. */
interface PackEnd {
  total: number | null;
  /** Each wallet's total, null where none of its chains is cached. */
  byWallet: Map<string, number | null>;
  protocol: Array<{ label: string; value: number | null }>;
  chain: Array<{ label: string; value: number | null }>;
  unknownValues: number;
  spam: { count: number; claimed: number | null };
  complete: boolean;
  partial: string | null;
}

/**
 * The view of `wallets` at `date`, cut to what the pack reads of it as soon as it is built: a
 * fund's view holds every position (~290 MiB at 1,000 × 6), and both ends held through the rest of
 * the pack made its peak (bench/RESULTS.md).
 */
function packEnd(db: ReadableDB, wallets: readonly Wallet[], date: string, judge?: SharedJudge): PackEnd {
  const view = portfolioView(db, wallets, date, judge);
  const perWallet = new Map<string, number[]>();
  for (const p of view.positions) if (p.total !== null) (perWallet.get(p.wallet) ?? perWallet.set(p.wallet, []).get(p.wallet)!).push(p.total);
  const counted = new Set(view.members.filter((m) => m.state !== 'not-cached').map((m) => m.wallet));
  return {
    total: view.totals.total,
    byWallet: new Map(wallets.map((w) => [w.address, counted.has(w.address) ? sum(perWallet.get(w.address) ?? []) : null])),
    protocol: view.allocation.protocol.map((a) => ({ label: a.label, value: a.value })),
    chain: view.allocation.chain.map((a) => ({ label: a.label, value: a.value })),
    unknownValues: view.unknownValues,
    spam: { count: view.spam.count, claimed: view.spam.claimed },
    complete: view.complete,
    partial: partialReason(view),
  };
}

export function buildPack(db: ReadableDB, req: PackRequest): MonthlyPack {
  checkPeriod(req.from, req.to);
  const wallets = req.wallets;
  const addresses = wallets.map((w) => w.address);
  const ours = new Set(addresses.map(addressKey));
  const labels = new Map(wallets.map((w) => [w.address, w.label]));
  // Transactions judged spam (docs/spam.md: airdrops, poisoning) are in no flow, counterparty or
  // control flag of the pack; it says how many it left out. A payment the wallet made is never
  // spam by the rules, so no money that really moved is lost here. One judge for the closing view,
  // the reconciliation and the transactions: the reconciliation judges each token at the closing
  // day the view has read, and it and the transactions ask the same token histories
  // (bench/RESULTS.md). The opening view judges with its own, gone with it: nothing after asks its
  // days (a fund's ~50 MiB, kept through the rest, added to the pack's peak).
  const judge = sharedJudge(db, { wallets: addresses, whole: true });
  const opening = packEnd(db, wallets, req.from);
  const closing = packEnd(db, wallets, req.to, judge);
  const rec = reconcile(db, { wallets: addresses, from: req.from, to: req.to }, judge.current);
  const dates = [...new Set([req.from, ...underlyingDatesBetween(db, addresses, req.from, req.to), req.to])].sort();
  const { priceNear, holdings } = priceIndex(db, wallets, dates);
  const { start, end } = flowWindow(req.from, req.to);
  const txns = [...periodTransactions(db, { wallets: addresses, start, end, succeeded: true })];
  const categories = req.categorise?.(txns.map((t) => ({ wallet: t.wallet, chain: t.chain, txnHash: t.txnHash }))) ?? new Map();

  const byCategory = new Map<string, PackFlowLine>();
  const byCounterparty = new Map<string, PackCounterpartyLine>();
  /** By counterparty line: the chains its flows were on where the address is named, and where it is not. */
  const nameChains = new Map<string, { named: Set<string>; unnamed: Set<string> }>();
  const flowsOf = (map: Map<string, PackPart>, key: string, label: string): PackPart =>
    map.get(key) ?? map.set(key, { key, label, opening: null, closing: null, inflow: 0, outflow: 0, transfers: 0, unvalued: 0 }).get(key)!;
  const byWallet = new Map<string, PackPart>();
  const byProtocol = new Map<string, PackPart>();
  const byChain = new Map<string, PackPart>();
  const tokenFlows = new Map<string, { values: number[]; unvalued: number; dates: Set<string> }>();
  const unpriced = new Map<string, { chain: string; symbol: string | null; tokenCid: string | null; transfers: number }>();
  const internal: number[] = [];
  const unpricedTransfer = (chain: string, key: string, symbol: string | null, tokenCid: string | null) => {
    const u = unpriced.get(`${chain}|${key}`) ?? unpriced.set(`${chain}|${key}`, { chain, symbol, tokenCid, transfers: 0 }).get(`${chain}|${key}`)!;
    u.transfers += 1;
  };
  // The flows of transactions with a protocol (a swap, a deposit, a withdrawal, a claim): in the
  // inflows and outflows, and told apart in the roll-forward from money sent and received.
  const protocolMoves = { inflow: 0, outflow: 0, transfers: 0, unvalued: 0 };
  let unknownOutflows = 0;
  const spamJudged = judge.current;
  let spamTransactions = 0;
  // The transfers of the transactions that opened or closed a position of the scope: by transaction, then token.
  const moveOf = new Map<string, Map<string, PositionMoveKind>>();
  for (const m of rec.moves) moveOf.set(`${m.wallet}|${m.chain}|${m.txn_hash}`, new Map(m.transfers.map((t) => [t.token_cid, t.move])));
  const positionMoves: Record<PositionMoveKind, number[]> = { moved_into_positions: [], moved_out_of_positions: [], debt_drawn: [], debt_repaid: [] };

  for (const t of txns) {
    if (spamJudged.transaction(t).spam) {
      spamTransactions += 1;
      continue;
    }
    const wallet = addressKey(t.wallet);
    const counterparty = t.from && addressKey(t.from) === wallet ? t.to : t.from;
    const cpKey = counterparty ? addressKey(counterparty) : null;
    const isInternal = cpKey !== null && cpKey !== wallet && ours.has(cpKey);
    const named = req.namer?.(counterparty, t.chain) ?? null;
    const category = categories.get(`${t.wallet}|${t.chain}|${t.txnHash}`)?.category ?? UNCATEGORISED;
    // The control flag, as the timeline marks it (counterparties/namer.ts partiesOf): the wallet
    // itself sent tokens in a plain transfer (no protocol: a swap or a deposit goes to a protocol's
    // contract) to an address neither named nor ours.
    const sentPlain =
      t.from !== null && addressKey(t.from) === wallet && t.to !== null && addressKey(t.to) !== wallet && (t.protocolId === null || t.protocolId === 'wallet');
    if (sentPlain && !named && !isInternal && t.details.some((tr) => tr.type === 'out')) unknownOutflows += 1;
    const moves = moveOf.get(`${t.wallet}|${t.chain}|${t.txnHash}`);
    for (const tr of t.details) {
      if ((tr.type !== 'in' && tr.type !== 'out') || tr.qty === null || typeof tr.qty !== 'number') continue;
      const key = tokenKey(tr.token_cid, null);
      const signed = tr.type === 'in' ? tr.qty : -tr.qty;
      // The row's UTC day (a row of the window has a time, so a date).
      const price = priceNear(t.chain, key, t.date!.slice(0, 10));
      const value = price ? signed * price.price : null;
      const move = tr.token_cid ? moves?.get(tr.token_cid.toLowerCase()) : undefined;
      if (move) {
        // Between a balance and the scope's own position: in no flow (the reconciliation's
        // quantities leave it out too), named with its value on its day.
        if (value !== null) positionMoves[move].push(Math.abs(value));
        else unpricedTransfer(t.chain, key, tr.symbol, tr.token_cid);
        continue;
      }
      const lineKey = `${t.wallet}|${t.chain}|${key}`;
      const tf = tokenFlows.get(lineKey) ?? tokenFlows.set(lineKey, { values: [], unvalued: 0, dates: new Set() }).get(lineKey)!;
      if (price && value !== null) {
        tf.values.push(value);
        tf.dates.add(price.date);
      } else {
        tf.unvalued += 1;
        unpricedTransfer(t.chain, key, tr.symbol, tr.token_cid);
      }
      if (isInternal) {
        if (value !== null) internal.push(value);
        continue;
      }
      const cat =
        byCategory.get(category) ??
        byCategory.set(category, { key: category, label: category, inflow: 0, outflow: 0, transfers: 0, unvalued: 0 }).get(category)!;
      addFlow(cat, value);
      if (t.protocolId !== null && t.protocolId !== 'wallet') addFlow(protocolMoves, value);
      const cpId = cpKey ?? '';
      // One line per address: an entry naming it on some chains only leaves it unknown on the
      // others, and split in two lines one counterparty read as two. The line takes the name and
      // says below on which chains it holds, so no flow takes the name unsaid (or hides it).
      const cp =
        byCounterparty.get(cpId) ??
        byCounterparty
          .set(cpId, {
            key: cpId,
            label: counterparty ? short(counterparty) : 'No counterparty',
            kind: 'unknown',
            inflow: 0,
            outflow: 0,
            transfers: 0,
            unvalued: 0,
          })
          .get(cpId)!;
      const chainsOf = nameChains.get(cpId) ?? nameChains.set(cpId, { named: new Set(), unnamed: new Set() }).get(cpId)!;
      if (named) {
        cp.label = named.name;
        cp.kind = named.kind;
        chainsOf.named.add(t.chain);
      } else chainsOf.unnamed.add(t.chain);
      addFlow(cp, value);
      addFlow(flowsOf(byWallet, t.wallet, labels.get(t.wallet) || short(t.wallet)), value);
      addFlow(flowsOf(byProtocol, t.protocolId ?? '', t.protocolId ?? 'No protocol'), value);
      addFlow(flowsOf(byChain, t.chain, t.chain), value);
    }
  }

  // The token lines: every token of the reconciliation, valued.
  const tokens: PackToken[] = [];
  const reasons: string[] = [];
  /** The tokens whose change no transaction explains could not be valued, by chain and token: the lines of each. */
  const unvaluedChanges = new Map<string, { chain: string; name: string; lines: number }>();
  for (const r of rec.rows) {
    const key = tokenKey(r.token_cid, r.token_id);
    const o = holdings.get(`${r.wallet}|${r.chain}|${req.from}`)?.get(key);
    const c = holdings.get(`${r.wallet}|${r.chain}|${req.to}`)?.get(key);
    const openingKnown = holdings.get(`${r.wallet}|${r.chain}|${req.from}`) !== null;
    const closingKnown = holdings.get(`${r.wallet}|${r.chain}|${req.to}`) !== null;
    const openingNav = openingKnown ? (o ? o.nav : 0) : null;
    const closingNav = closingKnown ? (c ? c.nav : 0) : null;
    const tf = tokenFlows.get(`${r.wallet}|${r.chain}|${key}`);
    const flowValue = tf && tf.unvalued ? null : sum(tf?.values ?? []);
    const accrualQty = r.unexplained_qty;
    const priceDates = new Set(tf?.dates ?? []);
    let accrualValue: number | null = null;
    if (accrualQty === 0) accrualValue = 0;
    else if (accrualQty !== null) {
      const p = priceNear(r.chain, key, req.to);
      if (p) {
        accrualValue = accrualQty * p.price;
        priceDates.add(p.date);
      } else {
        const u = unvaluedChanges.get(`${r.chain}|${key}`) ?? { chain: r.chain, name: r.token_symbol ?? key, lines: 0 };
        u.lines += 1;
        unvaluedChanges.set(`${r.chain}|${key}`, u);
      }
    }
    const priceEffect =
      openingNav !== null && closingNav !== null && flowValue !== null && accrualValue !== null
        ? sum([closingNav, -openingNav, -flowValue, -accrualValue])
        : null;
    tokens.push({
      wallet: r.wallet,
      chain: r.chain,
      symbol: r.token_symbol,
      tokenCid: r.token_cid,
      openingQty: r.opening_qty,
      closingQty: r.closing_qty,
      inflowQty: r.inflow_qty,
      outflowQty: r.outflow_qty,
      accrualQty,
      openingNav,
      closingNav,
      // To the cent, as every money figure of the pack is shown (its roll-forward closes to the cent).
      flowValue: flowValue === null ? null : cents(flowValue),
      accrualValue: accrualValue === null ? null : cents(accrualValue),
      priceEffect: priceEffect === null ? null : cents(priceEffect),
      priceDates: [...priceDates].sort(),
    });
  }

  // The scope's parts at each end, from the same two views the totals come from.
  for (const [view, end] of [
    [opening, 'opening'],
    [closing, 'closing'],
  ] as const) {
    for (const w of wallets) flowsOf(byWallet, w.address, w.label || short(w.address))[end] = view.byWallet.get(w.address) ?? null;
    for (const a of view.protocol) flowsOf(byProtocol, a.label, a.label || 'No protocol')[end] = a.value;
    for (const a of view.chain) flowsOf(byChain, a.label, a.label)[end] = a.value;
  }

  const openingNav = opening.total;
  const closingNav = closing.total;
  const known = (xs: Array<number | null>) => xs.filter((x): x is number => x !== null);
  // Each line of the roll-forward to the cent, and `other` the rest of the change in cents: the
  // lines then add up to the change exactly as printed (a value × price carries float noise).
  const externalIn = cents(sum([...byCategory.values()].map((l) => l.inflow)));
  const externalOut = cents(sum([...byCategory.values()].map((l) => l.outflow)));
  const internalNet = cents(sum(internal));
  const accruals = cents(sum(known(tokens.map((t) => t.accrualValue))));
  const priceEffect = cents(sum(known(tokens.map((t) => t.priceEffect))));
  const change = openingNav !== null && closingNav !== null ? sum([closingNav, -openingNav]) : null;
  const other = change === null ? 0 : sum([change, -externalIn, externalOut, -internalNet, -accruals, -priceEffect]);
  // A name that holds on some of the line's chains only says so, in the label every reader shows
  // (the screen, the PDF and the CSV alike).
  for (const [id, c] of nameChains) {
    if (!c.named.size || !c.unnamed.size) continue;
    const line = byCounterparty.get(id)!;
    line.label = `${line.label} (named on ${[...c.named].sort().join(', ')}; not on ${[...c.unnamed].sort().join(', ')})`;
  }
  for (const lines of [byCategory.values(), byCounterparty.values(), byWallet.values(), byProtocol.values(), byChain.values()])
    for (const l of lines) {
      l.inflow = cents(l.inflow);
      l.outflow = cents(l.outflow);
    }

  for (const r of [opening.partial, closing.partial]) if (r) reasons.unshift(r);
  const problemNames = new Map(wallets.map((w) => [w.address, w.label]));
  for (const p of rec.problems)
    if (!/positions at .* are not cached/.test(p.message))
      reasons.push(`${memberNames([{ wallet: p.wallet, chain: p.chain, label: problemNames.get(p.wallet) ?? null }])[0]}: ${p.message}`);
  // One finding with one way forward, not a line per token (issue 39: a fresh wallet gave 24; a
  // fund's month, hundreds): the tokens with a transfer or a change no transaction explains that
  // no cached price values.
  const unpricedTokens = new Map<string, { name: string; transfers: number; changes: number }>();
  for (const [k, u] of unpriced) unpricedTokens.set(k, { name: `${u.symbol ?? u.tokenCid ?? 'a token'} (${u.chain})`, transfers: u.transfers, changes: 0 });
  for (const [k, u] of unvaluedChanges) {
    const t = unpricedTokens.get(k) ?? unpricedTokens.set(k, { name: `${u.name} (${u.chain})`, transfers: 0, changes: 0 }).get(k)!;
    t.changes += u.lines;
  }
  if (unpricedTokens.size) {
    const tokens = [...unpricedTokens.values()].sort((a, b) => b.transfers + b.changes - (a.transfers + a.changes) || a.name.localeCompare(b.name));
    const named = tokens.slice(0, 5).map((u) => u.name);
    const more = tokens.length - named.length;
    const transfers = tokens.reduce((n, u) => n + u.transfers, 0);
    const changes = tokens.reduce((n, u) => n + u.changes, 0);
    reasons.push(englishCoreSentences(String).noPrice(tokens.length, named.join(', '), more, transfers, changes));
  }
  if (opening.unknownValues || closing.unknownValues)
    reasons.push('A position value the service sent could not be read: it is left out of a total (see Data quality).');
  const byValue = <T extends { inflow: number; outflow: number; label: string }>(xs: Iterable<T>) =>
    [...xs].sort((a, b) => b.inflow + b.outflow - (a.inflow + a.outflow) || a.label.localeCompare(b.label));
  const byNav = (xs: Iterable<PackPart>) =>
    [...xs].sort((a, b) => (b.closing ?? b.opening ?? 0) - (a.closing ?? a.opening ?? 0) || a.label.localeCompare(b.label));

  return {
    from: req.from,
    to: req.to,
    scope: req.scope,
    wallets: addresses,
    opening: openingNav,
    closing: closingNav,
    change,
    inflows: externalIn,
    outflows: externalOut,
    protocolIn: cents(protocolMoves.inflow),
    protocolOut: cents(protocolMoves.outflow),
    positionMoves: {
      moved_into_positions: cents(sum(positionMoves.moved_into_positions)),
      moved_out_of_positions: cents(sum(positionMoves.moved_out_of_positions)),
      debt_drawn: cents(sum(positionMoves.debt_drawn)),
      debt_repaid: cents(sum(positionMoves.debt_repaid)),
    },
    internal: internalNet,
    // Unknown where the change is: the lines of a change that cannot be known.
    accruals: change === null ? null : accruals,
    priceEffect: change === null ? null : priceEffect,
    other: change === null ? null : other,
    byCategory: byValue(byCategory.values()),
    byCounterparty: byValue(byCounterparty.values()),
    byWallet: wallets.map((w) => byWallet.get(w.address)!),
    byProtocol: byNav(byProtocol.values()),
    byChain: byNav(byChain.values()),
    tokens,
    unpriced: [...unpriced.values()],
    unknownOutflows,
    spamTransactions,
    spamPositions: {
      opening: { count: opening.spam.count, claimed: opening.spam.claimed },
      closing: { count: closing.spam.count, claimed: closing.spam.claimed },
    },
    complete: reasons.length === 0 && opening.complete && closing.complete && rec.complete,
    reasons: [...new Set(reasons)],
  };
}

/** A scope's name as its packs and closes carry it: the group's name, the wallet's label (else its address), or "All wallets". */
export function scopeNameOf(scope: { group?: { name: string } | undefined; wallet?: Pick<Wallet, 'label' | 'address'> | undefined }): string {
  return scope.group?.name ?? (scope.wallet ? scope.wallet.label || scope.wallet.address : ALL_WALLETS);
}

/**
 * The pack of a scope as every reader builds it (the Monthly pack view, a close, the PDF and CSV
 * exports): its flows named from the address book and the watched wallets, and categorised by
 * the notes and rules. One place, so the screen, a closed period and a file never name or file a
 * flow differently.
 */
export function scopePack(db: ReadableDB, req: Omit<PackRequest, 'namer' | 'categorise'>): MonthlyPack {
  return buildPack(db, { ...req, namer: counterpartyNamer(db), categorise: hasAnnotations(db) ? (keys) => categoriesOf(db, keys) : undefined });
}
