import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalSum } from '../../src/shared/decimal.ts';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type WritableDB, openDatabase } from '../../src/main/core/store/db.ts';
import { reconcile, reconcileTrace } from '../../src/main/core/analytics/store/reconcile.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { chainById } from '../../src/sim/chains.ts';
import { positionsOn } from '../../src/sim/positions.ts';
import { defaultHistory, historyOf, positionEventsOf, transactionAt } from '../../src/sim/transactions.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET } from '../support/sim.ts';

/**
 * Reconciliation against the reference service, checked against figures computed here
 * straight from the generator (transactionAt, positionsOn), not through the client.
 */
const TXNS = 1500;
const ctx = useSimulator({ txnsPerWallet: TXNS });
const FROM = '2025-01-31';
const TO = '2025-12-31';
let db: WritableDB;

beforeAll(async () => {
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'folioscope-rec-')), 'cache.sqlite'));
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Main' });
  const { engine } = engineFor(ctx.sim, db);
  await Promise.all([
    engine.syncTransactions(WALLET).result,
    engine.syncPositions(WALLET, { date: FROM }).result,
    engine.syncPositions(WALLET, { date: TO }).result,
  ]);
});
afterAll(() => db.close());

const micro = (q: number) => BigInt(Math.round(q * 1e6));

/** The generator's own transfers, per token address, of successful transactions dated after FROM through TO. */
function generatorFlows(chainId: string): Map<string, { inflow: bigint; outflow: bigint; txns: number }> {
  const h = historyOf(defaultHistory(7, TXNS), WALLET, chainById(chainId)!);
  const start = Date.parse(`${FROM}T00:00:00Z`) + 86_400_000;
  const end = Date.parse(`${TO}T00:00:00Z`) + 86_400_000;
  const out = new Map<string, { inflow: bigint; outflow: bigint; txns: number }>();
  for (let i = 0; i < TXNS; i++) {
    const t = transactionAt(h, i);
    const time = Date.parse(t.date);
    if (time < start || time >= end || t.status !== 1) continue;
    for (const d of t.details) {
      const f = out.get(d.token_cid) ?? { inflow: 0n, outflow: 0n, txns: 0 };
      if (d.type === 'in') f.inflow += micro(d.qty);
      else f.outflow += micro(d.qty);
      f.txns++;
      out.set(d.token_cid, f);
    }
  }
  return out;
}

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * The generator's moves between the wallet's balance and its own positions in the period, per
 * token address: the transfers of the transactions it made open or close a position held at one
 * end of the period only (one opened and closed inside it is at neither end, and stays flows).
 */
function generatorMoves(chainId: string): Map<string, { in: bigint; out: bigint }> {
  const h = historyOf(defaultHistory(7, TXNS), WALLET, chainById(chainId)!);
  const { byIndex, spans } = positionEventsOf(h);
  const [from, to] = [dayOf(FROM), dayOf(TO)];
  const held = (span: { openDay: number; closeDay: number }, day: number) => span.openDay <= day && day < span.closeDay;
  const out = new Map<string, { in: bigint; out: bigint }>();
  for (const [i, e] of byIndex) {
    const span = spans.get(e.template)!;
    if (held(span, from) === held(span, to)) continue;
    const t = transactionAt(h, i);
    const time = Date.parse(t.date);
    if (time < Date.parse(`${FROM}T00:00:00Z`) + 86_400_000 || time >= Date.parse(`${TO}T00:00:00Z`) + 86_400_000) continue;
    for (const d of t.details) {
      const m = out.get(d.token_cid) ?? { in: 0n, out: 0n };
      m[d.type === 'in' ? 'in' : 'out'] += micro(d.qty);
      out.set(d.token_cid, m);
    }
  }
  return out;
}

/** The generator's holdings per token address at the end of a day: [all positions, wallet balance]. */
function generatorHoldings(chainId: string, date: string): Map<string, [bigint, bigint]> {
  const out = new Map<string, [bigint, bigint]>();
  for (const p of positionsOn(defaultHistory(7, TXNS), WALLET, chainById(chainId)!, Date.parse(`${date}T00:00:00Z`) / 86_400_000)) {
    for (const l of p.legs) {
      const h = out.get(l.tokenCid) ?? [0n, 0n];
      h[0] += micro(l.qty);
      if (p.assetType === 'wallet') h[1] += micro(l.qty);
      out.set(l.tokenCid, h);
    }
  }
  return out;
}

