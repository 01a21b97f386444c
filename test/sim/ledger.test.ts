import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { useSimulator, WALLET } from '../support/sim.ts';

/**
 * The reference service is consistent: a plain wallet balance moves exactly by the
 * transfers of the successful transactions in between. Checked only through the HTTP
 * endpoints, in exact integer micro-units (every quantity the simulator sends has at
 * most 6 decimals), so nothing of the generator's own bookkeeping is reused.
 */
const ctx = useSimulator({ txnsPerWallet: 2000 });

const micro = (q: number): bigint => BigInt(Math.round(q * 1e6));

async function walletBalances(date: string, chain: string): Promise<Map<string, bigint>> {
  const snap = (await ctx.get(ENDPOINTS.positionsByUnderlying.path, { wallet: WALLET, chains: chain, date })).json.data[0];
  const out = new Map<string, bigint>();
  for (const g of snap.positions) {
    const held = g.breakdown.filter((b: any) => b.asset_type === 'wallet');
    if (held.length)
      out.set(
        g.token_cid,
        held.reduce((s: bigint, b: any) => s + micro(b.qty), 0n),
      );
  }
  return out;
}

async function transfers(from: string, to: string, chain: string): Promise<{ net: Map<string, bigint>; rows: any[] }> {
  // Transactions dated after `from` through `to` (the snapshot of a date is its end of day).
  const start = String(Date.parse(`${from}T00:00:00Z`) / 1000 + 86_400);
  const end = String(Date.parse(`${to}T00:00:00Z`) / 1000 + 86_400 - 1);
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const r = (
      await ctx.get(ENDPOINTS.transactionsByWallet.path, {
        wallet: WALLET,
        chains: chain,
        start_time: start,
        end_time: end,
        page: String(page),
        pageSize: '1000',
      })
    ).json.data[0].transaction_history;
    rows.push(...r);
    if (r.length < 1000) break;
  }
  const net = new Map<string, bigint>();
  for (const t of rows) {
    if (t.status !== 1) continue;
    for (const d of t.details) net.set(d.token_cid, (net.get(d.token_cid) ?? 0n) + (d.type === 'in' ? micro(d.qty) : -micro(d.qty)));
  }
  return { net, rows };
}

describe('reference service: positions move with transactions', () => {
  it('wallet balances roll forward exactly by the successful transfers between two dates', async () => {
    for (const [chain, from, to] of [
      ['eth', '2025-01-31', '2025-12-31'],
      ['arb', '2024-06-30', '2024-07-31'],
      ['eth', '2023-12-01', '2026-11-20'],
    ] as const) {
      const opening = await walletBalances(from, chain);
      const closing = await walletBalances(to, chain);
      const { net, rows } = await transfers(from, to, chain);
      expect(rows.length).toBeGreaterThan(0);
      let moved = 0;
      for (const [cid, close] of closing) {
        const flow = net.get(cid) ?? 0n;
        if (flow !== 0n) moved++;
        expect(close - (opening.get(cid) ?? 0n), `${chain} ${cid} ${from}..${to}`).toBe(flow);
      }
      // Every token that moved is held at the close, and most tokens did move.
      for (const cid of net.keys()) expect(closing.has(cid) || net.get(cid) === 0n).toBe(true);
      expect(moved).toBeGreaterThan(5);
    }
  });

  it('failed transactions move nothing, and a failure changes no balance', async () => {
    const { rows } = await transfers('2025-01-01', '2025-12-31', 'eth');
    const failed = rows.filter((t) => t.status === 0);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((t) => t.details.length === 0)).toBe(true);
  });

  it('never shows a negative wallet balance, on any day', async () => {
    for (let d = Date.UTC(2023, 11, 1); d <= Date.UTC(2026, 10, 20); d += 9 * 86_400_000) {
      const date = new Date(d).toISOString().slice(0, 10);
      const snap = (await ctx.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth', date })).json.data[0];
      for (const p of snap.positions.filter((x: any) => x.asset_type === 'wallet')) expect(p.underlying[0].qty).toBeGreaterThan(0);
    }
  });

  it('interest-bearing positions change with no transfer: supply and debt accrue, locks stay', async () => {
    // Over a year, a lending position's supply and debt grow in quantity (interest), a lock holds still.
    const at = async (date: string) => (await ctx.get(ENDPOINTS.allPositions.path, { wallet: WALLET, chains: 'eth', date })).json.data[0].positions;
    const a = await at('2025-03-01');
    const b = await at('2025-09-01');
    const lending = a.filter((p: any) => p.asset_type === 'lending' && b.some((q: any) => q.cid === p.cid));
    expect(lending.length).toBeGreaterThan(0);
    for (const p of lending) {
      const q = b.find((x: any) => x.cid === p.cid);
      const supply = (x: any) => x.underlying.find((u: any) => u.details.type === 'supply').qty;
      const debt = (x: any) => x.underlying.find((u: any) => u.details.type === 'borrow').qty;
      expect(supply(q)).toBeGreaterThan(supply(p));
      expect(debt(q)).toBeLessThan(debt(p)); // debt is negative and grows
    }
  });
});
