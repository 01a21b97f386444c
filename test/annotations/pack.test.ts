import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The monthly pack's flows by category come from the notes and rules (categoriesOf, issue 28):
 * a rule filing outflows shows as its own line, beside "Uncategorised", in the pack's view and
 * in its CSV; the categories' transfers still add up to the pack's.
 */
describe('categories in the monthly pack', () => {
  it('a rule’s category is a line of the pack’s flows by category, in the view and the CSV', async () => {
    const dir = tempDir();
    const core = await createCore({ dataDir: dir, shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      await waitForJobs(core, await Promise.all(['2026-09-30', '2026-10-31'].map((date) => core.call('sync.positions', { wallet: WALLET, date }))));
      const before = await core.call('pack.get', { month: '2026-10' });
      expect(before.byCategory.map((c) => c.key)).toEqual(['Uncategorised']);
      await core.request('rules.save', { category: 'Vendor payment', conditions: { direction: 'out' } });
      const p = await core.call('pack.get', { month: '2026-10' });
      const keys = p.byCategory.map((c) => c.key);
      expect(keys).toContain('Vendor payment');
      const vendor = p.byCategory.find((c) => c.key === 'Vendor payment')!;
      expect(vendor.transfers).toBeGreaterThan(0);
      const transfers = (xs: typeof p.byCategory) => xs.reduce((n, c) => n + c.transfers, 0);
      expect(transfers(p.byCategory)).toBe(transfers(before.byCategory));
      // The pack's CSV (an export job, built by the reports) says the same.
      const job = await core.call('export.start', { format: 'csv', report: 'pack', from: '2026-09-30', to: '2026-10-31' });
      const [done] = await waitForJobs(core, [job!]);
      expect(done!.state).toBe('done');
      const downloads = join(dir, 'downloads');
      const text = readFileSync(
        join(
          downloads,
          readdirSync(downloads).find((f) => f.endsWith('.csv'))!,
        ),
        'utf8',
      );
      expect(text).toContain('Vendor payment');
    } finally {
      await core.close();
    }
  });

  it('a closed period stands on its transactions’ categories: a category set inside it flags the close, and the closed pack stays as closed', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      await waitForJobs(core, await Promise.all(['2026-09-30', '2026-10-31'].map((date) => core.call('sync.positions', { wallet: WALLET, date }))));
      await core.request('rules.save', { category: 'Vendor payment', conditions: { direction: 'out' } });
      const closed = await core.request('closes.close', { wallet: WALLET, month: '2026-10' });
      expect(closed.pack.byCategory.map((c) => c.key)).toContain('Vendor payment');
      expect(await core.call('closes.check', undefined)).toMatchObject({ flagged: [] });
      // A transaction of October filed by hand under another category.
      const [row] = (await core.request('timeline.page', { wallet: WALLET, from: '2026-10-05', to: '2026-10-25', categories: ['Vendor payment'], limit: 1 }))
        .rows;
      await core.request('notes.set', { wallet: row!.wallet, chain: row!.chain, txnHash: row!.txnHash, category: 'Payroll' });
      await expect.poll(async () => (await core.request('closes.get', { id: closed.id })).state, { timeout: 10_000 }).toBe('flagged');
      const flagged = await core.request('closes.get', { id: closed.id });
      expect(flagged.flag!.parts).toEqual(['categories']);
      expect(JSON.stringify(flagged.pack)).toBe(JSON.stringify(closed.pack));
      // Reopened and closed again: a note alone changes no figure, and flags nothing.
      await core.request('closes.reopen', { id: closed.id, reason: 'recategorised payroll' });
      const again = await core.request('closes.close', { wallet: WALLET, month: '2026-10' });
      await core.request('notes.set', { wallet: row!.wallet, chain: row!.chain, txnHash: row!.txnHash, note: 'March payroll' });
      expect(await core.call('closes.check', undefined)).toMatchObject({ flagged: [] });
      expect((await core.request('closes.get', { id: again.id })).state).not.toBe('flagged');
    } finally {
      await core.close();
    }
  });
});
