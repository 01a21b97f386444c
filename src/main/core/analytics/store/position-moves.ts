/**
 * Moves between a wallet's plain balance and its own protocol positions (docs/analytics.md): the
 * transaction that opens a position (a deposit: the principal leaves the balance for the
 * position, a debt drawn arrives in the balance) or closes one (a withdrawal: the position's
 * tokens come back, a debt is repaid). The tokens stay the wallet's, so these transfers are
 * neither inflow nor outflow: the reconciliation and the monthly pack show them as moves.
 *
 * Which transaction. A position of the wallet (its protocol_id and cid) held at one end of the
 * period only opened or closed in it. Its move is a successful transaction of the period with the
 * position's protocol that moves only tokens the position holds, each the way an opening (the
 * principal out of the balance, a debt into it) or a closing (the reverse; rewards come back
 * too) moves it, and moves every principal leg (all_positions' legs that are not rewards); every
 * transfer of it readable. Of several such, the one whose quantities are nearest the position's at
 * the end it is held at; a transaction is the move of one position at most.
 *
 * Not recognised, so left as flows: a deposit into or a withdrawal from a position held at both
 * ends (a top-up, a partial withdrawal), whose quantities cannot be told from its accruals by the
 * snapshots alone; and a position opened and closed inside the period (held at neither end).
 */
import type { PositionMove, PositionMoveKind } from '../../../../shared/model.ts';
import { decimalSum } from '../../../../shared/decimal.ts';
import type { ReadableDB } from '../../store/db.ts';
import { latestSnapshot } from '../../positions/index.ts';
import { periodTransactions } from '../../ledger/index.ts';

/** What the reconciliation read of one end of the period (the by-token view), for the moves. */
export interface PositionsSide {
  date: string;
  /** The protocol positions it lists (`positionKey`): not plain balances. */
  positions: ReadonlySet<string>;
  /** token_id → token_cid (lowercase): the position view names a leg's token by id only. */
  cidOf: ReadonlyMap<string, string>;
}

/** A protocol position's identity across dates: its protocol and contract id. */
export function positionKey(protocolId: string | null | undefined, cid: string | null | undefined): string | null {
  return protocolId && cid ? `${protocolId.toLowerCase()}|${cid.toLowerCase()}` : null;
}

/** Which move a transfer of an opening or closing is: by its direction and whether the position holds the token as a debt. */
export function moveKind(type: 'in' | 'out', debt: boolean): PositionMoveKind {
  if (debt) return type === 'in' ? 'debt_drawn' : 'debt_repaid';
  return type === 'out' ? 'moved_into_positions' : 'moved_out_of_positions';
}

interface HeldLeg {
  /** Signed (a debt negative), summed over the position's legs of the token. */
  qty: number;
  /** Some leg of the token is not a reward. */
  principal: boolean;
}

interface HeldPosition {
  protocolId: string;
  cid: string;
  name: string | null;
  /** By token_cid (lowercase). */
  legs: Map<string, HeldLeg>;
}

/**
 * The protocol positions of a (wallet, chain) at a date from the all-positions view, by
 * positionKey; null when it is not cached. A position listed twice under one key, or with a leg
 * whose token or quantity cannot be read, is left out: which one moved would be a guess.
 */
function heldPositions(db: ReadableDB, wallet: string, chain: string, side: PositionsSide): Map<string, HeldPosition> | null {
  const snap = latestSnapshot(db, 'allPositions', wallet, chain, side.date);
  if (!snap) return null;
  const out = new Map<string, HeldPosition>();
  const unusable = new Set<string>();
  for (const s of snap.data)
    for (const p of s.positions) {
      const key = positionKey(p.protocol_id, p.cid);
      if (!key || p.asset_type === 'wallet') continue;
      if (out.has(key)) unusable.add(key);
      const legs = new Map<string, HeldLeg>();
      for (const u of p.underlying) {
        const cid = side.cidOf.get(u.internal_id);
        if (!cid || typeof u.qty !== 'number') {
          unusable.add(key);
          continue;
        }
        const leg = legs.get(cid) ?? { qty: 0, principal: false };
        leg.qty = decimalSum([leg.qty, u.qty]);
        if (u.details.is_reward !== true) leg.principal = true;
        legs.set(cid, leg);
      }
      out.set(key, { protocolId: p.protocol_id!.toLowerCase(), cid: p.cid!, name: p.name, legs });
    }
  for (const key of unusable) out.delete(key);
  return out;
}

interface Candidate {
  txnHash: string;
  time: number;
  protocolId: string;
  /** Its transfers by token_cid (lowercase); a token moved both ways makes it no candidate. */
  moved: Map<string, { type: 'in' | 'out'; qty: number }>;
}

