import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** The app and the web shell run due schedules while open, with no command from anyone. */
describe('schedules in a running app', () => {
  it('a due schedule runs by itself; the contract refuses a bad one and changes nothing', async () => {
    const core: Core = await createCore({
      dataDir: tempDir(),
      shell: 'web',
      baseUrl: null,
      env: {},
      scheduleEveryMs: 100,
      demo: demoStarter({ txnsPerWallet: 300 }),
    });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const bad = [
        { scope: { kind: 'all' }, what: 'both', cadence: { every: 'hour', minute: 60 } },
        { scope: { kind: 'all' }, what: 'both', cadence: { every: 'week', weekday: 7, hour: 1, minute: 0 } },
        { scope: { kind: 'all' }, what: 'everything', cadence: { every: 'day', hour: 1, minute: 0 } },
        { scope: { kind: 'wallet', address: '0xnot-watched' }, what: 'both', cadence: { every: 'day', hour: 1, minute: 0 } },
        { scope: { kind: 'group', id: 99 }, what: 'both', cadence: { every: 'day', hour: 1, minute: 0 } },
        { id: 42, scope: { kind: 'all' }, what: 'both', cadence: { every: 'day', hour: 1, minute: 0 } },
      ];
      for (const input of bad) expect((await core.dispatch('schedules.save', input)).ok).toBe(false);
      expect(await core.call('schedules.list', undefined)).toEqual([]);

      const saved = await core.call('schedules.save', {
        scope: { kind: 'wallet', address: WALLET.toUpperCase().replace('0X', '0x') },
        what: 'both',
        cadence: { every: 'hour', minute: 0 },
      });
      expect(saved.scope).toEqual({ kind: 'wallet', address: WALLET });
      expect(Date.parse(saved.nextSlot)).toBeGreaterThan(Date.now());
      // As if made yesterday: its newest slot has come.
      (await cacheOf(core)).prepare("UPDATE schedules SET created_at = '2026-01-01T00:00:00.000Z'").run();
      await expect.poll(async () => (await core.call('schedules.list', undefined))[0]!.lastRun?.state, { timeout: 30_000 }).toBe('ok');
      const [listed] = await core.call('schedules.list', undefined);
      expect(Date.parse(listed!.nextSlot)).toBeGreaterThan(Date.now());
      const db = await cacheOf(core);
      expect((db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n).toBe(300);
      expect((db.prepare('SELECT count(*) AS n FROM snapshots').get() as { n: number }).n).toBe(3);
      // Ran once: asked again at once, nothing is due.
      expect((await core.call('schedules.runDue', undefined)).runs).toEqual([]);
      expect(await core.call('schedules.remove', { id: listed!.id })).toBe(true);
      expect(await core.call('schedules.list', undefined)).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
