/**
 * What a portfolio report shows, gathered from the cache before anything is drawn: every figure
 * of the report is here (the portfolio math is src/shared/portfolio's, the same as the views'),
 * and the renderer (pdf.ts) only lays it out, so the numbers are testable without a PDF.
 */
import type { LiquiditySnapshot, Position, ValueFlag } from '../../../shared/service/schemas.ts';
import type { ReadableDB } from '../store/db.ts';
import { latestSnapshots, snapshotData } from '../positions/index.ts';
import { portfolioNav } from '../portfolio/index.ts';
import { reconcile } from '../analytics/index.ts';
import { periodTransactions, markAnnotations } from '../ledger/index.ts';
import { transactionsCoverage } from '../transactions/index.ts';
import type { NavPoint, TimelineRow, Wallet, Reconciliation } from '../../../shared/model.ts';
import { listWallets } from '../store/wallets.ts';
import { checkDate, ValidationError } from '../store/validation.ts';
import { addressKey } from '../store/address-key.ts';
import type { PositionTotals } from '../../../shared/portfolio/totals.ts';
import type { AllocationEntry } from '../../../shared/portfolio/allocation.ts';
import { lendingFigures, lendingLegs, riskLeg } from '../../../shared/portfolio/lending.ts';
import { isAtRisk } from '../../../shared/portfolio/risk.ts';
import { reconcileCounts, type ReconcileCounts } from '../../../shared/reconcile-summary.ts';
import { maxSlippage } from '../../../shared/portfolio/pools.ts';
import type { MemberCoverage } from '../../../shared/portfolio/view.ts';
import { portfolioView } from '../portfolio/index.ts';
import { counterpartyNamer, partiesOf } from '../counterparties/index.ts';

export interface PdfRequest {
  wallet?: string;
  /** A wallet group's members (the report is made per group). */
  wallets?: readonly string[];
  /** The group's name: the report's title names it. */
  groupName?: string;
  /** The as-of date of the positions. */
  date: string;
  /** The period of the transactions and of the NAV chart (defaults: all cached dates, no transactions). */
  from?: string;
  to?: string;
}

export interface Provenance {
  wallet: string;
  chain: string;
  endpoint: string;
  asOf: string;
  fetchedAt: string;
  requestId: string | null;
  sha256: string;
}

export interface ReportPosition {
  wallet: string;
  chain: string;
  position: Position;
}

/** A lending position's row: collateral and debt values (debt negative), ratio, threshold and whether it is at risk. */
export interface LendingRow {
  name: string | null;
  chain: string;
  collateralNav: number | null;
  debtNav: number | null;
  ratio: number | null;
  liqThreshold: number | null;
  atRisk: boolean;
}

export interface LockedRow {
  name: string | null;
  chain: string;
  qty: number | null;
  symbol: string | null;
  unlockTime: string;
  votingPower: number | null;
}

export interface PoolRow {
  name: string | null;
  chain: string;
  qty: number | null;
  /** Percent (0..100) of the pool held; null when the service did not say (or sent it unreadable). */
  ownershipPct: number | null;
  maxSlippage: number | null;
}

export interface ActionSummary {
  action: string;
  count: number;
  failed: number;
  feesUsd: number;
}

export interface ReportModel {
  request: PdfRequest;
  wallets: Wallet[];
  /** The chains with positions counted in the totals. */
  chains: string[];
  /**
   * Whether the totals cover every member of the scope (wallet × chain) at the date, and which
   * are missing: a report over a scope with a member not cached says so in its summary.
   */
  coverage: { complete: boolean; missing: MemberCoverage[]; walletsCounted: number; members: MemberCoverage[] };
  /** Summary figures, with the one null rule (src/shared/portfolio/totals.ts): null is unknown, never 0. */
  totals: PositionTotals;
  /**
   * Positions whose value the service sent unreadable (or not at all): left out of the totals,
   * which are then incomplete and say so (never a silently smaller sum, for a group as for one wallet).
   */
  unknownValues: number;
  /** Which of the totals leave an unreadable value out. */
  unknownIn: { principal: boolean; reward: boolean };
  /** Positions judged spam (docs/spam.md): in no figure of the report, named under the totals. */
  spam: { count: number; claimed: number | null; rows: Array<{ symbol: string; wallet: string; chain: string; claimed: number | null; why: string }> };
  /** Positions, largest first. */
  positions: ReportPosition[];
  liquidity: Array<{ wallet: string; chain: string; snapshot: LiquiditySnapshot }>;
  nav: NavPoint[];
  /** The dates of the NAV chart (those with a known total), and how many lack a chain. */
  navChart: { points: Array<{ date: string; value: number; partial: boolean }>; partial: number };
  allocation: { assetType: Allocation; protocol: Allocation; chain: Allocation };
  lending: LendingRow[];
  locked: LockedRow[];
  pools: PoolRow[];
  provenance: Provenance[];
  transactions: TimelineRow[];
  transactionsTotal: number;
  /** Transactions of the period beyond the listed ones (in the CSV export). */
  transactionsNotListed: number;
  byAction: ActionSummary[];
  /** The transactions summary's total row. */
  byActionTotal: ActionSummary;
  /** Roll-forward from `from` to `to` (both given), with what it could not check. */
  reconciliation: Reconciliation | null;
  /** Its tokens, those with flows that reconcile exactly, those with an unexplained remainder, the days of the flows, and the problems beyond the listed ones. */
  reconciliationSummary: (ReconcileCounts & { flowsFromDay: string; flowsToDay: string; problemsNotListed: number }) | null;
  /** Responses behind the report with values the service sent unreadable (left out of every total), or dated another day. */
  quality: Array<{ wallet: string; chain: string; endpoint: string; flags: ValueFlag[] }>;
  /** How many values the service sent could not be read (left out of every total). */
  unreadableValues: number;
  /** Why the transactions of the period are not known to be complete; empty when they are. */
  transactionsIncomplete: string[];
  /** The oldest fetch behind the report. */
  dataFrom: string;
  /** The newest fetch behind the report: its fixed timestamp, so the same cache gives the same bytes. */
  dataTime: string;
}

