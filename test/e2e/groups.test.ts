import { describe, expect, it } from 'vitest';
import { SIM_NOW } from '../support/sim.ts';
import { waitForJobs } from '../support/jobs.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { settled, useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Wallet groups in Chromium: made from the sidebar, picked with the keyboard, and every view
 * then shows the group's wallets only, with a scope indicator (issue 17, item 6).
 */
const OPS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const COLD = '0x00000000219ab540356cbb839cbe05303d7705fa';
const DATE = '2025-12-31';
const EARLIER = '2025-11-30';
const web = useWebSession({
  viewport: { width: 1360, height: 900 },
  core: { demo: demoStarter({ txnsPerWallet: 300, now: () => SIM_NOW }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: OPS, chains: ['eth'], label: 'Ops' });
    await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold' });
    const jobs: JobInfo[] = [];
    for (const w of [OPS, COLD]) jobs.push(await core.call('sync.positions', { wallet: w, date: DATE }), await core.call('sync.transactions', { wallet: w }));
    // A date only one wallet has cached.
    jobs.push(await core.call('sync.positions', { wallet: OPS, date: EARLIER }));
    await waitForJobs(core, jobs);
  },
  timeout: 120_000,
});

const totalNav = () => web.page.getByTestId('total-nav').textContent();

