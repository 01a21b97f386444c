import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { poll, settled, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * What the screen says of a date is what the cache holds (issue 39, Medium 6 and 8): a group is
 * "cached" at a date only when every member's chains are, and an allocation of a date nobody
 * synced says it is not cached, not that nothing was held.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
const DAY = new Date(SIM_NOW).toISOString().slice(0, 10);
const EARLIER = '2026-10-01';

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { demo: demoStarter({ txnsPerWallet: 20, now: () => SIM_NOW }), now: () => SIM_NOW },
  clock: SIM_NOW,
  timeout: 120_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth', 'arb'], label: 'Treasury' });
    await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold storage' });
    // Only the treasury's positions at the day: the cold wallet's chain is missing there.
    await waitForJobs(core, [await core.call('sync.positions', { wallet: A, date: DAY })]);
  },
});

const badge = () => web.page.locator('.picker .badge');

describe('what the as-of date says', () => {
  it('a group with a member missing at the date is "partly cached", and "cached" once every member is', async () => {
    const group = await web.core.call('groups.save', { name: 'Both', wallets: [A, B] });
    await web.open(`#/overview?group=${group.id}&date=${DAY}`);
    await settled(web.page);
    await poll(() => badge().textContent()).toBe('partly cached');
    expect(await badge().getAttribute('title')).toBe('2 of 3 wallet chains are cached at this date; the totals leave the others out');
    await shoot(web.page, 'honest-dates-partly-cached');

    // The treasury alone is whole at that date.
    await web.open(`#/overview?wallet=${A}&date=${DAY}`);
    await poll(() => badge().textContent()).toBe('cached');

    await waitForJobs(web.core, [await web.core.call('sync.positions', { wallet: B, date: DAY })]);
    await web.open(`#/overview?group=${group.id}&date=${DAY}`);
    await poll(() => badge().textContent()).toBe('cached');
    expect(web.problems).toEqual([]);
  });

  it('an allocation at a date nobody synced says it is not cached, not that nothing was held', async () => {
    await web.open(`#/overview?wallet=${A}&date=${EARLIER}`);
    await settled(web.page);
    const charts = web.page.locator('.charts li.muted, section li.muted');
    await poll(() => web.page.getByText('Not cached at this date: sync it to see what was held.').count()).toBe(3);
    expect(await web.page.getByText('Nothing at this date.').count()).toBe(0);
    expect(await charts.count()).toBeGreaterThan(0);
    await shoot(web.page, 'honest-dates-not-cached');
    expect(web.problems).toEqual([]);
  });

  it('exposure across wallets and chains lists each token once, its chains in "Held in" and beneath (Medium 17)', async () => {
    // Shown for a scope of several wallets (all of them here).
    await web.open(`#/overview?date=${DAY}`);
    await settled(web.page);
    const table = web.page.locator('table', { has: web.page.getByRole('columnheader', { name: 'Held in' }) });
    await poll(() => table.locator('tbody tr').count()).toBeGreaterThan(3);
    const tokens = (await table.locator('tbody tr th[scope="row"]').allTextContents()).map((t) => t.trim());
    expect(tokens.length).toBe(new Set(tokens).size);
    // The wallet holds tokens on both its chains: some row names both, and opens to each beneath.
    const both = table.locator('tbody tr:not(.sub)', { hasText: 'Ethereum' }).filter({ hasText: 'Arbitrum One' });
    expect(await both.count()).toBeGreaterThan(0);
    await both.first().getByRole('button').click();
    const beneath = async () => (await table.locator('tbody tr.sub').allTextContents()).join(' ');
    await poll(async () => (await beneath()).includes('Ethereum') && (await beneath()).includes('Arbitrum One')).toBe(true);
    expect(web.problems).toEqual([]);
  });
});
