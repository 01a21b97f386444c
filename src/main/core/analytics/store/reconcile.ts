import { decimalSum } from '../../../../shared/decimal.ts';
import type { ReadableDB } from '../../store/db.ts';
import { latestSnapshot } from '../../positions/index.ts';
import {
  completeUntil,
  listRanges,
  rangeReason,
  stillIndexing,
  type SyncRange,
  flowsByDay,
  type TokenFlows,
  undatedTransfers,
} from '../../transactions/index.ts';
import { checkDate, ValidationError } from '../../store/validation.ts';
import { tokenTransfers } from '../../ledger/index.ts';
import { getWallet } from '../../store/wallets.ts';
import { isoDateToUtcMs } from '../../../../shared/dates.ts';
import type { PositionMove, PositionMoveKind, ReconcileProblem, ReconcileRow, ReconcileTraceRow, Reconciliation } from '../../../../shared/model.ts';
import { positionKey, positionMoves, type PositionsSide } from './position-moves.ts';
import { spamJudge, type SpamJudge } from '../../spam/index.ts';

/**
 * Roll-forward reconciliation (docs/analytics.md): per wallet, chain and token, the
 * positions' underlying quantities at two cached dates against the transfers of the
 * successful transactions in between.
 *
 * The boundary: a snapshot of date D is the holdings at the END of D (after D's
 * transactions), so the flows are those dated after `from`'s day through `to`'s day:
 * from + 1 day 00:00 UTC ≤ time < to + 1 day 00:00 UTC.
 */

const DAY_MS = 86_400_000;
/** Remainders smaller than this share of the row's largest figure are float noise (the service sends binary floats). */
export const NOISE = 1e-9;

export function flowWindow(from: string, to: string): { start: number; end: number } {
  return { start: isoDateToUtcMs(from)! + DAY_MS, end: isoDateToUtcMs(to)! + DAY_MS };
}

/** Whether complete synced ranges (Unix seconds, inclusive) cover [startSec, endSec]. */
export function rangesCover(ranges: readonly SyncRange[], startSec: number, endSec: number): boolean {
  const complete = ranges.filter((r) => r.state === 'complete').sort((x, y) => x.startTime - y.startTime);
  let runStart: number | null = null;
  let runEnd = 0;
  for (const r of complete) {
    if (runStart !== null && r.startTime <= runEnd + 1) {
      runEnd = Math.max(runEnd, r.endTime);
      continue;
    }
    if (runStart !== null && runStart <= startSec && runEnd >= endSec) return true;
    runStart = r.startTime;
    runEnd = r.endTime;
  }
  return runStart !== null && runStart <= startSec && runEnd >= endSec;
}

interface Holding {
  tokenId: string | null;
  cid: string | null;
  symbol: string | null;
  name: string | null;
  total: number;
  held: number;
  missingQty: boolean;
}

interface Holdings extends PositionsSide {
  tokens: Map<string, Holding>;
  /** When the service sent them (Unix seconds; a check of the same body counts as sending it again). */
  fetchedAt: number;
}

/** Underlying quantities per token of a (wallet, chain) at a date, and the positions holding them; null when the date is not cached. */
function holdingsAt(db: ReadableDB, wallet: string, chain: string, date: string): Holdings | null {
  const snap = latestSnapshot(db, 'positionsByUnderlying', wallet, chain, date);
  if (!snap) return null;
  const out = new Map<string, Holding>();
  const positions = new Set<string>();
  const cidOf = new Map<string, string>();
  for (const s of snap.data) {
    for (const g of s.positions) {
      if (g.token_cid) cidOf.set(g.token_id, g.token_cid.toLowerCase());
      const key = tokenKey(g.token_cid, g.token_id);
      const h = out.get(key) ?? {
        tokenId: g.token_id,
        cid: g.token_cid?.toLowerCase() ?? null,
        symbol: g.token_symbol,
        name: g.token_name,
        total: 0,
        held: 0,
        missingQty: false,
      };
      // The breakdown is the per-position truth; total_qty is its sum as the service rounded it.
      const parts = g.breakdown ?? [];
      if (parts.length) {
        for (const b of parts) {
          if (b.qty === null || b.qty === undefined) h.missingQty = true;
          // In decimal: a debt beside a balance of the same token (5 + -5.02) would leave float noise.
          h.total = decimalSum([h.total, b.qty ?? 0]);
          if (b.asset_type === 'wallet') h.held = decimalSum([h.held, b.qty ?? 0]);
          else {
            const key = positionKey(b.protocol_id, b.cid);
            if (key) positions.add(key);
          }
        }
      } else {
        if (g.total_qty === null || g.total_qty === undefined) h.missingQty = true;
        h.total = decimalSum([h.total, g.total_qty ?? 0]);
      }
      out.set(key, h);
    }
  }
  return { date, tokens: out, positions, cidOf, fetchedAt: Math.floor(Date.parse(snap.fetchedAt) / 1000) };
}

