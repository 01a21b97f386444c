import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { startSimulator } from '../../src/sim/server.ts';
import { conformance, POSITION_SNAPSHOT } from '../support/spec-tables.ts';
import { KEY, SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';

const ctx = useSimulator({ txnsPerWallet: 1_000_000 });

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('reference service: generated data', () => {
  it('is deterministic: the same seed, wallet, chain and date give the same data', async () => {
    // Wallet balances follow the transaction history, so the history's length is part of the input.
    const other = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW, txnsPerWallet: 1_000_000 });
    try {
      const params = { wallet: WALLET, chains: 'arb', date: '2025-07-04', access_key: KEY };
      const a: any = await (await fetch(`${ctx.sim.url}${ENDPOINTS.allPositions.path}?${new URLSearchParams(params)}`)).json();
      const b: any = await (await fetch(`${other.url}${ENDPOINTS.allPositions.path}?${new URLSearchParams(params)}`)).json();
      expect(a.data).toEqual(b.data);
    } finally {
      await other.close();
    }
  });

  it('agrees across the three position endpoints for the same wallet, chain and date', async () => {
    for (const date of ['2024-05-01', '2025-08-09', '2026-11-20']) {
      const params = { wallet: WALLET, chains: 'eth', date };
      const all = (await ctx.get(ENDPOINTS.allPositions.path, params)).json.data[0];
      const grouped = (await ctx.get(ENDPOINTS.positionsByUnderlying.path, params)).json.data[0];
      const liq = (await ctx.get(ENDPOINTS.liquidityAnalysis.path, params)).json.data[0];
      expect(all.date).toBe(`${date}T00:00:00Z`);
      expect(grouped.date).toBe(all.date);
      const totalFromPositions = sum(all.positions.map((p: any) => p.principal_nav + p.reward_nav));
      const totalFromGroups = sum(grouped.positions.map((g: any) => g.total_nav));
      expect(totalFromGroups).toBeCloseTo(totalFromPositions, 1);
      // Every underlying appears in its token's breakdown with the same qty and nav.
      for (const p of all.positions) {
        for (const u of p.underlying) {
          const g = grouped.positions.find((x: any) => x.token_id === u.internal_id);
          const entry = g.breakdown.find((b: any) => b.pos_id === p.cid && b.nav === u.nav);
          expect(entry).toMatchObject({ qty: u.qty, asset_type: p.asset_type, protocol_id: p.protocol_id });
        }
      }
      // The liquidity view lists the same positions, and the same quantities per underlying.
      expect(liq.positions.map((p: any) => p.cid)).toEqual(all.positions.map((p: any) => p.cid));
      liq.positions.forEach((lp: any, i: number) => {
        expect(lp.underlying.map((u: any) => u.qty)).toEqual(all.positions[i].underlying.map((u: any) => u.qty));
        expect(lp.principal_pct_ownership).toBeCloseTo((100 * lp.principal_qty) / lp.principal_total_supply, 4);
      });
    }
  });

  it('principal and reward NAV add up from the underlying legs', async () => {
    const all = (await ctx.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth', date: '2025-08-09' })).json.data[0];
    for (const p of all.positions) {
      const reward = sum(p.underlying.filter((u: any) => u.details.is_reward).map((u: any) => u.nav));
      const principal = sum(p.underlying.filter((u: any) => !u.details.is_reward).map((u: any) => u.nav));
      expect(p.reward_nav).toBeCloseTo(reward, 2);
      expect(p.principal_nav).toBeCloseTo(principal, 2);
    }
  });

  it('moves NAV plausibly from date to date, and opens and closes positions over time', async () => {
    const counts: number[] = [];
    const cids = new Set<string>();
    let previous = new Map<string, number>();
    const moves: number[] = [];
    for (let d = Date.UTC(2024, 0, 1); d <= Date.UTC(2026, 10, 1); d += 7 * 86_400_000) {
      const date = new Date(d).toISOString().slice(0, 10);
      const snap = (await ctx.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth', date })).json.data[0];
      const navs = new Map<string, number>(snap.positions.map((p: any) => [p.cid, p.principal_nav]));
      // A held position's value changes week to week, but not wildly.
      for (const [cid, nav] of navs) {
        const before = previous.get(cid);
        if (before !== undefined && Math.abs(before) > 1) moves.push(Math.abs(nav / before - 1));
      }
      previous = navs;
      counts.push(snap.positions.length);
      snap.positions.forEach((p: any) => cids.add(p.cid));
    }
    expect(moves.length).toBeGreaterThan(300);
    expect(Math.max(...moves)).toBeLessThan(0.6);
    expect(moves.filter((m) => m > 0.001).length).toBeGreaterThan(moves.length * 0.9);
    expect(new Set(counts).size).toBeGreaterThan(1); // positions open and close
    expect(cids.size).toBeGreaterThan(Math.max(...counts));
  });

  it("answers the latest snapshot (the simulator's today) when date is omitted", async () => {
    const snap = (await ctx.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth' })).json.data[0];
    expect(snap.date).toBe('2026-11-20T00:00:00Z');
    expect(conformance(snap, POSITION_SNAPSHOT)).toEqual([]);
  });

  it('filters the liquidity view by asset_type', async () => {
    const { json } = await ctx.get(ENDPOINTS.liquidityAnalysis.path, { wallet: WALLET, chains: 'eth', date: '2025-08-09', asset_type: 'wallet,lending' });
    expect(json.data[0].positions.length).toBeGreaterThan(0);
    expect(new Set(json.data[0].positions.map((p: any) => p.asset_type))).toEqual(new Set(['wallet', 'lending']));
  });
});

describe('reference service: transactions and logs', () => {
  it('pages newest first with no overlap and no gap, bounds inclusive', async () => {
    const start = String(Date.UTC(2025, 0, 1) / 1000);
    const end = String(Date.UTC(2025, 0, 3) / 1000);
    const pages: any[][] = [];
    for (let page = 1; page < 100; page++) {
      const { json } = await ctx.get(ENDPOINTS.transactionsByWallet.path, {
        wallet: WALLET,
        chains: 'eth',
        start_time: start,
        end_time: end,
        page: String(page),
        pageSize: '100',
      });
      const rows = json.data[0].transaction_history;
      pages.push(rows);
      if (rows.length < 100) break;
    }
    const rows = pages.flat();
    expect(rows.length).toBeGreaterThan(100); // 1M txns over ~2.8 years: ~1000 a day
    const times = rows.map((r) => Date.parse(r.date));
    expect(times.every((t, i) => i === 0 || t <= times[i - 1]!)).toBe(true);
    expect(new Set(rows.map((r) => r.txn_hash)).size).toBe(rows.length);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Number(start) * 1000);
    expect(Math.max(...times)).toBeLessThanOrEqual(Number(end) * 1000);
  });

  it('serves any page of a 1,000,000-transaction history without memory growth', async () => {
    const before = process.memoryUsage().heapUsed;
    const last = await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', page: '10000', pageSize: '100' });
    expect(last.json.data[0].transaction_history).toHaveLength(100);
    const beyond = await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', page: '10001', pageSize: '100' });
    expect(beyond.json.data[0].transaction_history).toHaveLength(0);
    for (let p = 2000; p < 2200; p++) await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', page: String(p), pageSize: '100' });
    global.gc?.();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('has realistic actions, fees, transfer details and statuses', async () => {
    const { json } = await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', pageSize: '1000' });
    const rows = json.data[0].transaction_history;
    const actions = new Set(rows.map((r: any) => r.action_type));
    expect(actions).toEqual(
      new Set(['transfer_in', 'transfer_out', 'swap', 'deposit', 'withdraw', 'borrow', 'repay', 'claim_reward', 'approve', 'stake', 'unstake']),
    );
    expect(new Set(rows.map((r: any) => r.status))).toEqual(new Set([0, 1]));
    expect(rows.every((r: any) => r.txn_fee > 0 && r.gas_fee > 0)).toBe(true);
    const swap = rows.find((r: any) => r.action_type === 'swap' && r.status === 1);
    expect(swap.details.map((d: any) => d.type)).toEqual(['out', 'in']);
    expect(rows.filter((r: any) => r.status === 0).every((r: any) => r.details.length === 0)).toBe(true);
  });

  it('returns the logs of a transaction consistent with its history row, paged up to total', async () => {
    const { json } = await ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', pageSize: '300' });
    const rows = json.data[0].transaction_history;
    let paged = false;
    for (const txn of rows.slice(0, 300)) {
      const first = (await ctx.get(ENDPOINTS.logsByTxnHash.path, { txn_hash: txn.txn_hash, chain_id: 'eth', pageSize: '50' })).json;
      expect(first.data[0]).toMatchObject({ txn_hash: txn.txn_hash, block: txn.block, from: txn.from, txn_fee: txn.txn_fee, date: txn.date });
      if (first.total > 50) {
        paged = true;
        const all: any[] = [];
        for (let page = 1; all.length < first.total; page++) {
          const r = (await ctx.get(ENDPOINTS.logsByTxnHash.path, { txn_hash: txn.txn_hash, chain_id: 'eth', page: String(page), pageSize: '50' })).json;
          all.push(...r.data[0].logs);
        }
        expect(all.map((l) => l.log_index)).toEqual([...Array(first.total).keys()]);
        break;
      }
    }
    expect(paged).toBe(true);
  });

  it('answers an unknown transaction hash with no logs and total 0', async () => {
    const { status, json } = await ctx.get(ENDPOINTS.logsByTxnHash.path, { txn_hash: '0x' + 'ab'.repeat(32), chain_id: 'eth' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'OK', data: [], total: 0 });
  });
});
