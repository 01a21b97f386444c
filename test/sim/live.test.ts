import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { parseLiveModes } from '../../src/sim/live.ts';
import { liveSimOptions } from '../support/live.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';

const eth = chainById('eth')!;
const NOW_S = String(Math.floor(SIM_NOW / 1000));
const hashes = (json: any): string[] => json.data[0].transaction_history.map((t: any) => t.txn_hash);

describe('live modes: parsing', () => {
  it('takes the four modes, comma-separated, and refuses others naming them', () => {
    expect(parseLiveModes('arrivals,late, reorg,burst,late')).toEqual(['arrivals', 'late', 'reorg', 'burst']);
    expect(() => parseLiveModes('arrivals,shuffle')).toThrow(/unknown live mode 'shuffle'; modes: arrivals, late, reorg, burst/);
    expect(() => parseLiveModes('')).toThrow(/--live takes one or more/);
  });
});

describe('live mode arrivals', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['arrivals'], arrivals: { count: 10, perRequest: 3 } }, 200));
  it('the newest rows appear a few per request, at the newest end, until all are in', async () => {
    const q = { wallet: WALLET, chains: 'eth', start_time: '0', end_time: NOW_S, page: '1', pageSize: '1000' };
    const seen = [];
    for (let k = 0; k < 5; k++) seen.push(hashes((await ctx.get('/v3/transactions/txn_by_wallet', q)).json));
    expect(seen.map((s) => s.length)).toEqual([190, 193, 196, 199, 200]);
    // The older rows are where they were: each answer ends with the previous one.
    expect(seen[1]!.slice(3)).toEqual(seen[0]);
    expect(ctx.sim.live!.truth(WALLET, eth)).toHaveLength(200);
  });
});

describe('live mode late', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['late'], late: { rows: 7, at: 2, behind: 5 } }, 200));
  it('a gap behind the newest end is filled from a given request on', async () => {
    const q = { wallet: WALLET, chains: 'eth', start_time: '0', end_time: NOW_S, page: '1', pageSize: '1000' };
    const counts = [];
    for (let k = 0; k < 3; k++) counts.push(hashes((await ctx.get('/v3/transactions/txn_by_wallet', q)).json).length);
    expect(counts).toEqual([193, 193, 200]);
  });
});

describe('live mode reorg', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['reorg'], reorg: { at: 1, behind: 3 } }, 200));
  it('restates six transactions near the newest end: removed, replaced, block, status, fee, transfers', async () => {
    const q = { wallet: WALLET, chains: 'eth', start_time: '0', end_time: NOW_S, page: '1', pageSize: '1000' };
    const before = (await ctx.get('/v3/transactions/txn_by_wallet', q)).json.data[0].transaction_history as any[];
    const after = (await ctx.get('/v3/transactions/txn_by_wallet', q)).json.data[0].transaction_history as any[];
    expect(before).toHaveLength(200);
    expect(after).toHaveLength(199);
    const r = ctx.sim.live!.restatements(WALLET, eth);
    expect(r.map((x) => x.kind)).toEqual(['removed', 'replaced', 'block', 'status', 'fee', 'transfers']);
    const byHash = new Map(after.map((t) => [t.txn_hash, t]));
    const old = new Map(before.map((t) => [t.txn_hash, t]));
    expect(byHash.has(r[0]!.hash)).toBe(false);
    expect(byHash.has(r[1]!.hash)).toBe(false);
    expect(byHash.get(r[1]!.replacement!).block).toBe(old.get(r[1]!.hash).block + 1);
    expect(byHash.get(r[2]!.hash).block).toBe(old.get(r[2]!.hash).block + 2);
    expect(byHash.get(r[3]!.hash).status).toBe(0);
    expect(byHash.get(r[4]!.hash).txn_fee).not.toBe(old.get(r[4]!.hash).txn_fee);
    expect(JSON.stringify(byHash.get(r[5]!.hash).details)).not.toBe(JSON.stringify(old.get(r[5]!.hash).details));
  });
});