/**
 * The moves between a (wallet, chain)'s balance and its own positions in the period
 * (position-moves.ts); none when either end is not cached.
 */
export function periodMoves(db: ReadableDB, wallet: string, chain: string, from: string, to: string): PositionMove[] {
  const opening = holdingsAt(db, wallet, chain, from);
  const closing = holdingsAt(db, wallet, chain, to);
  const { start, end } = flowWindow(from, to);
  return opening && closing ? positionMoves(db, { wallet, chain, start, end, opening, closing }) : [];
}

/** Tokens match by contract address (transfers name only that), else by the service's id. */
function tokenKey(cid: string | null | undefined, id: string | null | undefined): string {
  return cid ? `cid:${cid.toLowerCase()}` : `id:${id ?? ''}`;
}

const denoise = (value: number, ...scale: number[]): number => (Math.abs(value) <= NOISE * Math.max(...scale.map(Math.abs), 1e-12) ? 0 : digits(value));
/**
 * A quantity to 15 significant digits, all a double carries of a decimal: sums of many float
 * quantities end in noise (-465075.3797379999 for -465075.379738), which a reader would take
 * for a real fraction of a token.
 */
const digits = (value: number): number => (value === 0 ? 0 : Number(value.toPrecision(15)));

/** A flow (summed as floats) less the part of it that moves made, exactly in decimal; what float noise leaves below 0 is 0. */
const flowLess = (flow: number, moved: number): number => {
  const rest = decimalSum([digits(flow), -moved]);
  return Math.abs(rest) <= NOISE * Math.max(Math.abs(flow), 1e-12) ? 0 : digits(rest);
};

export interface ReconcileScope {
  wallets: readonly string[];
  from: string;
  to: string;
}

/** The reconciliation's two dates, checked: refused before anything is read (or its sums kept). */
export function checkPeriod(from: string, to: string): void {
  checkDate('from', from);
  checkDate('to', to);
  if (to < from) throw new ValidationError('to', `The closing date ${to} is before the opening date ${from}.`);
}

/**
 * Reads only: the daily transfer sums are read where a writer has kept them current and summed
 * from the transactions elsewhere (transfer-days.ts), so the core brings them up to date first
 * (refreshTransferDaysFor) where it can write, and the figures are the same either way.
 */
