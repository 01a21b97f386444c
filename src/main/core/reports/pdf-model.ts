import type { LiquiditySnapshot, Position, PositionSnapshot } from '../../../shared/service/schemas.ts';
import type { ReadableDB } from '../store/db.ts';
import { navHistory } from '../store/queries/nav.ts';
import { reconcile, type Reconciliation } from '../store/queries/reconcile.ts';
import { latestSnapshots, snapshotData } from '../store/queries/latest.ts';
import { TIMELINE_COLUMNS, timelineWhere, toTimelineRow } from '../store/queries/timeline.ts';
import type { NavPoint, TimelineRow, Wallet } from '../../../shared/model.ts';
import { listWallets } from '../store/wallets.ts';
import { transactionsCoverage } from '../store/transactions.ts';
import { checkDate, ValidationError } from '../store/validation.ts';
import type { ValueFlag } from '../../../shared/service/schemas.ts';
import { decimalSum } from '../../../shared/decimal.ts';

/**
 * What a portfolio report shows, gathered from the cache before anything is drawn: the
 * renderer (pdf.ts) only lays this out, so the numbers are testable without a PDF.
 */
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

export interface ReportModel {
  request: PdfRequest;
  wallets: Wallet[];
  chains: string[];
  totals: { total: number; principal: number; reward: number };
  /**
   * Positions whose value the service sent unreadable (or not at all): left out of the totals,
   * which are then incomplete and say so (never a silently smaller sum, for a group as for one wallet).
   */
  unknownValues: number;
  /** Which of the totals leave an unreadable value out. */
  unknownIn: { principal: boolean; reward: boolean };
  positions: ReportPosition[];
  liquidity: Array<{ wallet: string; chain: string; snapshot: LiquiditySnapshot }>;
  nav: NavPoint[];
  allocation: { assetType: Array<[string, number]>; protocol: Array<[string, number]>; chain: Array<[string, number]> };
  provenance: Provenance[];
  transactions: TimelineRow[];
  transactionsTotal: number;
  byAction: Array<{ action: string; count: number; failed: number; feesUsd: number }>;
  /** Roll-forward from `from` to `to` (both given), with what it could not check. */
  reconciliation: Reconciliation | null;
  /** Responses behind the report with values the service sent unreadable (left out of every total), or dated another day. */
  quality: Array<{ wallet: string; chain: string; endpoint: string; flags: ValueFlag[] }>;
  /** Why the transactions of the period are not known to be complete; empty when they are. */
  transactionsIncomplete: string[];
  /** The newest fetch behind the report: its fixed timestamp, so the same cache gives the same bytes. */
  dataTime: string;
}

/** Transactions listed in the PDF at most; the CSV export has them all. */
export const LISTED_TRANSACTIONS = 5000;

