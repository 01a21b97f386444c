import { describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { reconcile, reconcileTrace } from '../../src/main/core/analytics/store/reconcile.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { positionSnapshot, transaction as transactionSchema, underlyingSnapshot } from '../../src/shared/service/schemas.ts';
import { markSynced } from '../support/analytics.ts';
import { createDB } from '../support/store.ts';

/**
 * Moves between a wallet's balance and its own positions (analytics/store/position-moves.ts), on
 * snapshots and transactions made by hand: which transaction is recognised as opening or closing
 * a position, which stays a flow, and what the roll-forward then shows.
 */
const W = '0x' + '1'.repeat(40);
const [A, B, C, R] = ['a', 'b', 'c', 'd'].map((x) => '0x' + x.repeat(40)) as [string, string, string, string];
const sec = (iso: string) => Date.parse(iso) / 1000;

interface HandPosition {
  cid: string;
  protocol: string;
  legs: Array<{ token: string; qty: number; reward?: boolean }>;
}

/** Both position views of a date: plain balances (token → qty) and protocol positions. */
function putPositions(db: WritableDB, date: string, balances: Record<string, number>, positions: HandPosition[], allPositions = true): void {
  const all = [
    ...Object.entries(balances).map(([token, qty]) => ({ cid: `w-${token}`, protocol: 'wallet', asset: 'wallet', legs: [{ token, qty, reward: false }] })),
    ...positions.map((p) => ({ ...p, asset: 'lending' })),
  ];
  const groups = new Map<
    string,
    Array<{ chain_id: string; pos_id: string; asset_type: string; cid: string; protocol_id: string; name: string; qty: number; nav: number }>
  >();
  for (const p of all)
    for (const l of p.legs)
      (groups.get(l.token) ?? groups.set(l.token, []).get(l.token)!).push({
        chain_id: 'eth',
        pos_id: p.cid,
        asset_type: p.asset,
        cid: p.cid,
        protocol_id: p.protocol,
        name: p.cid,
        qty: l.qty,
        nav: l.qty,
      });
  const put = (endpoint: 'positionsByUnderlying' | 'allPositions', data: unknown[]) =>
    insertSnapshot(db, {
      endpoint,
      wallet: W,
      chain: 'eth',
      requestedDate: date,
      response: { data: data as never, requestId: 'test', body: JSON.stringify({ status: 'OK', data }), fetchedAt: '2026-01-01T00:00:00.000Z' },
    });
  put('positionsByUnderlying', [
    underlyingSnapshot.parse({
      wallet_id: W,
      date: `${date}T00:00:00Z`,
      positions: [...groups].map(([token, breakdown]) => ({
        token_id: `eth:${token}`,
        token_name: token,
        token_symbol: `T${token.slice(2, 3)}`,
        token_cid: token,
        total_qty: breakdown.reduce((s, b) => s + b.qty, 0),
        total_nav: breakdown.reduce((s, b) => s + b.qty, 0),
        breakdown,
      })),
    }),
  ]);
  if (allPositions)
    put('allPositions', [
      positionSnapshot.parse({
        wallet_id: W,
        date: `${date}T00:00:00Z`,
        positions: all.map((p) => ({
          asset_type: p.asset,
          chain_id: 'eth',
          protocol_id: p.protocol,
          cid: p.cid,
          name: `Position ${p.cid}`,
          symbol: 'P',
          principal_nav: 0,
          reward_nav: 0,
          underlying: p.legs.map((l) => ({
            internal_id: `eth:${l.token}`,
            name: l.token,
            symbol: 'T',
            qty: l.qty,
            nav: l.qty,
            details: { is_reward: l.reward === true },
          })),
        })),
      }),
    ]);
}

function putTxns(db: WritableDB, txns: Array<{ hash: string; iso: string; protocol: string; details: Array<[string, 'in' | 'out', number]> }>): void {
  const rows = txns.map((t) =>
    transactionSchema.parse({
      wallet_id: W,
      txn_hash: t.hash,
      block: 1,
      from: W,
      to: '0x' + '9'.repeat(40),
      from_type: 'eoa',
      to_type: 'contract',
      txn_fee: 0,
      gas_fee: 0,
      action_type: 'deposit',
      method_hex: '0x',
      protocol_id: t.protocol,
      chain_id: 'eth',
      date: t.iso,
      details: t.details.map(([token_cid, type, qty]) => ({ token_cid, type, qty, symbol: 'T' })),
      status: 1,
    }),
  );
  db.transaction(() => upsertTransactions(db, W, 'eth', rows)).immediate();
}

function setup(): WritableDB {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth'] });
  markSynced(db, W, 'eth', sec('2025-01-01T00:00:00Z'), sec('2025-03-31T00:00:00Z'));
  return db;
}

const row = (r: ReturnType<typeof reconcile>, token: string) => r.rows.find((x) => x.token_cid === token)!;

describe('moves between the balance and the wallet’s own positions', () => {
  it('a loan opened in the period: its deposit and its debt drawn are moves, a deposit of the same protocol beside it a flow', () => {
    const db = setup();
    putPositions(db, '2025-01-31', { [A]: 50, [B]: 0 }, []);
    // Opened with 10 A supplied and 5 B drawn; by the close 0.1 A of interest, 0.02 B of debt interest, 0.3 R of rewards.
    putPositions(db, '2025-02-28', { [A]: 39, [B]: 5 }, [
      {
        cid: 'loan',
        protocol: 'aave_v3',
        legs: [
          { token: A, qty: 10.1 },
          { token: B, qty: -5.02 },
          { token: R, qty: 0.3, reward: true },
        ],
      },
    ]);
    putTxns(db, [
      { hash: '0x01', iso: '2025-02-05T00:00:00Z', protocol: 'aave_v3', details: [[A, 'out', 1]] },
      {
        hash: '0x02',
        iso: '2025-02-10T00:00:00Z',
        protocol: 'aave_v3',
        details: [
          [A, 'out', 10],
          [B, 'in', 5],
        ],
      },
    ]);
    const r = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    expect(r.problems).toEqual([]);
    expect(r.moves).toMatchObject([{ txn_hash: '0x02', kind: 'open', protocol_id: 'aave_v3', position_cid: 'loan', position_name: 'Position loan' }]);
    expect(r.moves[0]!.transfers).toEqual([
      { token_cid: A, type: 'out', qty: 10, debt: false, move: 'moved_into_positions' },
      { token_cid: B, type: 'in', qty: 5, debt: true, move: 'debt_drawn' },
    ]);
    expect(row(r, A)).toMatchObject({ outflow_qty: 1, moved_to_positions_qty: 10, unexplained_qty: 0.1, wallet_unexplained_qty: 0, position_change_qty: 0.1 });
    expect(row(r, B)).toMatchObject({
      inflow_qty: 0,
      moved_to_positions_qty: -5,
      unexplained_qty: -0.02,
      wallet_unexplained_qty: 0,
      position_change_qty: -0.02,
    });
    expect(row(r, R)).toMatchObject({ moved_to_positions_qty: 0, unexplained_qty: 0.3, status: 'unexplained' });
    // The trace marks the move and leaves the other deposit a flow.
    const trace = reconcileTrace(db, { wallet: W, chain: 'eth', tokenCid: A, from: '2025-01-31', to: '2025-02-28' });
    expect(trace.map((t) => [t.txn_hash, t.move])).toEqual([
      ['0x01', null],
      ['0x02', { kind: 'moved_into_positions', position: 'Position loan' }],
    ]);
  });

  it('a position closed in the period: of two transactions that could be its withdrawal, the one nearest its quantities', () => {
    const db = setup();
    putPositions(db, '2025-01-31', { [C]: 20 }, [
      {
        cid: 'lock',
        protocol: 'curve_ve',
        legs: [
          { token: C, qty: 100 },
          { token: C, qty: 0.2, reward: true },
        ],
      },
    ]);
    putPositions(db, '2025-02-28', { [C]: 123.5 }, []);
    putTxns(db, [
      { hash: '0x0a', iso: '2025-02-03T00:00:00Z', protocol: 'curve_ve', details: [[C, 'in', 3]] },
      { hash: '0x0b', iso: '2025-02-20T00:00:00Z', protocol: 'curve_ve', details: [[C, 'in', 100.5]] },
    ]);
    const r = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    expect(r.moves.map((m) => [m.txn_hash, m.kind, m.transfers[0]!.move])).toEqual([['0x0b', 'close', 'moved_out_of_positions']]);
    // 120.2 → 123.5: 3 received, 100.5 moved out of the lock, 0.3 of it earned there.
    expect(row(r, C)).toMatchObject({
      inflow_qty: 3,
      moved_to_positions_qty: -100.5,
      unexplained_qty: 0.3,
      wallet_unexplained_qty: 0,
      position_change_qty: 0.3,
    });
  });

  it('stays a flow: a top-up of a position held at both ends, or a period whose all-positions view is not cached', () => {
    const db = setup();
    const loan = (a: number): HandPosition => ({ cid: 'loan', protocol: 'aave_v3', legs: [{ token: A, qty: a }] });
    putPositions(db, '2025-01-31', { [A]: 50 }, [loan(10)]);
    putPositions(db, '2025-02-28', { [A]: 45 }, [loan(15.05)]);
    putTxns(db, [{ hash: '0x01', iso: '2025-02-05T00:00:00Z', protocol: 'aave_v3', details: [[A, 'out', 5]] }]);
    const r = reconcile(db, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    expect(r.moves).toEqual([]);
    expect(row(r, A)).toMatchObject({ outflow_qty: 5, moved_to_positions_qty: 0, unexplained_qty: 5.05 });

    const bare = setup();
    putPositions(bare, '2025-01-31', { [A]: 50 }, [], false);
    putPositions(bare, '2025-02-28', { [A]: 40 }, [loan(10.01)], false);
    putTxns(bare, [{ hash: '0x02', iso: '2025-02-05T00:00:00Z', protocol: 'aave_v3', details: [[A, 'out', 10]] }]);
    const s = reconcile(bare, { wallets: [W], from: '2025-01-31', to: '2025-02-28' });
    // Which legs are rewards is not known without it: the deposit is left a flow, the remainder says so.
    expect(s.moves).toEqual([]);
    expect(row(s, A)).toMatchObject({ outflow_qty: 10, moved_to_positions_qty: 0, unexplained_qty: 10.01 });
  });
});
