import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The timeline's virtual list (components/VirtualRows.svelte): every row one height, placed by
 * arithmetic, rows recycled as they leave, and the focused row never reused for another
 * transaction. What a user would see go wrong: a gap or an overlap where rows are placed wrong,
 * rows in the wrong order, the focus ring on a transaction other than the one focused.
 */
const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 1_200 }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  },
});

/** The rows in the DOM, in DOM order: their grid index, place and height relative to the scroller's view. */
function layout() {
  return web.page.evaluate(() => {
    const grid = document.querySelector('[role=grid]')!;
    const rows = [...grid.querySelectorAll<HTMLElement>('[role=rowgroup].rows [role=row]')];
    const scroller = rows[0]!.closest<HTMLElement>('.scroller')!;
    const view = scroller.getBoundingClientRect();
    return {
      scrollTop: scroller.scrollTop,
      view: { top: view.top, height: scroller.clientHeight },
      rows: rows.map((r) => ({
        index: Number(r.getAttribute('aria-rowindex')),
        top: r.getBoundingClientRect().top - view.top,
        height: r.getBoundingClientRect().height,
      })),
    };
  });
}

async function frames(n = 3) {
  for (let i = 0; i < n; i++) await web.page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
}

describe('the timeline virtual list', () => {
  it('places every row by its index, without gaps or overlaps, wherever it is scrolled, with a bounded number of rows', async () => {
    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const grid = web.page.getByRole('grid');
    for (const to of [0, 1_000, 7_777, 20_000, 3_500, 42]) {
      await grid.evaluate((g, top) => (g.querySelector<HTMLElement>('.scroller')!.scrollTop = top), to);
      await frames();
      const l = await layout();
      const height = l.rows[0]!.height;
      expect(height).toBeGreaterThan(20);
      for (const [i, r] of l.rows.entries()) {
        expect(r.height, `row ${r.index} at ${to}`).toBe(height);
        // Consecutive, in order, each exactly where its index puts it (aria-rowindex 2 is the first item).
        if (i > 0) expect(r.index, `at ${to}`).toBe(l.rows[i - 1]!.index + 1);
        expect(Math.abs(r.top - ((r.index - 2) * height - l.scrollTop)), `row ${r.index} at ${to}`).toBeLessThan(1);
      }
      // The view is covered: a row at its top and one at its bottom.
      expect(l.rows[0]!.top).toBeLessThanOrEqual(0);
      expect(l.rows.at(-1)!.top + height).toBeGreaterThanOrEqual(Math.min(l.view.height, l.rows.at(-1)!.top + height));
      expect(l.rows.length).toBeLessThanOrEqual(Math.ceil(l.view.height / height) + 10);
    }
    expect(web.problems).toEqual([]);
  });

  it('keeps a row the same element while it is in view, and the focused row its own transaction when the list scrolls', async () => {
    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const grid = web.page.getByRole('grid');
    const scrollBy = (px: number) => grid.evaluate((g, by) => (g.querySelector<HTMLElement>('.scroller')!.scrollTop += by), px);
    await grid.evaluate((g) => (g.querySelector<HTMLElement>('.scroller')!.scrollTop = 2_000));
    await frames();
    // A row in the middle of the view stays the same element (not rebuilt) while the list moves by a row.
    await web.page.evaluate(() => {
      const rows = [...document.querySelectorAll<HTMLElement>('[role=row].txn')];
      (window as unknown as { kept: HTMLElement }).kept = rows[Math.floor(rows.length / 2)]!;
    });
    const keptId = await web.page.evaluate(() => (window as unknown as { kept: HTMLElement }).kept.id);
    await scrollBy(40);
    await frames();
    expect(await web.page.evaluate((id) => document.getElementById(id) === (window as unknown as { kept: HTMLElement }).kept, keptId)).toBe(true);

    // Focus a row, then scroll it out of the view and far away: the element with the focus never
    // shows another transaction (recycled rows are reused only for rows without the focus).
    const row = web.page.locator(`#${keptId}`);
    const text = await row.textContent();
    await row.focus();
    expect(await web.page.evaluate(() => document.activeElement?.id)).toBe(keptId);
    // While it is in view, the focus stays on it, scrolling down or up.
    for (const by of [36, 108, -72, 200, -250]) {
      await scrollBy(by);
      await frames();
      expect(await web.page.evaluate(() => document.activeElement?.id), `after scrolling ${by}`).toBe(keptId);
    }
    for (const by of [300, 300, 900, 5_000, -4_000]) {
      await scrollBy(by);
      await frames();
      const focused = await web.page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent ?? '' }));
      if (focused.id.startsWith('txn-row-')) expect(focused, `after scrolling ${by}`).toEqual({ id: keptId, text });
    }
    // Back where it was: the row shows its own transaction.
    await grid.evaluate((g) => (g.querySelector<HTMLElement>('.scroller')!.scrollTop = 2_040));
    await frames();
    expect(await row.textContent()).toBe(text);
    expect(web.problems).toEqual([]);
  });
});