export function buildReportModel(db: ReadableDB, req: PdfRequest): ReportModel {
  checkDate('date', req.date);
  if (req.from) checkDate('from', req.from);
  if (req.to) checkDate('to', req.to);
  if (req.from && req.to && req.from > req.to) throw new ValidationError('to', 'The end of the period is before its start.');
  const all = listWallets(db);
  const wallets = req.wallet
    ? all.filter((w) => w.address === req.wallet!.toLowerCase())
    : req.wallets
      ? all.filter((w) => req.wallets!.includes(w.address))
      : all;
  if (!wallets.length) throw new ValidationError('wallet', req.wallet ? `${req.wallet} is not a watched wallet.` : 'No wallets are watched.');
  const scope = req.wallet ? { wallet: wallets[0]!.address } : {};
  const inScope = (w: string, c: string) => wallets.some((x) => x.address === w && x.chains.includes(c));

  const snaps = latestSnapshots(db, 'allPositions', { ...scope, date: req.date }).filter((s) => inScope(s.wallet, s.chain));
  if (!snaps.length) throw new ValidationError('date', `No positions are cached for ${req.date}: sync that date first.`);
  const positions: ReportPosition[] = [];
  for (const s of snaps)
    for (const snap of snapshotData<'allPositions'>(db, s.id) as PositionSnapshot[])
      for (const p of snap.positions) positions.push({ wallet: s.wallet, chain: s.chain, position: p });
  positions.sort((a, b) => total(b.position) - total(a.position));

  const liqSnaps = latestSnapshots(db, 'liquidityAnalysis', { ...scope, date: req.date }).filter((s) => inScope(s.wallet, s.chain));
  const liquidity = liqSnaps.flatMap((s) =>
    (snapshotData<'liquidityAnalysis'>(db, s.id) as LiquiditySnapshot[]).map((snapshot) => ({ wallet: s.wallet, chain: s.chain, snapshot })),
  );

  const provenance: Provenance[] = [];
  const quality: ReportModel['quality'] = [];
  for (const endpoint of ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'] as const)
    for (const s of latestSnapshots(db, endpoint, { ...scope, date: req.date }).filter((x) => inScope(x.wallet, x.chain))) {
      provenance.push({ wallet: s.wallet, chain: s.chain, endpoint, asOf: s.as_of, fetchedAt: s.fetched_at, requestId: s.request_id, sha256: s.sha256 });
      if (s.quality) quality.push({ wallet: s.wallet, chain: s.chain, endpoint, flags: JSON.parse(s.quality) as ValueFlag[] });
    }
  quality.sort((a, b) => a.wallet.localeCompare(b.wallet) || a.chain.localeCompare(b.chain) || a.endpoint.localeCompare(b.endpoint));
  provenance.sort((a, b) => a.wallet.localeCompare(b.wallet) || a.chain.localeCompare(b.chain) || a.endpoint.localeCompare(b.endpoint));

  const nav = navHistory(db, {
    ...scope,
    ...(req.wallets && { wallets: wallets.map((w) => w.address) }),
    ...(req.from && { from: req.from }),
    to: req.to ?? req.date,
  }).points;

  const transactions: TimelineRow[] = [];
  let transactionsTotal = 0;
  let transactionsIncomplete: string[] = [];
  const byAction = new Map<string, { action: string; count: number; failed: number; feesUsd: number }>();
  if (req.from || req.to) {
    const fromS = req.from ? Date.parse(`${req.from}T00:00:00Z`) / 1000 : 0;
    const toS = Date.parse(`${req.to ?? req.date}T23:59:59Z`) / 1000;
    transactionsIncomplete = transactionsCoverage(db, wallets, fromS, toS);
    const { sql, params } = timelineWhere({ ...scope, ...(req.from && { from: req.from }), ...(req.to && { to: req.to }) });
    for (const raw of db.prepare(`SELECT ${TIMELINE_COLUMNS} FROM transactions t WHERE ${sql} ORDER BY t.time, t.id`).iterate(params) as IterableIterator<
      Parameters<typeof toTimelineRow>[0]
    >) {
      const row = toTimelineRow(raw);
      if (req.wallets && !inScope(row.wallet, row.chain)) continue; // a group's members only
      transactionsTotal++;
      if (transactions.length < LISTED_TRANSACTIONS) transactions.push(row);
      const key = row.actionType ?? 'unknown';
      const a = byAction.get(key) ?? { action: key, count: 0, failed: 0, feesUsd: 0 };
      a.count++;
      if (row.status === 0) a.failed++;
      a.feesUsd += row.gasFee ?? 0;
      byAction.set(key, a);
    }
  }

  // Exact in decimal, so a total of 2-decimal figures prints without float noise.
  const sum = (f: (p: Position) => number | null) => decimalSum(positions.map((r) => f(r.position) ?? 0));
  const group = (key: (r: ReportPosition) => string) => {
    const m = new Map<string, number>();
    for (const r of positions) m.set(key(r), (m.get(key(r)) ?? 0) + total(r.position));
    return [...m.entries()].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  };
  const fetched = provenance.map((p) => p.fetchedAt).sort();
  const principal = sum((p) => p.principal_nav);
  const reward = sum((p) => p.reward_nav);
  return {
    request: req,
    wallets,
    chains: [...new Set(snaps.map((s) => s.chain))].sort(),
    totals: { principal, reward, total: decimalSum([principal, reward]) },
    unknownValues: positions.filter(
      (r) =>
        (r.position.principal_nav === null && r.position.reward_nav === null) ||
        r.position._invalid?.['principal_nav'] !== undefined ||
        r.position._invalid?.['reward_nav'] !== undefined,
    ).length,
    unknownIn: {
      principal: positions.some(
        (r) => r.position._invalid?.['principal_nav'] !== undefined || (r.position.principal_nav === null && r.position.reward_nav === null),
      ),
      reward: positions.some((r) => r.position._invalid?.['reward_nav'] !== undefined || (r.position.principal_nav === null && r.position.reward_nav === null)),
    },
    positions,
    liquidity,
    nav,
    allocation: {
      assetType: group((r) => r.position.asset_type ?? 'unknown'),
      protocol: group((r) => r.position.protocol_id ?? 'unknown'),
      chain: group((r) => r.chain),
    },
    provenance,
    transactions,
    transactionsTotal,
    byAction: [...byAction.values()].sort((a, b) => b.count - a.count),
    reconciliation: req.from && req.to ? reconcile(db, { wallets: wallets.map((w) => w.address), from: req.from, to: req.to }) : null,
    quality,
    transactionsIncomplete,
    dataTime: fetched.at(-1) ?? `${req.date}T00:00:00.000Z`,
  };
}

export function total(p: Position): number {
  return (p.principal_nav ?? 0) + (p.reward_nav ?? 0);
}
