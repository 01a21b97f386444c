import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { applyRestatements, storedInWindow } from '../../src/main/core/transactions/store/restatements.ts';

/**
 * Rules through the contract, against the simulator in-process: a rule saved before any
 * transaction is cached categorises what a sync then writes (applied after the job, not during
 * the ingest), exactly the rows its preview counts; a manual choice survives "apply to existing";
 * bad input is refused whole.
 */
describe('category rules and a sync', () => {
  it('categorises the transactions a sync writes, as the preview counted; manual choices win', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 120 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const { rule, applied } = await core.request('rules.save', { name: 'Outflows', category: 'Vendor payment', conditions: { direction: 'out' } });
      expect(applied).toEqual({ evaluated: 0, categorised: 0 });
      expect(rule).toMatchObject({ position: 1, category: 'Vendor payment', conditions: { direction: 'out' } });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      const total = await core.request('timeline.count', { wallet: WALLET });
      expect(total).toBeGreaterThan(50);
      const { matches } = await core.request('rules.preview', { conditions: { direction: 'out' } });
      expect(matches).toBeGreaterThan(0);
      expect(matches).toBeLessThan(total);
      // Applied once the job finished (the post-sync hook), not by anything the test calls.
      await expect.poll(() => core.request('timeline.count', { wallet: WALLET, categories: ['Vendor payment'] })).toBe(matches);
      expect(await core.request('timeline.count', { wallet: WALLET, uncategorised: true })).toBe(total - matches);
      const db = await cacheOf(core);
      const state = db.prepare('SELECT rules_to_txn_id AS t FROM annotation_state').get() as { t: number };
      expect(state.t).toBe((db.prepare('SELECT max(id) AS m FROM transactions').get() as { m: number }).m);
      // A manual choice on one of them; "apply to existing" leaves it.
      const [row] = (await core.request('timeline.page', { wallet: WALLET, categories: ['Vendor payment'], limit: 1 })).rows;
      expect(row!.category).toEqual({ name: 'Vendor payment', colour: '#ea580c', source: 'rule' });
      const key = { wallet: row!.wallet, chain: row!.chain, txnHash: row!.txnHash };
      expect(await core.request('notes.set', { ...key, category: 'Payroll', note: 'Salary, March' })).toMatchObject({ category: 'Payroll', source: 'manual' });
      expect(await core.request('rules.apply', undefined)).toEqual({ evaluated: total, categorised: matches });
      expect(await core.request('notes.get', key)).toMatchObject({
        category: 'Payroll',
        source: 'manual',
        ruleCategory: 'Vendor payment',
        note: 'Salary, March',
      });
      expect(await core.request('timeline.count', { wallet: WALLET, categories: ['Vendor payment'] })).toBe(matches - 1);
      // Bad input changes nothing.
      for (const [op, input] of [
        ['notes.set', { ...key, note: 'x\u202ey' }],
        ['notes.set', { ...key, category: 'No such' }],
        ['notes.set', { ...key, txnHash: '0xdead' }],
        ['rules.save', { category: 'Payroll', conditions: {} }],
        ['rules.save', { category: 'Payroll', conditions: { minAmount: 1 } }],
        ['rules.save', { category: 'Payroll', conditions: { methods: ['transfer'] } }],
        ['rules.reorder', { ids: [rule.id, rule.id] }],
        ['categories.save', { name: 'vendor PAYMENT' }],
      ] as const) {
        const res = await core.dispatch(op, input);
        expect(res, `${op} ${JSON.stringify(input)}`).toMatchObject({ ok: false, error: { kind: 'validation' } });
      }
      expect(await core.request('notes.get', key)).toMatchObject({ category: 'Payroll', note: 'Salary, March' });
      expect(await core.request('rules.list', undefined)).toHaveLength(1);
      expect((await core.request('categories.list', undefined)).map((c) => c.name)).toContain('Vendor payment');
    } finally {
      await core.close();
    }
  });

  it('a note on a transaction the service removed is kept, and the change log shows it beside the removal', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 30 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      const [row] = (await core.request('timeline.page', { wallet: WALLET, limit: 1 })).rows;
      const key = { wallet: row!.wallet, chain: row!.chain, txnHash: row!.txnHash };
      await core.request('notes.set', { ...key, note: 'Grant tranche 2' });
      // The service removes it (a reorganisation), as the sync's re-read applies it.
      const db = await cacheOf(core);
      const time = Date.parse(row!.date!);
      const stored = storedInWindow(db, row!.wallet, 'eth', Math.floor(time / 1000) - 1, Math.floor(time / 1000) + 1);
      applyRestatements(
        db,
        row!.wallet,
        'eth',
        { late: [], changed: [], removed: [{ before: stored.get(row!.txnHash)!, request: 'r-1' }] },
        new Date().toISOString(),
      );
      expect(await core.request('notes.get', key)).toMatchObject({ note: 'Grant tranche 2', orphaned: true });
      expect(await core.request('notes.orphans', undefined)).toEqual([expect.objectContaining({ txnHash: row!.txnHash, note: 'Grant tranche 2' })]);
      const log = await core.request('changes.list', { wallet: WALLET });
      expect(log).toEqual([expect.objectContaining({ kind: 'removed', txnHash: row!.txnHash, note: 'Grant tranche 2' })]);
      // A note cannot be set anew on a transaction no longer cached (the kept one stays).
      expect(await core.dispatch('notes.set', { ...key, note: 'x' })).toMatchObject({ ok: false, error: { field: 'txnHash' } });
    } finally {
      await core.close();
    }
  });

  it('watching the other side of a transfer makes it internal: the rules decide again', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 60 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      await core.request('rules.save', { category: 'Vendor payment', conditions: { direction: 'out' } });
      await core.request('rules.save', { category: 'Treasury transfer', conditions: { direction: 'internal' } });
      const outflows = (await core.request('timeline.page', { wallet: WALLET, categories: ['Vendor payment'], limit: 1000 })).rows;
      const other = outflows.find((r) => r.to && /^0x[0-9a-f]{40}$/.test(r.to) && r.to !== r.wallet)!.to!;
      // Internal once watched: its succeeded transactions either way (a rule leaves failed ones alone).
      const all = (await core.request('timeline.page', { wallet: WALLET, limit: 1000 })).rows;
      const toOther = all.filter((r) => r.status === 1 && (r.from === r.wallet ? r.to : r.from) === other).length;
      const sentToOther = outflows.filter((r) => r.to === other).length;
      expect(sentToOther).toBeGreaterThan(0);
      await core.request('wallets.add', { address: other, chains: ['eth'] });
      await expect.poll(() => core.request('timeline.count', { wallet: WALLET, categories: ['Treasury transfer'] })).toBe(toOther);
      expect(await core.request('timeline.count', { wallet: WALLET, categories: ['Vendor payment'] })).toBe(outflows.length - sentToOther);
    } finally {
      await core.close();
    }
  });

  it("a rule by a counterparty's name in the address book; an entry marked ours makes its transfers internal", async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 60 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      const rows = (await core.request('timeline.page', { wallet: WALLET, limit: 1000 })).rows;
      const other = rows.find((r) => r.to && /^0x[0-9a-f]{40}$/.test(r.to) && r.to !== r.wallet && r.from === r.wallet)!.to!;
      // Succeeded ones: a rule matches no failed transaction unless it asks for them.
      const withOther = rows.filter((r) => r.status === 1 && (r.from === r.wallet ? r.to : r.from) === other).length;
      await core.request('rules.save', { category: 'Grants', conditions: { counterpartyNames: ['Grantee X'] } });
      await core.request('rules.save', { category: 'Treasury transfer', conditions: { direction: 'internal' } });
      expect(await core.request('timeline.count', { wallet: WALLET, categories: ['Grants'] })).toBe(0); // no name yet
      await core.request('counterparties.save', { address: other, name: 'Grantee X' });
      await expect.poll(() => core.request('timeline.count', { wallet: WALLET, categories: ['Grants'] })).toBe(withOther);
      // Marked ours: its transfers are internal; with the internal rule first, they are filed so.
      await core.request('counterparties.save', { address: other, name: 'Grantee X', ours: true });
      const [grants, internal] = (await core.request('rules.list', undefined)).map((r) => r.id);
      await core.request('rules.reorder', { ids: [internal!, grants!] });
      expect(await core.request('timeline.count', { wallet: WALLET, categories: ['Treasury transfer'] })).toBe(withOther);
      expect(await core.request('timeline.count', { wallet: WALLET, categories: ['Grants'] })).toBe(0);
    } finally {
      await core.close();
    }
  });
});