/** Allocation entries with their share (0..1) of the listed whole. */
export type Allocation = Array<AllocationEntry & { share: number }>;

/** Reconciliation problems listed in the PDF at most; the CSV report has them all. */
export const LISTED_PROBLEMS = 20;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Transactions listed in the PDF at most; the CSV export has them all. */
const LISTED_TRANSACTIONS = 5000;

export function buildReportModel(db: ReadableDB, req: PdfRequest): ReportModel {
  checkDate('date', req.date);
  if (req.from) checkDate('from', req.from);
  if (req.to) checkDate('to', req.to);
  if (req.from && req.to && req.from > req.to) throw new ValidationError('to', 'The end of the period is before its start.');
  const all = listWallets(db);
  const wallets = req.wallet
    ? all.filter((w) => w.address === addressKey(req.wallet!))
    : req.wallets
      ? all.filter((w) => req.wallets!.includes(w.address))
      : all;
  if (!wallets.length) throw new ValidationError('wallet', req.wallet ? `${req.wallet} is not a watched wallet.` : 'No wallets are watched.');
  const scope = req.wallet ? { wallet: wallets[0]!.address } : {};
  const inScope = (w: string, c: string) => wallets.some((x) => x.address === w && x.chains.includes(c));

  // NAV first, while little is held: the garbage of its dates' snapshots is collected within a
  // heap still small, where after the view it grew the heap the view had made room for (the
  // all-wallets report of a fund peaked at 1.2 GB: bench/RESULTS.md).
  const nav = portfolioNav(db, {
    ...scope,
    ...(req.wallets && { wallets: wallets.map((w) => w.address) }),
    ...(req.from && { from: req.from }),
    to: req.to ?? req.date,
  }).points;

  // The positions side of the report is the one portfolio view (core/portfolio/view.ts): the
  // same rows, totals and coverage as the screens and the CSVs.
  const view = portfolioView(db, wallets, req.date);
  if (!view.positions.length && view.missing.length === view.members.length)
    throw new ValidationError('date', `No positions are cached for ${req.date}: sync that date first.`);
  const positions: ReportPosition[] = view.positions.map((p) => ({ wallet: p.wallet, chain: p.chain, position: p.position }));
  const liquidity: ReportModel['liquidity'] = [];
  for (const s of latestSnapshots(db, 'liquidityAnalysis', { ...scope, date: req.date }).filter((x) => inScope(x.wallet, x.chain)))
    for (const snapshot of snapshotData<'liquidityAnalysis'>(db, s.id) as LiquiditySnapshot[]) liquidity.push({ wallet: s.wallet, chain: s.chain, snapshot });
  const provenance: Provenance[] = view.provenance.map(({ flags: _flags, ...p }) => p);
  const quality: ReportModel['quality'] = view.provenance
    .filter((p) => p.flags.length)
    .map((p) => ({ wallet: p.wallet, chain: p.chain, endpoint: p.endpoint, flags: p.flags }));

  const transactions: TimelineRow[] = [];
  // The listed rows' ends named from the address book and the watched wallets (issue 28).
  const namer = counterpartyNamer(db);
  let transactionsTotal = 0;
  let transactionsIncomplete: string[] = [];
  const byAction = new Map<string, ActionSummary>();
  if (req.from || req.to) {
    const fromS = req.from ? Date.parse(`${req.from}T00:00:00Z`) / 1000 : 0;
    const toS = Date.parse(`${req.to ?? req.date}T23:59:59Z`) / 1000;
    transactionsIncomplete = transactionsCoverage(db, wallets, fromS, toS);
    for (const row of periodTransactions(db, { ...scope, ...(req.from && { from: req.from }), ...(req.to && { to: req.to }) })) {
      if (req.wallets && !inScope(row.wallet, row.chain)) continue; // a group's members only
      transactionsTotal++;
      if (transactions.length < LISTED_TRANSACTIONS) transactions.push({ ...row, parties: partiesOf(namer, row) });
      const key = row.actionType ?? 'unknown';
      const a = byAction.get(key) ?? { action: key, count: 0, failed: 0, feesUsd: 0 };
      a.count++;
      if (row.status === 0) a.failed++;
      a.feesUsd += row.gasFee ?? 0;
      byAction.set(key, a);
    }
    // The listed transactions' categories and notes (issue 28): one query for the list.
    markAnnotations(db, transactions);
  }
  const actions = [...byAction.values()].sort((a, b) => b.count - a.count);

  const reconciliation = req.from && req.to ? reconcile(db, { wallets: wallets.map((w) => w.address), from: req.from, to: req.to }) : null;
  const fetched = provenance.map((p) => p.fetchedAt).sort();
  const navPoints = nav.filter((p) => p.totalNav !== null);
  return {
    request: req,
    wallets,
    chains: view.chainsCounted,
    coverage: { complete: view.complete, missing: view.missing, walletsCounted: view.walletsCounted, members: view.members },
    totals: view.totals,
    unknownValues: view.unknownValues,
    unknownIn: view.unknownIn,
    spam: {
      count: view.spam.count,
      claimed: view.spam.claimed,
      rows: view.spam.rows.map((r) => ({
        symbol: r.position.symbol ?? r.position.name ?? '?',
        wallet: r.wallet,
        chain: r.chain,
        claimed: r.total,
        why: r.verdict.reasons[0]?.text ?? '',
      })),
    },
    positions,
    liquidity,
    nav,
    navChart: {
      points: navPoints.map((p) => ({ date: p.date, value: p.totalNav!, partial: p.chainsCached < p.chainsWatched })),
      partial: navPoints.filter((p) => p.chainsCached < p.chainsWatched).length,
    },
    allocation: view.allocation,
    lending: positions.filter((r) => riskLeg(r.position)).map((r) => lendingRow(r)),
    locked: positions.flatMap((r) =>
      r.position.underlying
        .filter((u) => u.details.unlock_time)
        .map((u) => ({
          name: r.position.name,
          chain: r.chain,
          qty: u.qty,
          symbol: u.symbol,
          unlockTime: u.details.unlock_time!,
          votingPower: u.details.voting_power ?? null,
        })),
    ),
    pools: liquidity.flatMap((l) =>
      l.snapshot.positions
        .filter((p) => p.underlying.some((u) => u.details.slippage !== undefined))
        .map((p) => ({
          name: p.principal_token_name,
          chain: l.chain,
          qty: p.principal_qty,
          ownershipPct: p.principal_pct_ownership,
          maxSlippage: maxSlippage(p),
        })),
    ),
    provenance,
    transactions,
    transactionsTotal,
    transactionsNotListed: Math.max(0, transactionsTotal - LISTED_TRANSACTIONS),
    byAction: actions,
    byActionTotal: {
      action: 'Total',
      count: transactionsTotal,
      failed: actions.reduce((s, a) => s + a.failed, 0),
      feesUsd: actions.reduce((s, a) => s + a.feesUsd, 0),
    },
    reconciliation,
    reconciliationSummary: reconciliation && {
      ...reconcileCounts(reconciliation.rows),
      // The flows' window is half-open (ms): its last day is the one before its end.
      flowsFromDay: utcDay(reconciliation.flowsFrom),
      flowsToDay: utcDay(reconciliation.flowsTo - 1),
      problemsNotListed: Math.max(0, reconciliation.problems.length - LISTED_PROBLEMS),
    },
    quality,
    unreadableValues: view.unreadableValues,
    transactionsIncomplete,
    dataFrom: fetched[0] ?? `${req.date}T00:00:00.000Z`,
    dataTime: fetched.at(-1) ?? `${req.date}T00:00:00.000Z`,
  };
}

function lendingRow(r: ReportPosition): LendingRow {
  const { ratio, liqThreshold } = lendingFigures(r.position);
  const { collateralNav, debtNav } = lendingLegs(r.position);
  return {
    name: r.position.name,
    chain: r.chain,
    collateralNav,
    // Debt reads as a negative value, as in the positions' legs (0 - 0 is 0, not -0).
    debtNav: debtNav === null ? null : 0 - debtNav,
    ratio,
    liqThreshold,
    atRisk: isAtRisk(ratio, liqThreshold),
  };
}
