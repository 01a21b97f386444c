import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { SIM_NOW, WALLET as A, WALLET_2 as B } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Issue 39, item 5: a rule's or a filter's lists are picked from options the core searches in
 * the cache (real SQLite, the demo's history), at most a limit of them, never every value; an
 * action type found as the screens spell it, and a rule written that way matching the same rows.
 */
describe('pickers.options', () => {
  let core: Core;
  let facets: { actionTypes: string[]; tokens: string[] };
  const PAL = '0x1111111111111111111111111111111111111111';
  beforeAll(async () => {
    core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: demoStarter({ txnsPerWallet: 300, now: () => SIM_NOW }) });
    await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Ops treasury' });
    await core.call('wallets.add', { address: B, chains: ['eth'], label: '' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: A }), await core.call('sync.transactions', { wallet: B })]);
    await core.call('counterparties.save', { address: PAL, name: 'Binance hot wallet' });
    facets = await core.call('timeline.facets', {});
  });
  afterAll(() => core.close());

  it('lists the cache’s action types, each as the screens spell it, found by either spelling', async () => {
    const all = await core.call('pickers.options', { kind: 'actionTypes', limit: 100 });
    expect(all.options.map((o) => o.value)).toEqual(facets.actionTypes);
    expect(all.more).toBe(false);
    expect(all.options.find((o) => o.value === 'swap')?.label).toBe('Swap');
    for (const search of ['Swap', 'SWAP', 'swa']) {
      expect((await core.call('pickers.options', { kind: 'actionTypes', search })).options.map((o) => o.value)).toContain('swap');
    }
    // "transfer out", as shown, finds transfer_out; an underscore typed is a letter, not LIKE's wildcard.
    expect(facets.actionTypes).toContain('transfer_out');
    expect((await core.call('pickers.options', { kind: 'actionTypes', search: 'Transfer out' })).options.map((o) => o.value)).toEqual(['transfer_out']);
    expect((await core.call('pickers.options', { kind: 'actionTypes', search: 'transfer%' })).options).toEqual([]);
  });

  it('sends at most the limit, and says more match', async () => {
    expect(facets.actionTypes.length).toBeGreaterThan(2);
    const two = await core.call('pickers.options', { kind: 'actionTypes', limit: 2 });
    expect(two.options.map((o) => o.value)).toEqual(facets.actionTypes.slice(0, 2));
    expect(two.more).toBe(true);
    expect(facets.tokens.length).toBeGreaterThan(3);
    const tokens = await core.call('pickers.options', { kind: 'tokens', limit: 3 });
    expect(tokens.options).toHaveLength(3);
    expect(tokens.more).toBe(true);
    expect(await core.dispatch('pickers.options', { kind: 'tokens', limit: 1000 })).toMatchObject({ ok: false });
  });

  it('finds tokens by any part of the symbol, the start first', async () => {
    const sym = facets.tokens.find((t) => t.length >= 3)!;
    const found = await core.call('pickers.options', { kind: 'tokens', search: sym.slice(0, 2).toLowerCase(), limit: 100 });
    expect(found.options.map((o) => o.value)).toContain(sym);
    const starts = found.options.map((o) => o.value.toLowerCase().startsWith(sym.slice(0, 2).toLowerCase()));
    // Every symbol starting with the text comes before one holding it further in.
    expect(starts.indexOf(false) === -1 || !starts.slice(starts.indexOf(false)).includes(true)).toBe(true);
  });

  it('tokens of a timeline’s scope: one wallet’s, or a group’s members’', async () => {
    const sorted = (xs: string[]) => [...xs].sort();
    for (const w of [A, B]) {
      const mine = (await core.call('timeline.facets', { wallet: w })).tokens;
      const offered = (await core.call('pickers.options', { kind: 'tokens', wallet: w, limit: 100 })).options.map((o) => o.value);
      expect(sorted(offered)).toEqual(sorted(mine));
    }
    const g = await core.call('groups.save', { name: 'Cold only', wallets: [B] });
    const ofGroup = (await core.call('pickers.options', { kind: 'tokens', group: g.id, limit: 100 })).options.map((o) => o.value);
    expect(sorted(ofGroup)).toEqual(sorted((await core.call('timeline.facets', { wallet: B })).tokens));
    // The scopes differ (else this test could not tell them apart).
    expect(sorted((await core.call('timeline.facets', { wallet: A })).tokens)).not.toEqual(sorted(ofGroup));
  });

  it('finds wallets by label or address start, and counterparties by name, wallet label or an address seen in the cache', async () => {
    expect((await core.call('pickers.options', { kind: 'wallets', search: 'treas' })).options).toEqual([{ value: A, label: 'Ops treasury', address: A }]);
    expect((await core.call('pickers.options', { kind: 'wallets', search: B.slice(0, 8).toUpperCase() })).options.map((o) => o.value)).toEqual([B]);
    const byName = await core.call('pickers.options', { kind: 'counterparties', search: 'binance' });
    expect(byName.options).toEqual([{ value: PAL, label: 'Binance hot wallet', address: PAL, source: 'book' }]);
    expect((await core.call('pickers.options', { kind: 'counterparties', search: 'ops' })).options[0]).toMatchObject({ value: A, source: 'wallet' });
    // An address only seen in the cache: found by its start (at least "0x" and two digits).
    const db = await cacheOf(core);
    const seen = (db.prepare('SELECT to_addr AS a FROM transactions WHERE to_addr NOT IN (?, ?, ?) LIMIT 1').get(A, B, PAL) as { a: string }).a;
    db.close();
    const bySeen = await core.call('pickers.options', { kind: 'counterparties', search: seen.slice(0, 12), limit: 100 });
    expect(bySeen.options).toContainEqual({ value: seen, label: seen, address: seen, source: 'seen' });
    expect(bySeen.options.every((o) => o.value.startsWith(seen.slice(0, 12)))).toBe(true);
    expect((await core.call('pickers.options', { kind: 'counterparties', search: '0x' })).options.every((o) => o.source !== 'seen')).toBe(true);
    expect((await core.call('pickers.options', { kind: 'counterpartyNames', search: 'o' })).options.map((o) => o.value)).toEqual([
      'Binance hot wallet',
      'Ops treasury',
    ]);
  });

  it('names exactly the values asked for (a stored rule’s picks), a value the cache does not know as itself', async () => {
    const other = '0x2222222222222222222222222222222222222222';
    const named = await core.call('pickers.options', { kind: 'counterparties', values: [PAL.toUpperCase().replace('0X', '0x'), other, A] });
    expect(named.options.map((o) => o.label)).toEqual(['Binance hot wallet', other, 'Ops treasury']);
    expect((await core.call('pickers.options', { kind: 'actionTypes', values: ['add_liquidity'] })).options).toEqual([
      { value: 'add_liquidity', label: 'Add liquidity' },
    ]);
  });

  it('the timeline filtered by an action type as the screens spell it: the rows of the stored type (defect 3)', async () => {
    const swaps = await core.call('timeline.count', { actionTypes: ['swap'] });
    expect(swaps).toBeGreaterThan(0);
    expect(await core.call('timeline.count', { actionTypes: ['Swap'] })).toBe(swaps);
    const both = await core.call('timeline.count', { actionTypes: ['swap', 'transfer_out'] });
    expect(both).toBeGreaterThan(swaps);
    expect(await core.call('timeline.count', { actionTypes: ['SWAP', 'Transfer out'] })).toBe(both);
    const page = await core.call('timeline.page', { actionTypes: ['Transfer out'], limit: 5 });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.actionType === 'transfer_out')).toBe(true);
    // A type the cache does not hold matches nothing (and is not an error).
    expect(await core.call('timeline.count', { actionTypes: ['Swop'] })).toBe(0);
  });

  it('a rule’s action type as the screens spell it matches what the stored value matches (defect 3)', async () => {
    const swaps = (await core.call('rules.preview', { conditions: { actionTypes: ['swap'] } })).matches;
    expect(swaps).toBeGreaterThan(0);
    expect((await core.call('rules.preview', { conditions: { actionTypes: ['Swap'] } })).matches).toBe(swaps);
    expect((await core.call('rules.preview', { conditions: { actionTypes: ['Transfer out'] } })).matches).toBe(
      (await core.call('rules.preview', { conditions: { actionTypes: ['transfer_out'] } })).matches,
    );
  });
});