/** The successful transactions of the period with one of these protocols whose every transfer is readable. */
function candidates(db: ReadableDB, wallet: string, chain: string, start: number, end: number, protocols: readonly string[]): Candidate[] {
  const rows = periodTransactions(db, { wallet, chains: [chain], start, end, succeeded: true, protocolsAnyCase: protocols });
  const out: Candidate[] = [];
  for (const r of rows) {
    // A row's transfers that cannot be read come as none (the ledger's row): no candidate.
    const transfers: unknown[] = r.details;
    if (!transfers.length) continue;
    const moved = new Map<string, { type: 'in' | 'out'; qty: number }>();
    let readable = true;
    for (const t of transfers as Array<Record<string, unknown>>) {
      const cid = typeof t['token_cid'] === 'string' ? t['token_cid'].toLowerCase() : null;
      const type = t['type'];
      const qty = t['qty'];
      if (!cid || (type !== 'in' && type !== 'out') || typeof qty !== 'number' || !(qty > 0)) {
        readable = false;
        break;
      }
      const m = moved.get(cid);
      if (m && m.type !== type) {
        readable = false;
        break;
      }
      moved.set(cid, { type, qty: m ? decimalSum([m.qty, qty]) : qty });
    }
    if (readable) out.push({ txnHash: r.txnHash, time: Date.parse(r.date!), protocolId: r.protocolId!.toLowerCase(), moved });
  }
  return out;
}

/**
 * How far a transaction's quantities are from what opening (or closing) the position would move,
 * as a sum of relative differences over its principal legs; null when it cannot be that move.
 */
function fit(kind: 'open' | 'close', p: HeldPosition, c: Candidate): number | null {
  if (c.protocolId !== p.protocolId) return null;
  for (const [cid, m] of c.moved) {
    const leg = p.legs.get(cid);
    // An opening moves the principal only (rewards start at nothing); a closing may bring rewards back.
    if (!leg || leg.qty === 0 || (kind === 'open' && !leg.principal)) return null;
    const expected = leg.qty > 0 === (kind === 'open') ? 'out' : 'in';
    if (m.type !== expected) return null;
  }
  let distance = 0;
  for (const [cid, leg] of p.legs) {
    if (!leg.principal || leg.qty === 0) continue;
    const m = c.moved.get(cid);
    if (!m) return null;
    distance += Math.abs(m.qty - Math.abs(leg.qty)) / Math.abs(leg.qty);
  }
  return distance;
}

/**
 * The moves of a (wallet, chain) in the period (`start <= time < end`, Unix ms) between two
 * cached ends, oldest first. Reads the all-positions view of each end and the candidate
 * transactions only when a position is held at one end only.
 */
export function positionMoves(
  db: ReadableDB,
  q: { wallet: string; chain: string; start: number; end: number; opening: PositionsSide; closing: PositionsSide },
): PositionMove[] {
  const opened = [...q.closing.positions].filter((k) => !q.opening.positions.has(k));
  const closed = [...q.opening.positions].filter((k) => !q.closing.positions.has(k));
  if (!opened.length && !closed.length) return [];
  const atOpening = heldPositions(db, q.wallet, q.chain, q.opening);
  const atClosing = heldPositions(db, q.wallet, q.chain, q.closing);
  if (!atOpening || !atClosing) return [];
  const events: Array<{ kind: 'open' | 'close'; position: HeldPosition }> = [];
  for (const k of opened) if (atClosing.has(k) && !atOpening.has(k)) events.push({ kind: 'open', position: atClosing.get(k)! });
  for (const k of closed) if (atOpening.has(k) && !atClosing.has(k)) events.push({ kind: 'close', position: atOpening.get(k)! });
  if (!events.length) return [];
  const txns = candidates(db, q.wallet, q.chain, q.start, q.end, [...new Set(events.map((e) => e.position.protocolId))]);
  const pairs: Array<{ event: number; txn: number; distance: number }> = [];
  events.forEach((e, event) =>
    txns.forEach((c, txn) => {
      const distance = fit(e.kind, e.position, c);
      if (distance !== null) pairs.push({ event, txn, distance });
    }),
  );
  // Nearest first; on a tie the earlier transaction (they are in time order).
  pairs.sort((a, b) => a.distance - b.distance || a.txn - b.txn || a.event - b.event);
  const usedEvents = new Set<number>();
  const usedTxns = new Set<number>();
  const moves: PositionMove[] = [];
  for (const { event, txn } of pairs) {
    if (usedEvents.has(event) || usedTxns.has(txn)) continue;
    usedEvents.add(event);
    usedTxns.add(txn);
    const { kind, position } = events[event]!;
    const c = txns[txn]!;
    moves.push({
      wallet: q.wallet,
      chain: q.chain,
      txn_hash: c.txnHash,
      time: c.time,
      kind,
      protocol_id: position.protocolId,
      position_cid: position.cid,
      position_name: position.name,
      transfers: [...c.moved].map(([cid, m]) => {
        const debt = position.legs.get(cid)!.qty < 0;
        return { token_cid: cid, type: m.type, qty: m.qty, debt, move: moveKind(m.type, debt) };
      }),
    });
  }
  return moves.sort((a, b) => a.time - b.time || a.txn_hash.localeCompare(b.txn_hash));
}