export function reconcile(db: ReadableDB, scope: ReconcileScope, shared?: SpamJudge): Reconciliation {
  checkPeriod(scope.from, scope.to);
  const { start, end } = flowWindow(scope.from, scope.to);
  const problems: ReconcileProblem[] = [];
  const rows: ReconcileRow[] = [];
  const moves: PositionMove[] = [];
  const wallets: string[] = [];
  // A token judged spam (docs/spam.md) is reconciled as any other, then set aside: it is not in
  // the rows every total, the pack and the close read, and the reconciliation says how many.
  // The caller's judge where it has one for its whole pass (the pack's: it has read the closing day).
  const judge = shared ?? spamJudge(db, { wallets: scope.wallets });
  const spam: ReconcileRow[] = [];
  for (const address of scope.wallets) {
    const w = getWallet(db, address);
    if (!w) throw new ValidationError('wallet', `${address} is not a watched wallet.`);
    wallets.push(w.address);
    const flows = new Map<string, TokenFlows>();
    // Days [from + 1, to]: the transactions after the opening snapshot through the closing one.
    for (const f of flowsByDay(db, w.address, w.chains, start / DAY_MS, end / DAY_MS - 1)) flows.set(`${f.chain}|${tokenKey(f.cid, null)}`, f);
    for (const chain of w.chains) {
      const problem = (message: string) => problems.push({ wallet: w.address, chain, message });
      const opening = holdingsAt(db, w.address, chain, scope.from);
      const closing = holdingsAt(db, w.address, chain, scope.to);
      if (!opening) problem(`positions at ${scope.from} are not cached (sync that date)`);
      if (!closing) problem(`positions at ${scope.to} are not cached (sync that date)`);
      let chainComplete = opening !== null && closing !== null;
      if (end > start) {
        const ranges = listRanges(db, w.address, chain);
        // The closing holdings are those of the moment the service sent them: for a day not over
        // (today), the flows can be proved only up to that moment, and need be no further.
        // The moment comes with the closing holdings, from the same snapshot: asked apart, per
        // wallet chain, it was a scan of every wallet's by-token snapshots of the date.
        const closedAt = closing?.fetchedAt ?? null;
        const proveTo = Math.min(end / 1000 - 1, closedAt ?? Infinity);
        if (!rangesCover(ranges, start / 1000, proveTo)) {
          chainComplete = false;
          const until = completeUntil(ranges);
          const pending = ranges.filter((r) => r.state !== 'complete' && r.endTime >= start / 1000 && r.startTime <= end / 1000 - 1);
          // An incomplete range says why: still indexing (a completion ratio below 1), or another
          // reason (an anomaly, a ratio that proves nothing), which is then named.
          const other = pending.find((r) => r.state === 'incomplete' && !stillIndexing(r));
          problem(
            other
              ? `transactions of the period are incomplete: ${rangeReason(other)}`
              : pending.some((r) => r.state === 'incomplete')
                ? 'transactions of the period are not fully indexed by the service yet (completion_ratio below 1)'
                : pending.length
                  ? 'the transaction sync of the period was interrupted (sync transactions again)'
                  : `transactions of the period are not synced${until !== null ? ` (complete until ${new Date(until * 1000).toISOString().slice(0, 10)})` : ''}`,
          );
        }
        const unsure = [...flows.entries()].filter(([k]) => k.startsWith(`${chain}|`)).reduce((n, [, f]) => n + f.unsure, 0);
        if (unsure) {
          chainComplete = false;
          problem(`${unsure} transfer(s) of the period belong to transactions with no status: whether they moved tokens is unknown`);
        }
        const undated = undatedTransfers(db, w.address, chain);
        if (undated) {
          chainComplete = false;
          problem(`${undated} transaction(s) have no date: whether they fall in the period is unknown`);
        }
      }
      // Transfers between the balance and the wallet's own positions: moves, not flows (position-moves.ts).
      const chainMoves = opening && closing ? positionMoves(db, { wallet: w.address, chain, start, end, opening, closing }) : [];
      moves.push(...chainMoves);
      const moved = new Map<string, { in: number[]; out: number[] }>();
      for (const m of chainMoves)
        for (const t of m.transfers) {
          const k = tokenKey(t.token_cid, null);
          const entry = moved.get(k) ?? moved.set(k, { in: [], out: [] }).get(k)!;
          entry[t.type].push(t.qty);
        }
      const keys = new Set<string>([...(opening?.tokens.keys() ?? []), ...(closing?.tokens.keys() ?? [])]);
      for (const k of flows.keys()) if (k.startsWith(`${chain}|`)) keys.add(k.slice(chain.length + 1));
      for (const key of keys) {
        const o = opening?.tokens.get(key);
        const c = closing?.tokens.get(key);
        const f = flows.get(`${chain}|${key}`);
        let rowComplete = chainComplete;
        const label = o?.symbol ?? c?.symbol ?? f?.symbol ?? key;
        if (o?.missingQty || c?.missingQty) {
          rowComplete = false;
          problem(`${label}: a position quantity is missing in a snapshot`);
        }
        if (f?.unreadable) {
          rowComplete = false;
          problem(`${label}: ${f.unreadable} transfer(s) with no direction (in/out) or no quantity`);
        }
        if (key === 'cid:' || key === 'id:') {
          rowComplete = false;
          problem(`transfers or positions that name no token cannot be matched`);
        }
        // Each figure to the digits a double carries, then the differences exact in decimal:
        // opening + inflow - outflow + unexplained = closing holds to the last digit shown.
        // A date not cached for this (wallet, chain) is unknown, not empty: its figures are null.
        const at = (h: Holdings | null, held: boolean) => (h === null ? null : digits((held ? h.tokens.get(key)?.held : h.tokens.get(key)?.total) ?? 0));
        const openingQty = at(opening, false);
        const closingQty = at(closing, false);
        // The flows less the moves: what came from and went to others. A move leaves (or joins)
        // the plain balance and joins (or leaves) a position: the total holding is unchanged.
        const m = moved.get(key);
        const movedIn = decimalSum(m?.in ?? []);
        const movedOut = decimalSum(m?.out ?? []);
        const inflow = m ? flowLess(f?.inflow ?? 0, movedIn) : digits(f?.inflow ?? 0);
        const outflow = m ? flowLess(f?.outflow ?? 0, movedOut) : digits(f?.outflow ?? 0);
        const movedToPositions = decimalSum([movedOut, -movedIn]);
        const openingHeld = at(opening, true);
        const closingHeld = at(closing, true);
        const scale = [openingQty ?? 0, closingQty ?? 0, inflow, outflow, movedIn, movedOut];
        const known = openingQty !== null && closingQty !== null;
        const unexplained = known ? denoise(decimalSum([closingQty, -openingQty, -inflow, outflow]), ...scale) : null;
        const walletUnexplained = known ? denoise(decimalSum([closingHeld!, -openingHeld!, -inflow, outflow, movedToPositions]), ...scale) : null;
        const row: ReconcileRow = {
          wallet: w.address,
          chain,
          token_id: o?.tokenId ?? c?.tokenId ?? null,
          token_cid: o?.cid ?? c?.cid ?? (f?.cid || null),
          token_symbol: o?.symbol ?? c?.symbol ?? f?.symbol ?? null,
          token_name: o?.name ?? c?.name ?? null,
          opening_qty: openingQty,
          inflow_qty: inflow,
          outflow_qty: outflow,
          closing_qty: closingQty,
          unexplained_qty: unexplained,
          unexplained_share: unexplained !== null && inflow + outflow > 0 ? Math.abs(unexplained) / (inflow + outflow) : null,
          wallet_opening_qty: openingHeld,
          wallet_closing_qty: closingHeld,
          wallet_unexplained_qty: walletUnexplained,
          moved_to_positions_qty: known ? movedToPositions : null,
          position_change_qty: known ? denoise(decimalSum([closingQty, -closingHeld!, -openingQty, openingHeld!, -movedToPositions]), ...scale) : null,
          txn_count: f?.txns ?? 0,
          status: !rowComplete ? 'incomplete' : unexplained === 0 ? 'reconciled' : 'unexplained',
        };
        const isSpam = judge.token(w.address, chain, { cid: row.token_cid, symbol: row.token_symbol, name: row.token_name }, scope.to).spam;
        (isSpam ? spam : rows).push(row);
      }
    }
  }
  const byToken = (a: ReconcileRow, b: ReconcileRow) =>
    a.wallet.localeCompare(b.wallet) ||
    a.chain.localeCompare(b.chain) ||
    (a.token_symbol ?? '').localeCompare(b.token_symbol ?? '') ||
    (a.token_cid ?? '').localeCompare(b.token_cid ?? '');
  rows.sort(byToken);
  spam.sort(byToken);
  return { wallets, from: scope.from, to: scope.to, flowsFrom: start, flowsTo: end, complete: problems.length === 0, problems, rows, spam, moves };
}

