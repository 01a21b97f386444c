import { describe, expect, it } from 'vitest';
import { bothThemes } from './axe.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { poll, useWebSession } from '../support/web-session.ts';

/**
 * The as-of picker is a calendar that marks the cached days (issue 27): opened from the top
 * bar, it shows the month of the date in view with a dot and "cached" on each cached day, moves
 * with the keyboard (arrows, Page Up/Down, Home/End), picks with Enter and closes with Escape,
 * the focus back on its button.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const DATES = ['2025-11-28', '2025-12-02', '2025-12-31'];

const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { demo: demoStarter({ txnsPerWallet: 50 }) },
  timeout: 120_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Treasury' });
    const jobs = [];
    for (const date of DATES) jobs.push(await core.call('sync.positions', { wallet: A, date }));
    await waitForJobs(core, jobs);
  },
});

describe('the as-of calendar', () => {
  it('marks the cached days, moves with the keyboard, picks with Enter and closes with Escape', async () => {
    const { page } = web;
    await web.open('#/overview?date=2025-12-31');
    const toggle = page.getByRole('button', { name: /cached: open a calendar/ }).first();
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'As of' });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('grid').getAttribute('aria-label')).toBe('December 2025');
    // The two cached days of December are marked; the focus is on the date in view.
    expect(await dialog.locator('button.cached').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-date')))).toEqual(['2025-12-02', '2025-12-31']);
    expect(await dialog.getByRole('button', { name: 'Dec 2, 2025, cached' }).count()).toBe(1);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-date'))).toBe('2025-12-31');
    await bothThemes(page, 'calendar-open');

    // Page Up: November, where the other cached day is; arrows move by a day and a week.
    await page.keyboard.press('PageUp');
    await poll(() => dialog.getByRole('grid').getAttribute('aria-label')).toBe('November 2025');
    await page.keyboard.press('ArrowUp');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-date'))).toBe('2025-11-23');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowRight');
    const now = await page.evaluate(() => document.activeElement?.getAttribute('data-date'));
    expect(now! > '2025-11-23').toBe(true);
    // "‹ Cached" jumps to the cached day before the one in focus, Enter picks it.
    await dialog.getByRole('button', { name: '‹ Cached' }).click();
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-date'))).toBe('2025-11-28');
    await page.keyboard.press('Enter');
    await poll(() => page.evaluate(() => location.hash)).toContain('date=2025-11-28');
    await poll(() => dialog.count()).toBe(0);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe('dialog');

    // Escape closes without picking, the focus back on the button.
    await toggle.click();
    await poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => location.hash)).toContain('date=2025-11-28');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe('dialog');
    expect(web.problems).toEqual([]);
  });
});
