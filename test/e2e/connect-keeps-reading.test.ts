import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { KEY, SIM_NOW, useSimulator } from '../support/sim.ts';
import { poll, settled, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Connecting to a service from the demo (issue 39, Medium 7): the issue found the demo's as-of
 * date and group kept ("—", "Nothing at this date", "That wallet group no longer exists") and the
 * locale and theme reset. The view starts from the new cache; how the user reads the app goes
 * with them.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const service = useSimulator();

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 20, now: () => SIM_NOW }), now: () => SIM_NOW },
  clock: SIM_NOW,
  timeout: 120_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Demo treasury' });
    await core.call('groups.save', { name: 'Demo group', wallets: [A] });
    await core.call('settings.update', { locale: 'de-DE', theme: 'dark' });
  },
});

describe('connecting from the demo', () => {
  it('starts the view from the new cache, and keeps the language and the theme', async () => {
    const [group] = await web.core.call('groups.list', undefined);
    await web.open(`#/overview?group=${group!.id}&date=2026-10-31`);
    await settled(web.page);
    await poll(() => web.page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');

    await web.core.call('app.connect', { baseUrl: service.sim.url, key: KEY, sessionOnly: true });
    // The page hears of the new cache and starts over: no group, no date of the demo's.
    await poll(() => web.page.evaluate(() => location.hash)).not.toContain('group=');
    expect(await web.page.evaluate(() => location.hash)).not.toContain('date=');
    await settled(web.page);
    expect(await web.page.getByText('That wallet group no longer exists').count()).toBe(0);
    expect(await web.core.call('settings.get', undefined)).toMatchObject({ locale: 'de-DE', theme: 'dark' });
    await poll(() => web.page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    // Dates still in the locale's form (de-DE), today's as the new cache has none.
    await poll(() => web.page.locator('#as-of-date').inputValue()).toBe('20.11.2026');
    expect(await web.page.locator('.badge', { hasText: 'Demo data' }).count()).toBe(0);
    await shoot(web.page, 'connect-from-demo');
    expect(web.problems).toEqual([]);
  });
});
