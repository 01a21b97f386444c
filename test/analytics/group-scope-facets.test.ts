import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { SIM_NOW, WALLET as A, WALLET_2 as B } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The parts of a view around its figures follow the group too: the cached dates offered, the
 * timeline's filter choices, and whether the timeline says its history is incomplete. A
 * non-member's unfinished sync must not mark the group's timeline incomplete, and a member's
 * must.
 */
describe('a group scopes the dates picker, the filter choices and the completeness of the timeline', () => {
  it('shows what the members have, not what every wallet has', async () => {
    const dir = tempDir();
    const core = await createCore({ dataDir: dir, shell: 'web', baseUrl: null, demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW }) });
    try {
      await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Ops' });
      await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold' });
      const jobs: JobInfo[] = [
        await core.call('sync.positions', { wallet: A, date: '2026-11-20' }),
        await core.call('sync.positions', { wallet: B, date: '2026-11-10' }),
        await core.call('sync.transactions', { wallet: A }),
        await core.call('sync.transactions', { wallet: B }),
      ];
      await waitForJobs(core, jobs);
      const g = await core.call('groups.save', { name: 'Fund I', wallets: [A] });

      expect(await core.call('positions.dates', { group: g.id })).toEqual(['2026-11-20']);
      expect(await core.call('positions.dates', {})).toEqual(['2026-11-20', '2026-11-10']);
      expect(await core.call('positions.dates', { group: g.id })).toEqual(await core.call('positions.dates', { wallet: A }));

      const facetsOfGroup = await core.call('timeline.facets', { group: g.id });
      expect(facetsOfGroup).toEqual(await core.call('timeline.facets', { wallet: A }));
      expect(facetsOfGroup.chains).toEqual(['eth']);

      // B's history is left unfinished (as an interrupted sync leaves it).
      const db = await cacheOf(core);
      db.prepare("UPDATE txn_sync_ranges SET state = 'incomplete' WHERE wallet = ?").run(B);
      db.close();
      const groupPage = await core.call('timeline.page', { group: g.id, limit: 10 });
      expect(groupPage.incomplete).toBe(false);
      expect(groupPage.incompleteReasons).toEqual([]);
      const allPage = await core.call('timeline.page', { limit: 10 });
      expect(allPage.incomplete).toBe(true);
      expect(allPage.incompleteReasons.length).toBeGreaterThan(0);
      const cold = await core.call('groups.save', { name: 'Cold', wallets: [B] });
      expect((await core.call('timeline.page', { group: cold.id, limit: 10 })).incomplete).toBe(true);

      expect(await core.dispatch('timeline.facets', { group: g.id, wallet: B })).toMatchObject({
        ok: false,
        error: { message: 'Choose a wallet or a group, not both.' },
      });
    } finally {
      await core.close();
    }
  });
});
