import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { cutFigures } from '../support/figures.ts';
import { poll, settled, useTreasurySession } from '../support/web-session.ts';

/**
 * A window made smaller after it loaded lays out as one loaded at that size (issue 39, High 1):
 * loaded at 1440×900 and shrunk to 1024×640, the issue found the sidebar still open, Total NAV
 * cut to "19.948.448,5", the title "All…", a horizontal scrollbar and position names cut.
 */
const web = useTreasurySession({ txnsPerWallet: 100 });

/** What does not fit: the page wider than the window, a title or a name cut. */
function overflow(): Promise<string[]> {
  return web.page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) out.push(`page ${root.scrollWidth} wide in ${root.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('h1, main .namebox .n, main th[scope=row]')) {
      if (el.scrollWidth > el.clientWidth + 1)
        out.push(`${el.tagName.toLowerCase()} "${el.textContent?.trim().slice(0, 30)}" ${el.scrollWidth} in ${el.clientWidth}`);
    }
    return out;
  });
}

describe('a window resized after it loaded', () => {
  it('at 1440×900, then 1024×640: the sidebar gives way, every figure, title and name whole; and back', async () => {
    for (const route of ['#/overview', '#/positions']) {
      await web.page.setViewportSize({ width: 1440, height: 900 });
      await web.open(route);
      await poll(() => web.page.locator('main td.num, main .kpi strong').count()).toBeGreaterThan(0);
      await settled(web.page);
      const sidebar = web.page.getByRole('navigation', { name: /wallets/i });
      const wide = await sidebar.boundingBox();

      await web.page.setViewportSize({ width: 1024, height: 640 });
      await settled(web.page);
      await shoot(web.page, `resize-${route.replace(/[^a-z]+/g, '-')}-1024`);
      await expect.poll(() => cutFigures(web.page), { timeout: 10_000, message: `${route} after the shrink` }).toEqual([]);
      await expect.poll(overflow, { timeout: 10_000, message: `${route} after the shrink` }).toEqual([]);
      // The wallet list collapsed as it does when the app opens this narrow.
      expect((await sidebar.boundingBox())!.width).toBeLessThan(wide!.width);
      // Opened again by hand at this width: the views give way, still nothing cut.
      await web.page.getByRole('button', { name: 'Show the wallet list' }).click();
      await settled(web.page);
      await shoot(web.page, `resize-${route.replace(/[^a-z]+/g, '-')}-1024-list-open`);
      await expect.poll(() => cutFigures(web.page), { timeout: 10_000, message: `${route}, the list open at 1024` }).toEqual([]);
      await expect.poll(overflow, { timeout: 10_000, message: `${route}, the list open at 1024` }).toEqual([]);

      // Wide again: the list opens again.
      await web.page.setViewportSize({ width: 1440, height: 900 });
      await settled(web.page);
      await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(wide!.width);
      expect(await cutFigures(web.page)).toEqual([]);
    }
    expect(web.problems).toEqual([]);
  }, 120_000);
});

describe('the app is one window, not a page', () => {
  it('no view makes the page itself scroll: a wheel over the wallet list leaves the top bar where it is (Medium 5: the monthly pack did)', async () => {
    for (const [width, height] of [
      [1440, 900],
      [1024, 640],
    ] as const) {
      await web.page.setViewportSize({ width, height });
      for (const route of ['#/overview', '#/positions', '#/timeline', '#/reconcile', '#/risk', '#/pack', '#/book']) {
        await web.open(route);
        await settled(web.page);
        const page = await web.page.evaluate(() => ({ scroll: document.documentElement.scrollHeight, view: document.documentElement.clientHeight }));
        expect(page.scroll, `${route} at ${width}×${height}`).toBeLessThanOrEqual(page.view);
        await web.page.getByRole('navigation', { name: /wallets/i }).hover();
        await web.page.mouse.wheel(0, 2000);
        await web.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await web.page.evaluate(() => document.scrollingElement!.scrollTop), `${route} at ${width}×${height}`).toBe(0);
      }
    }
    expect(web.problems).toEqual([]);
  }, 120_000);
});
