/**
 * What each kind of alert rule sees in the cache: the subjects its condition holds for now,
 * the subjects it cannot judge now (their open alerts are left as they are: missing or
 * unreadable data never fires an alert nor clears one), and a line saying what was checked.
 */
import type { WritableDB } from '../store/db.ts';
import { walletsInScope } from '../store/scope.ts';
import { lendingRisk, portfolioNav, unlockLadder } from '../portfolio/index.ts';
import { spamJudge, type SpamTxnRow } from '../spam/index.ts';
import { walletCacheSummaries } from '../sync/index.ts';
import { listAnomalies } from '../service/index.ts';
import { outflowsAbove, outflowsToNewCounterparties } from '../ledger/index.ts';
import { newestPositionDates } from '../positions/index.ts';
import { clearPending, pendingSince, type Firing } from './store/alerts.ts';
import { health } from '../../../shared/portfolio/risk.ts';
import type { AlertRule, RuleCheckFacts, Wallet } from '../../../shared/model.ts';

export interface Judgment {
  holds: Firing[];
  /** Subjects this check could not judge: an open alert about one stays open. */
  unknown: (subject: string) => boolean;
  note: string;
  /** What the note says, as figures, for the UI to write in its language (lastCheck.facts). */
  facts: RuleCheckFacts;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const everything = () => true;
const nothing = () => false;

const nameOf = (w: Wallet | undefined, address: string) => (w?.label ? `${w.label} (${address})` : address);
const fixed = (n: number, digits: number) => Number(n.toFixed(digits));

export function judge(db: WritableDB, rule: AlertRule, nowMs: number): Judgment {
  const wallets = walletsInScope(db, rule.scope);
  if (typeof wallets === 'string')
    return { holds: [], unknown: everything, note: `Not checked: ${wallets}. Change or remove the rule.`, facts: { kind: 'not-checked', why: wallets } };
  if (!wallets.length) return { holds: [], unknown: nothing, note: 'No wallets in scope.', facts: { kind: 'no-wallets' } };
  const byAddress = new Map(wallets.map((w) => [w.address, w]));
  const c = rule.condition;
  switch (c.kind) {
    case 'health':
    case 'unlock':
      return positionsRule(db, rule, wallets, byAddress, nowMs);
    case 'nav-move':
      return navRule(db, rule, wallets);
    case 'outflow': {
      const rows = outflowsAbove(db, { wallets: [...byAddress.keys()], sinceMs: Date.parse(rule.createdAt), symbol: c.symbol, above: c.above });
      return {
        holds: rows.map((r) => ({
          subject: `${r.wallet}|${r.chain}|${r.hash}`,
          wallet: r.wallet,
          title: `Outflow of ${r.qty} ${r.symbol} (above ${c.above})`,
          detail: `${nameOf(byAddress.get(r.wallet), r.wallet)} sent ${r.qty} ${r.symbol} on ${r.chain}${r.to ? ` to ${r.to}` : ''} at ${new Date(r.time).toISOString()} (transaction ${r.hash}).`,
          facts: {
            wallet: r.wallet,
            chain: r.chain,
            txnHash: r.hash,
            time: new Date(r.time).toISOString(),
            to: r.to,
            symbol: r.symbol,
            qty: r.qty,
            above: c.above,
          },
        })),
        // A transaction's outflow holds as long as it is cached: one no longer there (a reorg, a purge) clears.
        unknown: nothing,
        note: `${rows.length} outflow${rows.length === 1 ? '' : 's'} of ${c.symbol} above ${c.above} since the rule was made.`,
        facts: { kind: 'outflows', count: rows.length, symbol: c.symbol, above: c.above },
      };
    }
    case 'new-counterparty': {
      // A poisoner's zero-value transferFrom is written as the wallet sending to the lookalike: spam
      // (docs/spam.md), never a new counterparty; a real payment to a lookalike is the guard's (poisoning.ts).
      const judge = spamJudge(db, { wallets: [...byAddress.keys()], whole: true });
      const rows = outflowsToNewCounterparties(db, { wallets: [...byAddress.keys()], sinceMs: Date.parse(rule.createdAt) }).filter(
        (r) => !judge.transaction({ ...r, txnHash: r.hash, details: JSON.parse(r.details) as SpamTxnRow['details'] }).spam,
      );
      return {
        holds: rows.map((r) => ({
          subject: `${r.wallet}|${r.chain}|${r.hash}`,
          wallet: r.wallet,
          title: `Outflow to a new counterparty ${r.to}`,
          detail: `${nameOf(byAddress.get(r.wallet), r.wallet)} sent ${r.symbols ?? 'tokens'} on ${r.chain} to ${r.to}, an address it had no earlier cached transaction with, at ${new Date(r.time).toISOString()} (transaction ${r.hash}).`,
          facts: { wallet: r.wallet, chain: r.chain, txnHash: r.hash, time: new Date(r.time).toISOString(), to: r.to, symbols: r.symbols },
        })),
        unknown: nothing,
        note: `${rows.length} outflow${rows.length === 1 ? '' : 's'} to new counterparties since the rule was made (judged against the cached history).`,
        facts: { kind: 'new-counterparties', count: rows.length },
      };
    }
    case 'stale':
      return staleRule(db, rule, wallets, nowMs, c.hours);
  }
}

/** Health and unlocks, each (wallet, chain) at its own newest cached date. */
function positionsRule(db: WritableDB, rule: AlertRule, wallets: Wallet[], byAddress: Map<string, Wallet>, nowMs: number): Judgment {
  const c = rule.condition;
  const newest = newestPositionDates(db, [...byAddress.keys()]).filter((n) => byAddress.get(n.wallet)?.chains.includes(n.chain));
  const newestOf = new Map(newest.map((n) => [`${n.wallet}|${n.chain}`, n.date]));
  const unreadable = new Set<string>();
  const holds: Firing[] = [];
  let checked = 0;
  for (const date of new Set(newest.map((n) => n.date))) {
    const here = [...new Set(newest.filter((n) => n.date === date).map((n) => n.wallet))];
    const atDate = (r: { wallet: string; chain: string }) => newestOf.get(`${r.wallet}|${r.chain}`) === date;
    if (c.kind === 'health') {
      const risk = lendingRisk(db, date, here);
      for (const u of risk.unknown.filter(atDate)) unreadable.add(`${u.wallet}|${u.chain}`);
      for (const p of risk.positions.filter(atDate)) {
        checked++;
        const h = health(p.collateralDebtRatio, p.liqThreshold);
        if (h === null || !(h < c.below)) continue;
        holds.push({
          subject: `${p.wallet}|${p.chain}|${p.cid}`,
          wallet: p.wallet,
          title: `Health ${fixed(h, 3)} below ${c.below}: ${p.name ?? p.cid}`,
          detail: `${p.name ?? p.cid} of ${nameOf(byAddress.get(p.wallet), p.wallet)} on ${p.chain}, ${date}: collateral/debt ${p.collateralDebtRatio} × liquidation threshold ${p.liqThreshold} = health ${fixed(h, 3)} (below 1 it can be liquidated).`,
          facts: {
            wallet: p.wallet,
            chain: p.chain,
            cid: p.cid,
            position: p.name,
            date,
            health: fixed(h, 6),
            collateralDebtRatio: p.collateralDebtRatio,
            liqThreshold: p.liqThreshold,
            below: c.below,
          },
        });
      }
    } else if (c.kind === 'unlock') {
      const end = nowMs + c.withinDays * DAY_MS;
      for (const u of unlockLadder(db, date, here).unlocks.filter(atDate)) {
        checked++;
        const at = Date.parse(u.unlockTime);
        if (!(at >= nowMs && at <= end)) continue;
        const days = Math.ceil((at - nowMs) / DAY_MS);
        holds.push({
          subject: `${u.wallet}|${u.chain}|${u.tokenId ?? u.symbol}|${u.position}|${u.unlockTime}`,
          wallet: u.wallet,
          title: `Unlock in ${days} day${days === 1 ? '' : 's'}: ${u.qty ?? '?'} ${u.symbol ?? ''} of ${u.position ?? 'a position'}`.replace(/ {2,}/g, ' '),
          detail: `${u.qty ?? 'An unknown quantity of'} ${u.symbol ?? 'tokens'} in ${u.position ?? 'a position'} of ${nameOf(byAddress.get(u.wallet), u.wallet)} on ${u.chain} unlock at ${u.unlockTime} (as cached on ${date}).`,
          facts: {
            wallet: u.wallet,
            chain: u.chain,
            position: u.position,
            symbol: u.symbol,
            qty: u.qty,
            nav: u.nav,
            unlockTime: u.unlockTime,
            date,
            withinDays: c.withinDays,
          },
        });
      }
    }
  }
  // A chain with no cached positions, or a position whose figures were unreadable, is not judged.
  const unknown = (subject: string) => {
    const pair = subject.split('|').slice(0, 2).join('|');
    return unreadable.has(pair) || (byAddress.has(pair.split('|')[0]!) && !newestOf.has(pair));
  };
  const notCached = wallets.flatMap((w) => w.chains.filter((ch) => !newestOf.has(`${w.address}|${ch}`)).map((ch) => `${w.address} on ${ch}`));
  const what = c.kind === 'health' ? 'lending position' : 'unlock';
  const note = [
    `${checked} ${what}${checked === 1 ? '' : 's'} checked at each chain's newest cached date; ${holds.length} ${c.kind === 'health' ? 'below the threshold' : 'within the window'}.`,
    ...(notCached.length
      ? [`Not cached, not judged: ${notCached.slice(0, 5).join(', ')}${notCached.length > 5 ? ` and ${notCached.length - 5} more` : ''}.`]
      : []),
    ...(unreadable.size ? [`Unreadable figures, not judged: ${[...unreadable].slice(0, 5).join(', ').replaceAll('|', ' on ')}.`] : []),
  ].join(' ');
  const facts: RuleCheckFacts = {
    kind: 'positions',
    what: c.kind === 'health' ? 'health' : 'unlock',
    checked,
    holds: holds.length,
    notCached: wallets.flatMap((w) => w.chains.filter((ch) => !newestOf.has(`${w.address}|${ch}`)).map((ch) => `${w.address}|${ch}`)),
    unreadable: [...unreadable],
  };
  return { holds, unknown, note, facts };
}

/**
 * NAV between the scope's two newest dates that every watched chain of the scope has cached.
 * When the newest date is partial the move is not computed (a partial total could fire an
 * alert or clear one wrongly): the note says so and open alerts stay as they are.
 */
function navRule(db: WritableDB, rule: AlertRule, wallets: Wallet[]): Judgment {
  const c = rule.condition as { kind: 'nav-move'; percent: number };
  const points = portfolioNav(db, { wallets: wallets.map((w) => w.address) }).points.toSorted((a, b) => a.date.localeCompare(b.date));
  const newest = points.at(-1);
  if (!newest) return { holds: [], unknown: everything, note: 'No cached dates yet: NAV move not judged.', facts: { kind: 'nav-none' } };
  if (newest.chainsCached < newest.chainsWatched)
    return {
      holds: [],
      unknown: everything,
      note: `Partial coverage on ${newest.date}: ${newest.chainsCached} of ${newest.chainsWatched} watched chains cached, so its total is not compared (sync every chain of the scope for that date).`,
      facts: { kind: 'nav-partial', date: newest.date, cached: newest.chainsCached, watched: newest.chainsWatched },
    };
  const previous = points.slice(0, -1).filter((p) => p.chainsCached === p.chainsWatched);
  const prev = previous.at(-1);
  if (!prev)
    return {
      holds: [],
      unknown: everything,
      note: `Only one fully cached date (${newest.date}): NAV move needs two.`,
      facts: { kind: 'nav-one', date: newest.date },
    };
  const skipped = points.filter((p) => p.date > prev.date && p.date < newest.date).length;
  if (newest.totalNav === null || prev.totalNav === null || prev.totalNav === 0)
    return {
      holds: [],
      unknown: everything,
      note: `NAV on ${prev.date} or ${newest.date} is unknown or zero: move not computed.`,
      facts: { kind: 'nav-unknown', from: prev.date, to: newest.date },
    };
  const move = ((newest.totalNav - prev.totalNav) / Math.abs(prev.totalNav)) * 100;
  const note = `NAV ${prev.date} → ${newest.date}: ${move >= 0 ? '+' : ''}${move.toFixed(2)} %${skipped ? ` (${skipped} partially cached date${skipped === 1 ? '' : 's'} between, not counted)` : ''}.`;
  const facts: RuleCheckFacts = { kind: 'nav-move', from: prev.date, to: newest.date, percent: fixed(move, 6), skipped };
  if (!(Math.abs(move) > c.percent)) return { holds: [], unknown: nothing, note, facts };
  const scope = rule.scope.kind === 'all' ? 'all wallets' : rule.scope.kind === 'wallet' ? rule.scope.address : `group ${rule.scope.id}`;
  return {
    holds: [
      {
        subject: 'nav',
        wallet: rule.scope.kind === 'wallet' ? rule.scope.address : null,
        title: `NAV ${move >= 0 ? 'rose' : 'fell'} ${Math.abs(move).toFixed(2)} % (more than ${c.percent} %)`,
        detail: `NAV of ${scope} went from ${prev.totalNav.toFixed(2)} USD on ${prev.date} to ${newest.totalNav.toFixed(2)} USD on ${newest.date} (every watched chain cached on both dates).`,
        facts: {
          from: prev.date,
          to: newest.date,
          navFrom: prev.totalNav,
          navTo: newest.totalNav,
          movePercent: fixed(move, 4),
          percent: c.percent,
          // Whose NAV, for a text written elsewhere (the app's inbox, in the user's locale).
          scope: rule.scope.kind,
          group: rule.scope.kind === 'group' ? rule.scope.id : null,
        },
      },
    ],
    unknown: nothing,
    note,
    facts,
  };
}

/** A wallet's positions or transactions not synced for N hours, or its data incomplete for N hours (from when a check first saw it). */
function staleRule(db: WritableDB, rule: AlertRule, wallets: Wallet[], nowMs: number, hours: number): Judgment {
  const holds: Firing[] = [];
  const incomplete: string[] = [];
  const limit = hours * HOUR_MS;
  const now = new Date(nowMs).toISOString();
  const summaries = walletCacheSummaries(
    db,
    wallets.map((w) => w.address),
  );
  for (const w of wallets) {
    const s = summaries.get(w.address)!;
    const name = nameOf(w, w.address);
    for (const [what, at] of [
      ['positions', s.positionsFetchedAt],
      ['transactions', s.transactionsSyncedAt],
    ] as const) {
      const since = at ?? w.createdAt;
      const age = nowMs - Date.parse(since);
      if (!(age > limit)) continue;
      const ageHours = Math.floor(age / HOUR_MS);
      holds.push({
        subject: `${w.address}|${what}`,
        wallet: w.address,
        title: `${what === 'positions' ? 'Positions' : 'Transactions'} not synced for ${ageHours} h: ${w.label || w.address}`,
        detail: at
          ? `${name}: ${what} last synced ${at}, more than ${hours} h ago.`
          : `${name}: ${what} never synced since the wallet was added (${w.createdAt}), more than ${hours} h ago.`,
        facts: { wallet: w.address, what, lastSynced: at, hours, ageHours },
      });
    }
    const anomalies = listAnomalies(db, { wallet: w.address, openOnly: true });
    if (s.openRanges > 0 || anomalies.length > 0) {
      const subject = `${w.address}|incomplete`;
      incomplete.push(subject);
      const since = pendingSince(db, rule.id, subject, now);
      if (nowMs - Date.parse(since) > limit)
        holds.push({
          subject,
          wallet: w.address,
          title: `Sync incomplete for more than ${hours} h: ${w.label || w.address}`,
          detail: `${name}: its cached data has been incomplete since ${since} (${s.openRanges} transaction range${s.openRanges === 1 ? '' : 's'} not complete, ${anomalies.length} open anomal${anomalies.length === 1 ? 'y' : 'ies'}).`,
          facts: { wallet: w.address, incompleteSince: since, openRanges: s.openRanges, anomalies: anomalies.length, hours },
        });
    }
  }
  clearPending(db, rule.id, incomplete);
  return {
    holds,
    unknown: nothing,
    note: `${wallets.length} wallet${wallets.length === 1 ? '' : 's'} checked; ${holds.length} stale or incomplete for more than ${hours} h.`,
    facts: { kind: 'stale', wallets: wallets.length, holds: holds.length, hours },
  };
}