describe('live mode burst', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['burst'], burst: { groups: 1, size: 30 } }, 200));
  it('rows of one second come in another order on each request; the set stays the same', async () => {
    const q = { wallet: WALLET, chains: 'eth', start_time: '0', end_time: NOW_S, page: '1', pageSize: '1000' };
    const a = (await ctx.get('/v3/transactions/txn_by_wallet', q)).json.data[0].transaction_history as any[];
    const b = (await ctx.get('/v3/transactions/txn_by_wallet', q)).json.data[0].transaction_history as any[];
    const second = (rows: any[]) => {
      const counts = new Map<string, number>();
      for (const t of rows) counts.set(t.date, (counts.get(t.date) ?? 0) + 1);
      const date = [...counts].find(([, n]) => n === 30)![0];
      return rows.filter((t) => t.date === date).map((t) => t.txn_hash);
    };
    expect(second(a)).toHaveLength(30);
    expect(second(a)).not.toEqual(second(b));
    expect([...second(a)].sort()).toEqual([...second(b)].sort());
  });
});

describe('live mode wide-burst', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['wide-burst'], wideBurst: { size: 150 } }, 400));
  it('one run larger than a page shares a second, in another order on every request: no two pages of one read hold it', async () => {
    const q = { wallet: WALLET, chains: 'eth', start_time: '0', end_time: NOW_S, page: '1', pageSize: '1000' };
    const rows = (await ctx.get('/v3/transactions/txn_by_wallet', q)).json.data[0].transaction_history as any[];
    const counts = new Map<string, number>();
    for (const t of rows) counts.set(t.date, (counts.get(t.date) ?? 0) + 1);
    const [date, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(n).toBe(150);
    // That second alone, in pages of 100: the two pages of one read are not the second's rows once each.
    const s = String(Date.parse(date) / 1000);
    const page = async (p: string) =>
      hashes((await ctx.get('/v3/transactions/txn_by_wallet', { ...q, start_time: s, end_time: s, page: p, pageSize: '100' })).json);
    const [p1, p2] = [await page('1'), await page('2')];
    expect([p1.length, p2.length]).toEqual([100, 50]);
    expect(new Set([...p1, ...p2]).size).toBeLessThan(150);
    expect(ctx.sim.live!.truth(WALLET, eth)).toHaveLength(400);
  });
});

describe('live mode today', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['today'], today: { at: 1, every: 2 } }, 200));
  it("today's snapshot moves between requests (a position closes, and back); other dates stay; which state each answered is recorded", async () => {
    const count = async (path: string, date?: string) =>
      (await ctx.get(path, { wallet: WALLET, chains: 'eth', ...(date && { date }) })).json.data[0].positions.length as number;
    const seen = [];
    for (let k = 0; k < 5; k++) seen.push(await count('/v2/portfolio/all_positions'));
    const n = seen[0]!;
    expect(seen).toEqual([n, n - 1, n - 1, n, n]);
    expect(ctx.sim.live!.todayServed(WALLET, eth)).toEqual([0, 1, 1, 0, 0]);
    // The other views count with it, and move with it.
    expect(await count('/v1/portfolio/port_liq_analysis')).toBe(n - 1);
    expect(ctx.sim.live!.todayServed(WALLET, eth)).toHaveLength(6);
    // A past date is not today: fixed, and not counted.
    const yesterday = new Date(SIM_NOW - 86_400_000).toISOString().slice(0, 10);
    expect(await count('/v2/portfolio/all_positions', yesterday)).toBe(await count('/v2/portfolio/all_positions', yesterday));
    expect(ctx.sim.live!.todayServed(WALLET, eth)).toHaveLength(6);
  });
});

describe('a fault aimed at narrow re-reads (maxSpanSeconds)', () => {
  const ctx = useSimulator(liveSimOptions({ modes: ['burst'] }, 200));
  it('fires for a transactions request of one second, not for a range, nor for another endpoint', async () => {
    ctx.sim.setFaults([{ kind: 'server-error', status: 503, maxSpanSeconds: 2 }]);
    try {
      const q = { wallet: WALLET, chains: 'eth', page: '1', pageSize: '100' };
      expect((await ctx.get('/v3/transactions/txn_by_wallet', { ...q, start_time: '0', end_time: NOW_S })).status).toBe(200);
      expect((await ctx.get('/v3/transactions/txn_by_wallet', { ...q, start_time: NOW_S, end_time: NOW_S })).status).toBe(503);
      expect((await ctx.get('/v3/transactions/txn_by_wallet', { ...q, start_time: String(+NOW_S - 1), end_time: String(+NOW_S + 1) })).status).toBe(503);
      expect((await ctx.get('/v2/portfolio/all_positions', { wallet: WALLET, chains: 'eth' })).status).toBe(200);
    } finally {
      ctx.sim.setFaults([]);
    }
  });
});
