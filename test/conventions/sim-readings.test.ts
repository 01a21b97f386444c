import { describe, expect, it } from 'vitest';
import { DEFAULT_CONVENTIONS, describeConventions, parseConventions } from '../../src/sim/conventions.ts';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { useSimulator, WALLET } from '../support/sim.ts';

/** The simulator's readings themselves: parsed strictly, and played as documented. */
const ctx = useSimulator({ txnsPerWallet: 30 });
const txns = (params: Record<string, string>) => ctx.get(ENDPOINTS.transactionsByWallet.path, { wallet: WALLET, chains: 'eth', ...params });

describe('simulator readings', () => {
  it('parses key=value pairs over the defaults and refuses anything else, naming it', () => {
    expect(parseConventions([])).toEqual(DEFAULT_CONVENTIONS);
    expect(parseConventions(['page-base=0', 'time-unit=ms', 'page-size-cap=40'])).toMatchObject({ pageBase: 0, timeUnit: 'ms', pageSizeCap: 40 });
    expect(() => parseConventions(['page-base=2'])).toThrow('convention page-base=2: expected one of 0, 1');
    expect(() => parseConventions(['page-size-cap=0'])).toThrow(/page-size-cap=0: expected an integer from 1 to 1000/);
    expect(() => parseConventions(['paging'])).toThrow(/convention paging=: expected one of honoured, ignored/);
    expect(() => parseConventions(['nonsense=1'])).toThrow(/unknown convention 'nonsense'; conventions: page-base, /);
    expect(describeConventions(parseConventions(['order=unordered', 'bounds=exclusive']))).toBe('bounds=exclusive order=unordered');
  });

  it('plays 0-based pages, milliseconds, a silent cap and a repeated last page', async () => {
    ctx.sim.setConventions(parseConventions(['page-base=0', 'time-unit=ms', 'page-size-cap=20', 'past-end=repeat-last']));
    try {
      const rows = async (params: Record<string, string>) =>
        ((await txns(params)).json.data[0].transaction_history as Array<{ txn_hash: string }>).map((t) => t.txn_hash);
      const end = String(Date.UTC(2026, 10, 20));
      const p0 = await rows({ start_time: '0', end_time: end, page: '0', pageSize: '1000' });
      const p1 = await rows({ start_time: '0', end_time: end, page: '1', pageSize: '1000' });
      expect(p0).toHaveLength(20);
      expect(p1).toHaveLength(10);
      expect(new Set([...p0, ...p1]).size).toBe(30);
      expect(await rows({ start_time: '0', end_time: end, page: '7', pageSize: '1000' })).toEqual(p1);
      // Seconds read as milliseconds: January 1970, nothing.
      expect(await rows({ start_time: '0', end_time: String(Math.floor(Date.UTC(2026, 10, 20) / 1000)), page: '0', pageSize: '1000' })).toEqual([]);
    } finally {
      ctx.sim.setConventions({});
    }
  });
});
