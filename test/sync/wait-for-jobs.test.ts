import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The tests' job poller (test/support/jobs.ts) on a real core: a poller that returned early, or
 * took a failed job for a done one, would let the tests that wait on it pass on half a sync.
 */
describe('waitForJobs', { timeout: 60_000 }, () => {
  it('returns the jobs asked for once finished; a failed one throws, or is returned when asked; an unknown id times out naming it', async () => {
    const core = await createCore({
      dataDir: tempDir(),
      shell: 'web',
      baseUrl: null,
      scheduleEveryMs: 0,
      demo: demoStarter({ now: () => SIM_NOW, latencyMs: 30 }),
    });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const job = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' });
      const [done] = await waitForJobs(core, [job]);
      expect(done).toMatchObject({ id: job.id, state: 'done', finishedAt: expect.any(String) });
      expect((await core.call('positions.dates', { wallet: WALLET })).length).toBeGreaterThan(0);
      // The same through a function that lists the jobs (a shell's API), and with no choice: every job.
      expect(await waitForJobs(() => core.request('sync.jobs', undefined), [job.id])).toEqual([done]);
      expect((await waitForJobs(core)).every((j) => j.finishedAt)).toBe(true);

      // A service that is not there: the job fails.
      await core.demoService()!.close();
      const failing = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-02' });
      await expect(waitForJobs(core, [failing])).rejects.toThrow(/: failed \(/);
      const [failed] = await waitForJobs(core, [failing], { failed: 'return' });
      expect(failed).toMatchObject({ id: failing.id, state: 'failed' });

      await expect(waitForJobs(core, ['no-such-job'], { timeout: 200 })).rejects.toThrow(/did not finish within 200 ms: no-such-job/);
    } finally {
      await core.close();
    }
  });
});