describe('reconciliation against the reference service', () => {
  it('is complete, and every row satisfies opening + inflow − outflow + unexplained = closing', () => {
    const r = reconcile(db, { wallets: [WALLET], from: FROM, to: TO });
    expect(r.problems).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.rows.length).toBeGreaterThan(15);
    for (const x of r.rows) {
      const scale = Math.max(1, Math.abs(x.opening_qty!), Math.abs(x.closing_qty!), x.inflow_qty, x.outflow_qty);
      expect(Math.abs(x.opening_qty! + x.inflow_qty - x.outflow_qty + x.unexplained_qty! - x.closing_qty!)).toBeLessThan(1e-9 * scale);
      // Exactly, in decimal, to the digits shown: no float noise in what a reader sees.
      expect(decimalSum([x.opening_qty!, x.inflow_qty, -x.outflow_qty, x.unexplained_qty!])).toBe(x.closing_qty!);
      for (const v of [x.opening_qty!, x.inflow_qty, x.outflow_qty, x.closing_qty!, x.unexplained_qty!]) expect(Number(v!.toPrecision(15))).toBe(v);
    }
  });

  it('matches the generator: flows, moves, opening and closing per token, and wallet balances reconcile exactly', () => {
    const r = reconcile(db, { wallets: [WALLET], from: FROM, to: TO });
    let exactWithFlows = 0;
    let withMoves = 0;
    for (const chain of ['eth', 'arb']) {
      const flows = generatorFlows(chain);
      const moves = generatorMoves(chain);
      const opening = generatorHoldings(chain, FROM);
      const closing = generatorHoldings(chain, TO);
      const rows = r.rows.filter((x) => x.chain === chain);
      expect(new Set(rows.map((x) => x.token_cid))).toEqual(new Set([...flows.keys(), ...opening.keys(), ...closing.keys()]));
      for (const x of rows) {
        const f = flows.get(x.token_cid!) ?? { inflow: 0n, outflow: 0n, txns: 0 };
        const o = opening.get(x.token_cid!) ?? [0n, 0n];
        const c = closing.get(x.token_cid!) ?? [0n, 0n];
        const m = moves.get(x.token_cid!) ?? { in: 0n, out: 0n };
        // The transfers, less those that moved tokens between the balance and the wallet's own
        // positions (the deposit that opened one, the withdrawal that closed it): those are moves.
        expect(micro(x.inflow_qty) + m.in).toBe(f.inflow);
        expect(micro(x.outflow_qty) + m.out).toBe(f.outflow);
        expect(micro(x.moved_to_positions_qty!)).toBe(m.out - m.in);
        if (m.in + m.out > 0n) withMoves++;
        expect(micro(x.opening_qty!)).toBe(o[0]);
        expect(micro(x.closing_qty!)).toBe(c[0]);
        // The plain balance moves by exactly the transfers.
        expect(c[1] - o[1]).toBe(f.inflow - f.outflow);
        expect(x.wallet_unexplained_qty).toBe(0);
        // What is unexplained is exactly the change in protocol positions less what moved into them.
        const positionChange = c[0] - c[1] - (o[0] - o[1]);
        expect(micro(x.unexplained_qty!)).toBe(positionChange - (m.out - m.in));
        expect(micro(x.position_change_qty!)).toBe(positionChange - (m.out - m.in));
        if (positionChange === m.out - m.in && f.inflow + f.outflow > m.in + m.out) {
          expect(x).toMatchObject({ status: 'reconciled', unexplained_qty: 0 });
          exactWithFlows++;
        }
      }
    }
    expect(exactWithFlows).toBeGreaterThan(2);
    // The period opens or closes positions of the wallet: their moves are checked above.
    expect(withMoves).toBeGreaterThan(0);
    // Interest-bearing positions show as unexplained somewhere.
    expect(r.rows.some((x) => x.status === 'unexplained' && x.position_change_qty !== 0)).toBe(true);
  });

  it('traces a token to the transactions that moved it, and they add up to its flows', () => {
    const r = reconcile(db, { wallets: [WALLET], from: FROM, to: TO });
    const row = r.rows.find((x) => x.chain === 'eth' && x.inflow_qty > 0 && x.outflow_qty > 0)!;
    const trace = reconcileTrace(db, { wallet: WALLET, chain: 'eth', tokenCid: row.token_cid!, from: FROM, to: TO });
    expect(new Set(trace.map((t) => t.txn_hash)).size).toBe(row.txn_count);
    const sum = (dir: string) => trace.filter((t) => t.direction === dir && !t.move).reduce((s, t) => s + micro(t.qty!), 0n);
    expect(sum('in')).toBe(micro(row.inflow_qty));
    expect(sum('out')).toBe(micro(row.outflow_qty));
    expect(trace.every((t, i) => i === 0 || t.time >= trace[i - 1]!.time)).toBe(true);
  });

  it('marks in a trace the transfers that moved the token between the balance and an own position; they add up to the moves', () => {
    const r = reconcile(db, { wallets: [WALLET], from: FROM, to: TO });
    const moved = r.rows.filter((x) => x.moved_to_positions_qty !== 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const row of moved) {
      const trace = reconcileTrace(db, { wallet: WALLET, chain: row.chain, tokenCid: row.token_cid!, from: FROM, to: TO });
      const moves = trace.filter((t) => t.move);
      expect(moves.length).toBeGreaterThan(0);
      expect(moves.reduce((s, t) => s + (t.direction === 'out' ? micro(t.qty!) : -micro(t.qty!)), 0n)).toBe(micro(row.moved_to_positions_qty!));
      for (const t of moves) expect(r.moves.some((m) => m.txn_hash === t.txn_hash && m.position_name === t.move!.position)).toBe(true);
    }
  });

  it('says plainly when a date is not cached', () => {
    const r = reconcile(db, { wallets: [WALLET], from: '2025-02-01', to: TO });
    expect(r.complete).toBe(false);
    expect(r.problems.map((p) => p.message)).toContain('positions at 2025-02-01 are not cached (sync that date)');
    expect(r.rows.every((x) => x.status === 'incomplete')).toBe(true);
  });
});
