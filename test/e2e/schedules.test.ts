import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { cacheOf } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Scheduled sync in Settings, in Chromium: added, listed in words the user reads, run by the app, removed. */
const web = useWebSession({
  viewport: { width: 1024, height: 900 },
  core: { scheduleEveryMs: 200, demo: demoStarter({ txnsPerWallet: 200 }) },
  seed: (core) => core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' }),
  open: true,
});

describe('scheduled sync in Settings', () => {
  it('adds a weekly schedule for one wallet, lists it with its next run, and removes it', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    await poll(() => dialog.isVisible()).toBe(true);
    const section = dialog.getByRole('region', { name: 'Scheduled sync' });
    await poll(() => section.getByText(/No schedules/).isVisible()).toBe(true);
    await section.getByLabel('What').selectOption('transactions');
    await section.getByLabel('Wallets').selectOption(`wallet:${WALLET}`);
    await section.getByLabel('Every').selectOption('week');
    await section.getByLabel('Day').selectOption({ label: 'Monday' });
    await section.getByLabel(/^At/).fill('07:30');
    await section.getByRole('button', { name: 'Add schedule' }).click();
    await poll(() => section.getByRole('status').textContent()).toBe('Schedule added.');
    const item = section.getByRole('listitem');
    await poll(() => item.count()).toBe(1);
    const text = (await item.textContent())!.replace(/\s+/g, ' ');
    // In the app's locale (en-US here): 07:30 AM.
    expect(text).toMatch(/Transactions of Treasury, every Monday at 07:30 AM UTC/);
    expect(text).toMatch(/next [A-Z][a-z]{2} \d{1,2}, \d{4}, 07:30 AM UTC/);
    expect(text).toMatch(/not run yet/);
    await shoot(web.page, 'settings-schedules-1024');
    await web.page.emulateMedia({ colorScheme: 'dark' });
    await shoot(web.page, 'settings-schedules-1024-dark');
    await web.page.emulateMedia({ colorScheme: 'light' });
    await section.getByRole('button', { name: /^Remove the schedule: Transactions of Treasury/ }).click();
    await poll(() => section.getByText(/No schedules/).isVisible()).toBe(true);
    expect(await web.core.call('schedules.list', undefined)).toEqual([]);
  });

  it('a schedule the app ran shows how its last run ended', async () => {
    const saved = await web.core.call('schedules.save', { scope: { kind: 'all' }, what: 'both', cadence: { every: 'hour', minute: 0 } });
    (await cacheOf(web.core)).prepare("UPDATE schedules SET created_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").run(saved.id);
    await poll(async () => (await web.core.call('schedules.list', undefined)).find((x) => x.id === saved.id)?.lastRun?.state).toBe('ok');
    await web.page.keyboard.press('Escape');
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const section = web.page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Scheduled sync' });
    await poll(async () => ((await section.getByRole('listitem').textContent()) ?? '').replace(/\s+/g, ' ')).toMatch(
      /Positions and transactions of all wallets, every hour at :00.*last complete/,
    );
  });

  it('had no page errors', () => {
    expect(web.problems).toEqual([]);
  });
});
