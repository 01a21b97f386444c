import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { poll, shootBothThemes, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Issue 39, item 2: a change of the timeline's filters, search or scope brings its list back to
 * the top (the newest first). Scrolled far down (to an old month) and then filtered to the failed
 * transactions, the list opened at the old place, hiding the newest failures; "Clear filters"
 * kept it too. Nothing here depends on the date: the newest rows are asked of the core.
 */
const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 1_200 }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  },
});

const scroller = () => web.page.locator('[role=grid] .scroller');
const scrollTop = () => scroller().evaluate((s) => s.scrollTop);
/** The first transaction row in view (the list's top), by its id. */
const firstInView = () =>
  web.page.evaluate(() => {
    const s = document.querySelector<HTMLElement>('[role=grid] .scroller')!;
    const top = s.getBoundingClientRect().top;
    const rows = [...s.querySelectorAll<HTMLElement>('[role=row].txn')].filter((r) => r.getBoundingClientRect().bottom > top + 1);
    rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    return rows[0]?.id ?? null;
  });
/**
 * Far down the list (to an old month in the whole list; the end of a shorter one). Scrolled again
 * until it holds: a list still settling from the last change (its rows arriving, a filter cleared
 * the moment before) may put itself back at its top after the first scroll.
 */
async function scrollFar() {
  await poll(async () => {
    await scroller().evaluate((s) => (s.scrollTop = 30_000));
    return scrollTop();
  }).toBeGreaterThan(1_000);
}

describe('the timeline back at its top when the filters change', () => {
  it('filtered to Failed after scrolling to an old month: opens at the newest failure; Clear filters: at the newest transaction', async () => {
    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const newest = await web.core.call('timeline.page', { wallet: WALLET, limit: 1 });
    const newestFailed = await web.core.call('timeline.page', { wallet: WALLET, statuses: [0], limit: 1 });
    expect(newestFailed.rows.length).toBe(1);

    await scrollFar();
    await web.page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Failed' });
    await poll(() => web.page.locator('[role=row].txn:not(.failed)').count()).toBe(0);
    await poll(scrollTop).toBe(0);
    await poll(firstInView).toBe(`txn-row-${newestFailed.rows[0]!.id}`);
    // The keyboard's way in is the first row shown, not a row of the old list.
    expect(await web.page.locator('[role=row].txn[tabindex="0"]').getAttribute('id')).toBe(`txn-row-${newestFailed.rows[0]!.id}`);

    await scrollFar();
    await web.page.getByRole('button', { name: 'Clear filters' }).click();
    await poll(() => web.page.locator('[role=row].txn:not(.failed)').count()).toBeGreaterThan(0);
    await poll(scrollTop).toBe(0);
    await poll(firstInView).toBe(`txn-row-${newest.rows[0]!.id}`);
    expect(web.problems).toEqual([]);
  });

  it('a search or another filter after scrolling also opens at the top; a detail whose row left the list is closed', async () => {
    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    await scrollFar();
    // Open a detail of an old row, then filter to the failures (the row succeeded: it leaves the list).
    const old = web.page.locator('[role=row].txn:not(.failed)').nth(3);
    await old.click();
    await poll(() => web.page.getByRole('dialog', { name: 'Transaction detail' }).isVisible()).toBe(true);
    await web.page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Failed' });
    await poll(() => web.page.locator('[role=row].txn:not(.failed)').count()).toBe(0);
    await poll(scrollTop).toBe(0);
    await poll(() => web.page.getByRole('dialog', { name: 'Transaction detail' }).count()).toBe(0);

    await web.page.getByRole('button', { name: 'Clear filters' }).click();
    await poll(() => web.page.locator('[role=row].txn:not(.failed)').count()).toBeGreaterThan(0);
    await scrollFar();
    await web.page.getByRole('searchbox', { name: /^Search by hash/ }).fill(WALLET);
    await web.page.getByRole('button', { name: 'Search', exact: true }).click();
    await poll(() => web.page.evaluate(() => location.hash)).toContain('q=');
    await poll(scrollTop).toBe(0);
    expect(web.problems).toEqual([]);
  });

  it('looked at: the filtered list at its top, 1024×640 and 1440×900, light and dark', async () => {
    for (const [w, h] of [
      [1024, 640],
      [1440, 900],
    ] as const) {
      await web.page.setViewportSize({ width: w, height: h });
      await web.open('#/timeline');
      await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
      await scrollFar();
      await web.page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Failed' });
      await poll(scrollTop).toBe(0);
      await shootBothThemes(web.page, `timeline-filter-top-${w}x${h}`);
      await web.page.getByRole('button', { name: 'Clear filters' }).click();
    }
  });
});
