import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, createDB, tempDir } from '../support/store.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { JOIN_FINISHED_MS } from '../../src/main/core/jobs/queue.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

const count = async (core: Core, sql: string) => ((await cacheOf(core)).prepare(sql).get() as { n: number }).n;

/**
 * Findings: 500 identical sync.positions calls made 500 jobs and 3,000 duplicate snapshots;
 * the job list was never pruned. Round 2: 30 identical calls spread over a second made 7
 * fetches and 21 snapshots (calls arriving just after an identical job finished fetched
 * again), and a body identical to the one stored was stored again as a new snapshot.
 */
describe('identical sync requests coalesce; finished jobs are pruned', () => {
  it('500 identical sync.positions calls make one job and one set of snapshots', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW, latencyMs: 50 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'] });
      const results = await Promise.all(Array.from({ length: 500 }, () => core.dispatch('sync.positions', { wallet: WALLET, date: '2025-06-01' })));
      const ids = new Set(results.map((r) => (r.ok ? (r.result as { id: string }).id : 'error')));
      expect(ids.size).toBe(1);
      expect(ids.has('error')).toBe(false);
      await waitForJobs(core);
      const snapshots = (await cacheOf(core)).prepare('SELECT count(*) AS n FROM snapshots').get() as { n: number };
      expect(snapshots.n).toBe(3 * 2); // three views, two chains: once
      // A request made a while after the job finished is new work, not coalesced onto history.
      await new Promise((r) => setTimeout(r, JOIN_FINISHED_MS + 200));
      const again = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' });
      expect(ids.has(again.id)).toBe(false);
      // Different requests stay distinct.
      const other = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-02' });
      expect(other.id).not.toBe(again.id);
      await waitForJobs(core);
    } finally {
      await core.close();
    }
  });

  it('30 identical calls spread over a second are one fetch; a refresh with the same body adds no snapshot but moves its fetch time', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW, latencyMs: 20 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'] });
      const ids = new Set<string>();
      for (let i = 0; i < 30; i++) {
        const r = await core.dispatch('sync.positions', { wallet: WALLET, date: '2025-06-01' });
        ids.add(r.ok ? (r.result as { id: string }).id : 'error');
        await new Promise((resolve) => setTimeout(resolve, 33));
      }
      expect(ids.has('error')).toBe(false);
      await waitForJobs(core);
      // The job is short (a few tens of ms): most of the 30 calls arrived after it finished.
      expect(ids.size).toBe(1);
      expect(await count(core, 'SELECT count(*) AS n FROM snapshots')).toBe(3 * 2);

      // Asked again later: fetched again, the same bodies (but for the request id), nothing new
      // stored; the time shown is the new fetch.
      await new Promise((r) => setTimeout(r, JOIN_FINISHED_MS + 200));
      const later = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' });
      expect(ids.has(later.id)).toBe(false);
      await waitForJobs(core);
      expect(await count(core, 'SELECT count(*) AS n FROM snapshots')).toBe(3 * 2);
      expect(await count(core, 'SELECT count(*) AS n FROM snapshot_checks')).toBe(3 * 2);
      const db = await cacheOf(core);
      const times = db
        .prepare(`SELECT s.endpoint, s.fetched_at AS first, c.checked_at AS checked FROM snapshots s JOIN snapshot_checks c ON c.snapshot_id = s.id`)
        .all() as Array<{ endpoint: string; first: string; checked: string }>;
      for (const t of times) expect(t.checked > t.first).toBe(true);
      // What the screens and reports read is the newest time the service was asked.
      const newest = (endpoint?: string) =>
        times
          .filter((t) => !endpoint || t.endpoint === endpoint)
          .map((t) => t.checked)
          .sort()
          .at(-1);
      const nav = await core.call('nav.history', { wallet: WALLET, from: '2025-06-01', to: '2025-06-01' });
      expect(nav.points[0]!.fetchedAt).toBe(newest('allPositions'));
      expect((await core.call('wallets.status', undefined))[0]!.positionsFetchedAt).toBe(newest());
    } finally {
      await core.close();
    }
  });

  it('a changed body is stored as a new snapshot, and a body the same as an older (not the newest) one too', async () => {
    const db = createDB();
    const day = '2025-06-01';
    const response = (body: string, fetchedAt: string) => ({
      data: [],
      body,
      url: 'http://service.test/',
      fetchedAt,
      attempts: 1,
      requestId: null,
      message: '',
      total: null,
    });
    const store = (body: string, at: string) =>
      insertSnapshot(db, { endpoint: 'liquidityAnalysis', wallet: WALLET, chain: 'eth', requestedDate: day, response: response(body, at) as never });
    const a = store('{"a":1}', '2026-11-01T00:00:00.000Z');
    expect(store('{"a":1}', '2026-11-02T00:00:00.000Z')).toBe(a);
    const b = store('{"a":2}', '2026-11-03T00:00:00.000Z');
    expect(b).not.toBe(a);
    const a2 = store('{"a":1}', '2026-11-04T00:00:00.000Z');
    expect(a2).not.toBe(a);
    expect((db.prepare('SELECT count(*) AS n FROM snapshots').get() as { n: number }).n).toBe(3);
    // The latest (no date asked) is its own record even with the same body on the same day.
    const latest = insertSnapshot(db, {
      endpoint: 'liquidityAnalysis',
      wallet: WALLET,
      chain: 'eth',
      requestedDate: null,
      latestDay: day,
      response: response('{"a":1}', '2026-11-05T00:00:00.000Z') as never,
    });
    expect(latest).not.toBe(a2);
    db.close();
  });

  it('the job list keeps the last hundred finished jobs', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const start = Date.UTC(2025, 0, 1);
      const ids: string[] = [];
      for (let d = 0; d < 130; d++) {
        const date = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
        ids.push((await core.call('sync.positions', { wallet: WALLET, date })).id);
      }
      await waitForJobs(core);
      const jobs = await core.call('sync.jobs', undefined);
      expect(jobs).toHaveLength(100);
      expect(jobs.map((j) => j.id)).toEqual(ids.slice(-100));
    } finally {
      await core.close();
    }
  });
});
