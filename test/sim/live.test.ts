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