describe('wallet groups scope every view', () => {
  it('a group made in the sidebar scopes the Overview, Positions and Timeline; the indicator says so', async () => {
    await web.page.goto(web.shell.url);
    await web.page.evaluate((d) => (location.hash = `#/overview?date=${d}`), DATE);
    await expect.poll(totalNav, { timeout: 15_000 }).toMatch(/\$/);
    const all = await totalNav();
    // The Ops wallet's own figure, for comparison.
    await web.page.evaluate((d) => (location.hash = `#/overview?date=${d}&wallet=0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c`), DATE);
    await expect.poll(totalNav).not.toBe(all);
    const ops = await totalNav();
    await web.page.evaluate((d) => (location.hash = `#/overview?date=${d}`), DATE);
    await expect.poll(totalNav).toBe(all);

    // Make the group from the sidebar: a name and one member.
    const groups = web.page.getByTestId('sidebar-groups');
    await groups.getByRole('button', { name: 'New wallet group' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'New wallet group' });
    await dialog.getByLabel('Name').fill('Fund I');
    await dialog.getByRole('checkbox', { name: /Ops/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => web.page.evaluate(() => location.hash)).toMatch(/group=\d+/);

    // The indicator names the group; the totals are the member's, not every wallet's.
    const indicator = web.page.getByTestId('scope-indicator');
    await expect.poll(() => indicator.textContent(), { timeout: 10_000 }).toMatch(/Showing group\s*Fund I\s*· 1 wallet/);
    await expect.poll(totalNav, { timeout: 10_000 }).toBe(ops);
    expect(await groups.getByRole('link', { name: /Fund I/ }).getAttribute('aria-current')).toBe('page');
    expect(await web.page.locator('#wallet-list a[aria-current="page"]').count()).toBe(0);
    // The wallets table lists the member only.
    await expect.poll(() => web.page.locator('section.card table tbody tr', { hasText: 'Cold' }).count()).toBe(0);
    await bothThemes(web.page, 'groups-overview');

    // Positions: the member's positions only (as the core lists them).
    await web.page.getByRole('tab', { name: 'Positions' }).click();
    const group = (await web.core.call('groups.list', undefined)).find((g) => g.name === 'Fund I')!;
    const opsPositions = (await web.core.call('positions.get', { wallet: OPS, date: DATE, view: 'all' })).chains.reduce(
      (n, c) => n + ((c.snapshot?.data ?? []) as Array<{ positions: unknown[] }>).reduce((m, s) => m + s.positions.length, 0),
      0,
    );
    await expect.poll(() => web.page.locator('table.positions > tbody > tr:not(.sub):not(.total)').count(), { timeout: 10_000 }).toBe(opsPositions);
    await expect.poll(() => web.page.getByTestId('scope-indicator').count()).toBe(1);
    await bothThemes(web.page, 'groups-positions');

    // Timeline: the member's transactions only, newest first, as timeline.page gives them.
    await web.page.getByRole('tab', { name: 'Timeline' }).click();
    const first = (await web.core.call('timeline.page', { group: group.id, limit: 5 })).rows;
    expect(first.every((r) => r.wallet === OPS)).toBe(true);
    const who = web.page.locator('[role="row"][aria-rowindex]:not(.head) .who');
    await expect.poll(() => who.count(), { timeout: 10_000 }).toBeGreaterThan(3);
    for (const t of await who.allTextContents()) expect(t).toBe('Ops');
    await bothThemes(web.page, 'groups-timeline');

    // Reconcile and Risk keep the same scope (their own pickers show the group).
    await web.page.getByRole('tab', { name: 'Risk' }).click();
    await expect.poll(() => web.page.locator('#group-scope').inputValue(), { timeout: 10_000 }).toBe(String(group.id));
    await expect.poll(() => web.page.locator('h1').textContent()).toContain('Group: Fund I');
    await settled(web.page);
    await bothThemes(web.page, 'groups-risk');
    await web.page.getByRole('tab', { name: 'Reconcile' }).click();
    await expect.poll(() => web.page.locator('#group-scope').inputValue(), { timeout: 10_000 }).toBe(String(group.id));
    await settled(web.page);
    await bothThemes(web.page, 'groups-reconcile');

    // Show all wallets: the indicator goes, the figure is every wallet's again.
    await indicator.getByRole('button', { name: 'Show all wallets' }).click();
    await web.page.getByRole('tab', { name: 'Overview' }).click();
    await expect.poll(totalNav, { timeout: 10_000 }).toBe(all);
    expect(await web.page.getByTestId('scope-indicator').count()).toBe(0);
    expect(web.problems).toEqual([]);
  });

  it('the group list is one Tab stop moved with the arrow keys', async () => {
    await web.core.call('groups.save', { name: 'Cold storage', wallets: [COLD] });
    await web.page.goto(web.shell.url);
    await web.page.evaluate((d) => (location.hash = `#/overview?date=${d}&wallet=0x00000000219ab540356cbb839cbe05303d7705fa`), DATE);
    await expect.poll(totalNav, { timeout: 15_000 }).toMatch(/\$/);
    const coldTotal = await totalNav();
    await web.page.evaluate((d) => (location.hash = `#/overview?date=${d}`), DATE);
    await expect.poll(totalNav).not.toBe(coldTotal);
    const links = web.page.locator('#group-list a');
    await expect.poll(() => links.count(), { timeout: 10_000 }).toBe(2);
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('tabindex')))).toEqual(['0', '-1']);
    // Sorted by name: Cold storage, Fund I. No group picked yet: Down picks the first.
    await links.first().focus();
    await web.page.keyboard.press('ArrowDown');
    const indicator = web.page.getByTestId('scope-indicator');
    await expect.poll(() => indicator.textContent()).toContain('Cold storage');
    await web.page.keyboard.press('ArrowDown');
    await expect.poll(() => web.page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Fund I');
    await expect.poll(() => indicator.textContent()).toContain('Fund I');
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('tabindex')))).toEqual(['-1', '0']);
    await web.page.keyboard.press('Home');
    await expect.poll(() => indicator.textContent()).toContain('Cold storage');
    await expect.poll(() => web.page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Cold storage');
    // The Cold storage group's total is the Cold wallet's own.
    await expect.poll(totalNav, { timeout: 10_000 }).toBe(coldTotal);
    await bothThemes(web.page, 'groups-keyboard');
    expect(web.problems).toEqual([]);
  });

  it('a group with a member not cached at the date says its totals are incomplete, never a smaller figure silently', async () => {
    const both = await web.core.call('groups.save', { name: 'Both', wallets: [OPS, COLD] });
    await web.page.goto(web.shell.url);
    await web.page.evaluate(([d, w]) => (location.hash = `#/overview?date=${d}&wallet=${w}`), [EARLIER, OPS]);
    await expect.poll(totalNav, { timeout: 15_000 }).toMatch(/\$/);
    const opsTotal = await totalNav();
    expect(await web.page.getByTestId('partial-scope').count()).toBe(0);
    await web.page.evaluate(([d, g]) => (location.hash = `#/overview?date=${d}&group=${g}`), [EARLIER, String(both.id)]);
    const partial = web.page.getByTestId('partial-scope');
    await expect.poll(() => partial.textContent(), { timeout: 10_000 }).toContain('Incomplete: 1 wallet chain is not cached for this date');
    expect(await partial.textContent()).toContain('Cold (Ethereum)');
    // The figure is the cached member's, and says it is incomplete.
    expect(await totalNav()).toBe(opsTotal);
    expect(await web.page.locator('.kpi', { has: web.page.getByTestId('total-nav') }).textContent()).toContain('incomplete');
    await bothThemes(web.page, 'groups-partial');
    expect(web.problems).toEqual([]);
  });

  it('the NAV chart marks a date that lacks a member as partial, not a point of the line; the cards count the wallets counted', async () => {
    const both = (await web.core.call('groups.list', undefined)).find((g) => g.name === 'Both')!;
    await web.page.goto(web.shell.url);
    // At DATE both members are cached; at EARLIER only Ops is: its total is partial.
    await web.page.evaluate(([d, g]) => (location.hash = `#/overview?date=${d}&group=${g}&range=90d`), [DATE, String(both.id)]);
    const chart = web.page.locator('.charts[data-partial-dates]');
    await expect.poll(() => chart.getAttribute('data-partial-dates'), { timeout: 15_000 }).toBe(EARLIER);
    expect(await web.page.locator('.card p.muted.small', { hasText: 'hollow marks' }).count()).toBe(1);
    expect(await web.page.locator('.kpi', { hasText: 'Positions' }).textContent()).toContain('2 wallets');
    await bothThemes(web.page, 'groups-nav-partial');
    // At EARLIER: the card counts the one wallet counted, and Positions names the missing one.
    await web.page.evaluate(([d, g]) => (location.hash = `#/overview?date=${d}&group=${g}&range=90d`), [EARLIER, String(both.id)]);
    await expect.poll(() => web.page.locator('.kpi', { hasText: 'Positions' }).textContent(), { timeout: 10_000 }).toContain('1 of 2 wallets counted');
    await web.page.getByRole('tab', { name: 'Positions' }).click();
    const partial = web.page.getByTestId('partial-scope');
    await expect.poll(() => partial.textContent(), { timeout: 10_000 }).toContain('Partial: 1 wallet chain is not cached');
    expect(await partial.textContent()).toContain('Cold (Ethereum)');
    await bothThemes(web.page, 'groups-positions-partial');
    expect(web.problems).toEqual([]);
  });
});
