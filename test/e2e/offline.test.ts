import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { useWebSession } from '../support/web-session.ts';
import { waitForJobs } from '../support/jobs.ts';
import { useSimProcess } from '../support/cli-process.ts';

/**
 * Working offline: the app on a real (simulated) service in its own process; the
 * service goes away; everything cached stays usable, and the app says it is offline.
 */
const KEY = 'offline-test-key';
const ADDRESS = '0x00000000219ab540356cbb839cbe05303d7705fa';
const sim = useSimProcess(['--access-key', KEY, '--txns-per-wallet', '600']);
const web = useWebSession({
  viewport: { width: 1360, height: 860 },
  core: () => ({ baseUrl: sim.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } }),
  seed: async (core) => {
    await core.call('wallets.add', { address: ADDRESS, chains: ['eth'], label: 'Cold storage' });
    await waitForJobs(core, await core.call('sync.all', { wallet: ADDRESS }));
  },
});

describe('offline from the cache', () => {
  it('shows cached positions and transactions while the service is up', async () => {
    await web.page.goto(web.shell.url);
    await expect.poll(() => web.page.getByTestId('total-nav').textContent(), { timeout: 15_000 }).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await web.page.getByText('Demo data').count()).toBe(0);
  });

  it('keeps everything cached usable when the service is gone, and says it is offline', async () => {
    const total = await web.page.getByTestId('total-nav').textContent();
    await sim.stop();
    await web.page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => web.page.getByText('Offline — cached data').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => web.page.getByRole('alert').first().textContent()).toMatch(/Could not reach the service/);
    // Nothing cached was lost.
    expect(await web.page.getByTestId('total-nav').textContent()).toBe(total);
    await web.page.getByRole('tab', { name: 'Timeline' }).click();
    await expect.poll(() => web.page.locator('[role=row].txn').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    await web.page.locator('[role=row].txn').first().click();
    // Logs were never fetched: fetching them now fails with a clear message, the rest stays.
    await expect
      .poll(() => web.page.getByRole('dialog', { name: 'Transaction detail' }).textContent(), { timeout: 30_000 })
      .toMatch(/Could not reach the service/);
    await shoot(web.page, '10-offline-light');
    await web.page.keyboard.press('Escape');
    // An uncached date says it is not cached, and that we are offline.
    await web.page.getByRole('tab', { name: 'Overview' }).click();
    await web.page.getByLabel('As of').fill('2024-03-01');
    await expect.poll(() => web.page.getByText(/You are offline/).isVisible()).toBe(true);
    // Actions that need the service are disabled offline, with the reason; the cache is not "0".
    const fetchDate = web.page.getByRole('button', { name: /^Fetch / });
    expect(await fetchDate.isDisabled()).toBe(true);
    expect(await fetchDate.getAttribute('title')).toMatch(/^Offline: the service could not be reached/);
    expect(await web.page.getByRole('button', { name: 'Fill history' }).isDisabled()).toBe(true);
    expect(await web.page.getByTestId('total-nav').textContent()).toBe('—');
    expect(await web.page.getByText('not cached').count()).toBeGreaterThan(1);
    // "Sync now" stays: it is how to try the service again.
    expect(await web.page.getByRole('button', { name: 'Sync now' }).isDisabled()).toBe(false);
    await shoot(web.page, '10b-offline-uncached-light');
  });

  // Finding (issue 27): switching from a dead service to demo left the Offline badge, disabled
  // actions and the error banner, and a successful sync did not clear them.
  it('switching to demo mode forgets what was said of the dead service', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Use demo mode' }).click();
    await expect.poll(() => web.page.getByText('Demo data').first().isVisible(), { timeout: 15_000 }).toBe(true);
    await web.page.keyboard.press('Escape');
    await expect.poll(() => web.page.getByText('Offline — cached data').count()).toBe(0);
    await expect.poll(() => web.page.getByText(/Could not reach the service/).count()).toBe(0);
    // The demo has no wallets of its own yet: add one; its sync goes, and nothing says offline.
    await web.core.call('wallets.add', { address: ADDRESS, chains: ['eth'] });
    await web.page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => web.page.getByTestId('total-nav').textContent(), { timeout: 30_000 }).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await web.page.getByText('Offline — cached data').count()).toBe(0);
    expect(await web.page.getByRole('button', { name: 'Fill history' }).isDisabled()).toBe(false);
  });
});