/** The successful transactions of the period that moved a token (by contract address), oldest first. */
export function reconcileTrace(
  db: ReadableDB,
  q: { wallet: string; chain: string; tokenCid: string; from: string; to: string; limit?: number },
): ReconcileTraceRow[] {
  checkDate('from', q.from);
  checkDate('to', q.to);
  const { start, end } = flowWindow(q.from, q.to);
  const rows = tokenTransfers(db, { wallet: q.wallet, chain: q.chain, tokenCid: q.tokenCid, start, end, limit: q.limit ?? 10_000 });
  // The transactions that opened or closed a position of the wallet: their transfers of the token are moves, marked.
  const cid = q.tokenCid.toLowerCase();
  const moves = new Map<string, { kind: PositionMoveKind; position: string | null }>();
  for (const m of periodMoves(db, q.wallet, q.chain, q.from, q.to))
    for (const t of m.transfers) if (t.token_cid === cid) moves.set(m.txn_hash, { kind: t.move, position: m.position_name });
  return rows.map((r) => ({
    txn_hash: r.txn_hash,
    time: r.time,
    action_type: r.action_type,
    protocol_id: r.protocol_id,
    direction: r.type === 'in' || r.type === 'out' ? r.type : 'unknown',
    qty: r.qty === null ? null : Number(r.qty),
    move: moves.get(r.txn_hash) ?? null,
  }));
}
