import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { poll, settled, COLD, TREASURY, useTreasurySession } from '../support/web-session.ts';
import { cutFigures as cutOn } from '../support/figures.ts';

/**
 * Every figure readable whole where a treasurer works: the all-wallets scope, two wallets on
 * three wallet chains, at 1440×900 and 1024×640. A figure is a number cell, a card's value or a
 * total; it is cut when its text is wider than its cell, or when it lies outside the part of
 * its scrolling table that shows (the issue found "$673,896." with Health off-screen at
 * 1440, "$673,8" at 1024). Columns give way by measured fit (lib/column-priority.ts).
 */
const A = TREASURY;
const B = COLD;

const web = useTreasurySession({ txnsPerWallet: 200 });

const cutFigures = () => cutOn(web.page);

describe('every figure reads whole in the all-wallets scope', () => {
  for (const [width, height] of [
    [1440, 900],
    [1024, 640],
  ] as const)
    it(`at ${width}×${height}: Overview, Positions (three views), Risk, Reconcile, Monthly pack, Timeline; all wallets, one wallet and a group`, async () => {
      await web.page.setViewportSize({ width, height });
      const group =
        (await web.core.call('groups.list', undefined)).find((g) => g.name === 'Both') ??
        (await web.core.call('groups.save', { name: 'Both', wallets: [A, B] }));
      const views = ['#/overview', '#/positions', '#/positions?view=underlying', '#/positions?view=liquidity', '#/risk', '#/reconcile', '#/pack', '#/timeline'];
      const scopes = ['', `wallet=${A}`, `group=${group.id}`];
      for (const route of scopes.flatMap((scope) => views.map((v) => (scope ? `${v}${v.includes('?') ? '&' : '?'}${scope}` : v)))) {
        await web.open(route);
        // The view of this route has loaded: a route change within the page is a hash change, so the
        // old view shows until the app has read the new hash and rendered (two frames), and the new
        // view until its data came (its skeletons are aria-busy).
        await poll(() => web.page.evaluate(() => location.hash)).toBe(route);
        await settled(web.page);
        await poll(() => web.page.locator('main td.num, main .kpi strong, main [role=gridcell].num').count()).toBeGreaterThan(0);
        // The tables settle (column priority runs on the next frames); then nothing may be cut. Polled,
        // not slept: it passes the moment the page is settled and fails only if a figure stays cut.
        await expect.poll(cutFigures, { timeout: 10_000, message: `${route} at ${width}×${height}` }).toEqual([]);
        if (!route.includes('=0x') && !route.includes('group=')) await shoot(web.page, `figures-whole-${route.replace(/[^a-z]+/g, '-')}-${width}`);
      }
      expect(web.problems).toEqual([]);
      // Twenty-four routes, each loaded and measured: more than the 30 s default on a loaded machine.
    }, 180_000);

  it('in a right-to-left locale (ar-EG): one notation, Arabic-Indic digits everywhere, and still every figure whole', async () => {
    await web.core.call('settings.update', { locale: 'ar-EG' });
    try {
      await web.page.setViewportSize({ width: 1440, height: 900 });
      for (const route of ['#/overview', '#/positions', '#/risk']) {
        await web.open(route);
        await poll(() => web.page.locator('main td.num, main .kpi strong').count()).toBeGreaterThan(0);
        await web.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        expect(await cutFigures(), `${route} in ar-EG`).toEqual([]);
        // Every figure in one notation: no Latin digit among the figures' digits.
        const figures = await web.page.locator('main td.num, main .kpi strong').allTextContents();
        const withDigits = figures.filter((t) => /[0-9\u0660-\u0669]/.test(t));
        expect(withDigits.length, route).toBeGreaterThan(0);
        expect(
          withDigits.filter((t) => /[0-9]/.test(t)),
          route,
        ).toEqual([]);
        await shoot(web.page, `figures-whole-ar-EG-${route.replace(/[^a-z]+/g, '-')}`);
      }
      expect(web.problems).toEqual([]);
    } finally {
      await web.core.call('settings.update', { locale: null });
    }
  });
});
