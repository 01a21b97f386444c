import { afterEach, describe, expect, it } from 'vitest';
import { cachedDates, latestSnapshot, rawSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { countTransactions, listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { datesBetween } from '../../src/main/core/positions/sync.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';
import { createHash } from 'node:crypto';

const ctx = useSimulator({ txnsPerWallet: 1500 });
afterEach(() => ctx.sim.setFaults([]));

function setup(options: { recheckRecent?: boolean } = {}) {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Main' });
  // Pages of 100 (the service allows 1000): these scenarios need many pages.
  return { db, ...engineFor(ctx.sim, db, { transactionPageSize: 100, ...options }) };
}

const requestsSince = (n: number) => ctx.sim.requests.slice(n);
/** First pages of transaction ranges asked since a mark (later pages may be speculative). */
const rangesAskedSince = (n: number) => requestsSince(n).filter((r) => r.endpoint === 'transactionsByWallet' && r.query['page'] === '1');

describe('sync: positions', () => {
  it('stores the three views of each chain at a date, immutable, with provenance and totals', async () => {
    const { db, engine } = setup();
    const asOf = await engine.syncPositions(WALLET, { date: '2025-06-01' }).result;
    expect(asOf).toEqual(['2025-06-01']);
    expect(cachedDates(db, WALLET)).toEqual(['2025-06-01']);
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', '2025-06-01')!;
    expect(snap.requestId).toMatch(/^[0-9a-f]{16}$/);
    expect(snap.asOf).toBe('2025-06-01');
    const positions = snap.data[0]!.positions;
    const principal = positions.reduce((s, p) => s + (p.principal_nav ?? 0), 0);
    expect(snap.principalNav).toBeCloseTo(principal, 6);
    expect(snap.totalNav).toBeCloseTo(principal + (snap.rewardNav ?? 0), 6);
    const raw = rawSnapshot(db, snap.id)!;
    expect(createHash('sha256').update(raw.raw).digest('hex')).toBe(snap.sha256);
    expect(raw.raw).toContain('"message":"Get Positions (ID: ');
    for (const endpoint of ['positionsByUnderlying', 'liquidityAnalysis'] as const)
      expect(latestSnapshot(db, endpoint, WALLET, 'arb', '2025-06-01')).not.toBeNull();
  });

  it("stores the service's as-of date for the latest snapshot", async () => {
    const { db, engine } = setup();
    expect(await engine.syncPositions(WALLET, { chains: ['eth'] }).result).toEqual(['2026-11-20']);
    expect(latestSnapshot(db, 'allPositions', WALLET, 'eth', '2026-11-20')?.requestedDate).toBeNull();
  });

  it('backfills a range at a step with progress, skipping dates already cached unless refreshing', async () => {
    const { db, engine } = setup();
    await engine.syncPositions(WALLET, { date: '2025-01-08' }).result;
    const progress: Array<[number, number | null]> = [];
    const off = engine.onProgress((i) => i.kind === 'backfill' && i.state === 'running' && progress.push([i.done, i.total]));
    const mark = ctx.sim.requests.length;
    const result = await engine.backfill({ wallet: WALLET, from: '2025-01-01', to: '2025-01-29', every: 'week' }).result;
    off();
    expect(result).toEqual({ fetched: 8, skipped: 2 }); // 5 weeks x 2 chains, one date cached
    expect(requestsSince(mark)).toHaveLength(24);
    expect(progress.at(-1)).toEqual([8, 8]);
    expect(cachedDates(db, WALLET)).toEqual(['2025-01-29', '2025-01-22', '2025-01-15', '2025-01-08', '2025-01-01']);
    const again = await engine.backfill({ wallet: WALLET, from: '2025-01-01', to: '2025-01-29', every: 'week', refresh: true }).result;
    expect(again).toEqual({ fetched: 10, skipped: 0 });
  });

  it('plans days, weeks and months', () => {
    expect(datesBetween('2025-01-30', '2025-02-02', 'day')).toEqual(['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-02']);
    expect(datesBetween('2025-01-31', '2025-05-01', 'month')).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30']);
    expect(datesBetween('2025-01-01', '2025-01-15', 'week')).toEqual(['2025-01-01', '2025-01-08', '2025-01-15']);
  });

  it('a failed unit leaves no partial date: all three views or none', async () => {
    const { db, engine } = setup();
    ctx.sim.setFaults([{ kind: 'server-error', endpoint: 'liquidityAnalysis' }]);
    const job = engine.syncPositions(WALLET, { date: '2025-03-03', chains: ['eth'] });
    await expect(job.result).rejects.toThrow(/HTTP 50/);
    expect(job.info.state).toBe('failed');
    expect(job.info.error).toMatchObject({ kind: 'server', retryable: true });
    expect(db.prepare('SELECT count(*) AS n FROM snapshots').get()).toEqual({ n: 0 });
  });

  it('rejects bad input before any request', () => {
    const { engine } = setup();
    expect(() => engine.syncPositions(WALLET, { date: '2025-02-31' })).toThrow('not a date');
    expect(() => engine.syncPositions('0x' + '1'.repeat(40))).toThrow('not a watched wallet');
    expect(() => engine.backfill({ wallet: WALLET, from: '2025-02-01', to: '2025-01-01', every: 'day' })).toThrow('before the start');
  });
});

describe('sync: transactions', () => {
  it('reads the whole history once, then only what is new', async () => {
    const { db } = setup();
    let clock = Date.UTC(2026, 9, 1);
    // The range bookkeeping alone: without the recent window every sync re-reads (live-*.test.ts).
    const { engine } = engineFor(ctx.sim, db, { now: () => clock, recheckRecent: false });
    const first = await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    expect(first[0]!.rowsRead).toBeGreaterThan(1300);
    expect(first[0]!.rowsRead).toBeLessThan(1500);
    expect(first[0]!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(first[0]!.rowsRead);
    const [range] = listRanges(db, WALLET, 'eth');
    expect(range).toMatchObject({ state: 'complete', startTime: 0, completionRatio: 1 });
    expect(range!.endBlock).toBeGreaterThan(range!.startBlock!);

    expect(range!.endTime).toBe(clock / 1000);

    // A month later, only the new month is asked for and read.
    clock = Date.UTC(2026, 10, 1);
    const mark = ctx.sim.requests.length;
    const second = await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    expect(rangesAskedSince(mark).map((r) => [Number(r.query['start_time']), Number(r.query['end_time'])])).toEqual([[range!.endTime + 1, clock / 1000]]);
    expect(second[0]!.rowsRead).toBe(1500 - first[0]!.rowsRead);
    expect(countTransactions(db, WALLET)).toBe(1500);
    expect(listRanges(db, WALLET, 'eth').map((r) => r.state)).toEqual(['complete', 'complete']);
  });

  it('marks a range the service has not fully indexed as incomplete and polls it again', async () => {
    // The range bookkeeping alone: without the recent window every sync re-reads (live-*.test.ts).
    const { db, engine } = setup({ recheckRecent: false });
    ctx.sim.setFaults([{ kind: 'incomplete', recentDays: 30 }]);
    const first = await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    expect(first[0]!.complete).toBe(false);
    const partial = countTransactions(db, WALLET);
    expect(partial).toBeLessThan(1500);
    const ranges = listRanges(db, WALLET, 'eth');
    expect(ranges.map((r) => r.state)).toEqual(['complete', 'incomplete']);
    expect(ranges[1]!.completionRatio).toBeLessThan(1);

    ctx.sim.setFaults([]); // the indexer catches up
    const mark = ctx.sim.requests.length;
    const second = await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    expect(second[0]!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(1500);
    expect(listRanges(db, WALLET, 'eth').map((r) => r.state)).toEqual(['complete', 'complete']);
    // The re-poll started at the incomplete part, not at the beginning of history.
    const asked = rangesAskedSince(mark);
    expect(asked.map((r) => Number(r.query['start_time']))).toEqual([ranges[1]!.startTime]);
  });

  it('a failing page stops the job with a clear error; what was written stays and the next sync resumes', async () => {
    const { db, engine } = setup();
    // Once some pages are written, every answer is not JSON: asked again (a body cut short may
    // be transient), then the page fails.
    const job = engine.syncTransactions(WALLET, { chains: ['eth'] });
    const off = engine.onProgress((i) => {
      if (i.id === job.info.id && i.done >= 300) ctx.sim.setFaults([{ kind: 'malformed-json', endpoint: 'transactionsByWallet', probability: 1 }]);
    });
    await expect(job.result).rejects.toThrow(/cannot read/);
    off();
    expect(job.info.error?.kind).toBe('bad-response');
    const partial = countTransactions(db, WALLET);
    expect(listRanges(db, WALLET, 'eth')[0]!.state).toBe('in_progress');
    ctx.sim.setFaults([]);
    await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    expect(countTransactions(db, WALLET)).toBe(1500);
    expect(partial).toBeLessThan(1500);
  });

  it('can be cancelled; the cache keeps whole pages only', async () => {
    const { db, engine } = setup();
    ctx.sim.setLatency(30);
    try {
      const job = engine.syncTransactions(WALLET, { chains: ['eth'] });
      const off = engine.onProgress((i) => i.id === job.info.id && i.done >= 300 && engine.cancel(job.info.id));
      await expect(job.result).rejects.toThrow(/Cancelled/);
      off();
      expect(job.info.state).toBe('cancelled');
      expect(countTransactions(db, WALLET) % 100).toBe(0);
    } finally {
      ctx.sim.setLatency(0);
    }
  });
});

describe('sync: logs on demand', () => {
  it('fetches every page once, then answers from the cache', async () => {
    const { db, engine } = setup();
    await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    const hashes = (db.prepare("SELECT txn_hash FROM transactions WHERE chain = 'eth' LIMIT 400").all() as Array<{ txn_hash: string }>).map((r) => r.txn_hash);
    let big: string | undefined;
    for (const h of hashes) {
      const set = await engine.logs('eth', h);
      if (set.total > 100) {
        big = h;
        break;
      }
    }
    expect(big).toBeDefined();
    const mark = ctx.sim.requests.length;
    const cached = await engine.logs('eth', big!);
    expect(requestsSince(mark)).toHaveLength(0);
    expect(cached.logs).toHaveLength(cached.total);
    expect(cached.header?.txn_hash).toBe(big);
    expect(cached.requestId).toMatch(/^[0-9a-f]{16}$/);
    await expect(engine.logs('eth', '0x123')).rejects.toThrow('Not a transaction hash');
  });
});
