import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { SIM_NOW } from '../support/sim.ts';
import { useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * In Chromium, against a live service whose snapshot of today moves on every request (issue 30,
 * item 3): the three views cannot be read as one moment, and Overview and Positions say so; and
 * Settings takes the recent window's width for the service, refusing one it cannot use.
 */
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const TODAY = new Date(SIM_NOW).toISOString().slice(0, 10);
const web = useWebSession({
  viewport: { width: 1280, height: 820 },
  core: { demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW, live: { modes: ['today'], today: { at: 0, every: 1 } } }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: ADDRESS, chains: ['eth'], label: 'Treasury' });
    await core.call('sync.positions', { wallet: ADDRESS });
  },
});

describe('views of today that are not of one moment, in Chromium', () => {
  it('Overview and Positions say the three views are not of one moment, and how they differ', async () => {
    await web.page.goto(web.shell.url);
    await web.page.evaluate((d) => (location.hash = `#/overview?date=${d}`), TODAY);
    await expect
      .poll(() => web.page.getByTestId('data-quality').textContent(), { timeout: 10_000 })
      .toContain(
        "the three views of 1 wallet chain (positions, by token, liquidity) are not of one moment: the service's snapshot changed between the requests.",
      );
    await shoot(web.page, 'live-moment-overview');
    await web.page.evaluate((d) => (location.hash = `#/positions?date=${d}`), TODAY);
    await expect
      .poll(() => web.page.getByTestId('data-quality').textContent(), { timeout: 10_000 })
      .toMatch(/are not of one moment: the positions view lists \d+ positions, the by-token view \d+ and the liquidity view \d+/);
    await shoot(web.page, 'live-moment-positions');
  });

  it('Settings takes the recent window in hours for this service, or blank for automatic; a bad one is refused before saving', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const field = web.page.getByLabel('Recent window re-read (hours)');
    await expect.poll(() => field.inputValue()).toBe('');
    await field.fill('0');
    await expect.poll(() => web.page.getByRole('alert').filter({ hasText: 'whole number of hours' }).count()).toBe(1);
    expect(await web.page.getByRole('button', { name: 'Save preferences' }).isDisabled()).toBe(true);
    await field.fill('48');
    await web.page.getByRole('button', { name: 'Save preferences' }).click();
    await expect.poll(async () => (await web.core.call('settings.get', undefined)).recentWindowHours).toBe(48);
    await field.scrollIntoViewIfNeeded();
    await shoot(web.page, 'live-moment-settings');
    expect(web.problems).toEqual([]);
  });
});
