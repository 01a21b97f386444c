import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';

/**
 * Finding: 500 identical sync.positions calls made 500 jobs and 3,000 duplicate snapshots;
 * the job list was never pruned.
 */
async function idle(core: Core): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if ((await core.call('sync.jobs', undefined)).every((j) => j.finishedAt)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('jobs did not finish');
}

describe('identical sync requests coalesce; finished jobs are pruned', () => {
  it('500 identical sync.positions calls make one job and one set of snapshots', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: { now: () => SIM_NOW, latencyMs: 50 } });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'] });
      const results = await Promise.all(Array.from({ length: 500 }, () => core.dispatch('sync.positions', { wallet: WALLET, date: '2025-06-01' })));
      const ids = new Set(results.map((r) => (r.ok ? (r.result as { id: string }).id : 'error')));
      expect(ids.size).toBe(1);
      expect(ids.has('error')).toBe(false);
      await idle(core);
      const snapshots = (await cacheOf(core)).prepare('SELECT count(*) AS n FROM snapshots').get() as { n: number };
      expect(snapshots.n).toBe(3 * 2); // three views, two chains: once
      // A request made after the job finished is new work, not coalesced onto history.
      const again = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' });
      expect(ids.has(again.id)).toBe(false);
      // Different requests stay distinct.
      const other = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-02' });
      expect(other.id).not.toBe(again.id);
      await idle(core);
    } finally {
      await core.close();
    }
  });

  it('the job list keeps the last hundred finished jobs', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: { now: () => SIM_NOW } });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const start = Date.UTC(2025, 0, 1);
      const ids: string[] = [];
      for (let d = 0; d < 130; d++) {
        const date = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
        ids.push((await core.call('sync.positions', { wallet: WALLET, date })).id);
      }
      await idle(core);
      const jobs = await core.call('sync.jobs', undefined);
      expect(jobs).toHaveLength(100);
      expect(jobs.map((j) => j.id)).toEqual(ids.slice(-100));
    } finally {
      await core.close();
    }
  });
});
