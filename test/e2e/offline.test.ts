import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';

/**
 * Working offline: the app on a real (simulated) service in its own process; the
 * service goes away; everything cached stays usable, and the app says it is offline.
 */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const RENDERER = join(import.meta.dirname, '../../out/renderer');
const KEY = 'offline-test-key';
const ADDRESS = '0x00000000219ab540356cbb839cbe05303d7705fa';
let sim: ChildProcess;
let core: Core;
let shell: WebShell;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  sim = spawn(process.execPath, [CLI, 'sim', '--access-key', KEY, '--txns-per-wallet', '600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    sim.stdout!.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    sim.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
  });
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
  await core.call('wallets.add', { address: ADDRESS, chains: ['eth'], label: 'Cold storage' });
  const jobs = await core.call('sync.all', { wallet: ADDRESS });
  await new Promise<void>((resolve) => {
    const pending = new Set(jobs.map((j) => j.id));
    core.on('sync.progress', (j) => {
      if (j.state === 'done' || j.state === 'failed') pending.delete(j.id);
      if (!pending.size) resolve();
    });
  });
  shell = await startWebShell({ core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
});

afterAll(async () => {
  sim?.kill('SIGKILL');
  await browser?.close();
  await shell?.close();
  await core?.close();
});

describe('offline from the cache', () => {
  it('shows cached positions and transactions while the service is up', async () => {
    await page.goto(shell.url);
    await expect.poll(() => page.getByTestId('total-nav').textContent(), { timeout: 15_000 }).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await page.getByText('Demo data').count()).toBe(0);
  });

  it('keeps everything cached usable when the service is gone, and says it is offline', async () => {
    const total = await page.getByTestId('total-nav').textContent();
    sim.kill('SIGKILL');
    await new Promise((r) => sim.once('exit', r));
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => page.getByText('Offline — cached data').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Could not reach the service/);
    // Nothing cached was lost.
    expect(await page.getByTestId('total-nav').textContent()).toBe(total);
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await expect.poll(() => page.locator('[role=row].txn').count(), { timeout: 10_000 }).toBeGreaterThan(5);
    await page.locator('[role=row].txn').first().click();
    // Logs were never fetched: fetching them now fails with a clear message, the rest stays.
    await expect.poll(() => page.getByRole('dialog', { name: 'Transaction detail' }).textContent(), { timeout: 30_000 }).toMatch(/Could not reach the service/);
    await shoot(page, '10-offline-light');
    await page.keyboard.press('Escape');
    // An uncached date says it is not cached, and that we are offline.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByLabel('As of').fill('2024-03-01');
    await expect.poll(() => page.getByText(/You are offline/).isVisible()).toBe(true);
    // Actions that need the service are disabled offline, with the reason; the cache is not "0".
    const fetchDate = page.getByRole('button', { name: /^Fetch / });
    expect(await fetchDate.isDisabled()).toBe(true);
    expect(await fetchDate.getAttribute('title')).toMatch(/^Offline: the service could not be reached/);
    expect(await page.getByRole('button', { name: 'Fill history' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('total-nav').textContent()).toBe('—');
    expect(await page.getByText('not cached').count()).toBeGreaterThan(1);
    // "Sync now" stays: it is how to try the service again.
    expect(await page.getByRole('button', { name: 'Sync now' }).isDisabled()).toBe(false);
    await shoot(page, '10b-offline-uncached-light');
  });

  // Finding (issue 27): switching from a dead service to demo left the Offline badge, disabled
  // actions and the error banner, and a successful sync did not clear them.
  it('switching to demo mode forgets what was said of the dead service', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Use demo mode' }).click();
    await expect.poll(() => page.getByText('Demo data').first().isVisible(), { timeout: 15_000 }).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByText('Offline — cached data').count()).toBe(0);
    await expect.poll(() => page.getByText(/Could not reach the service/).count()).toBe(0);
    // The demo has no wallets of its own yet: add one; its sync goes, and nothing says offline.
    await core.call('wallets.add', { address: ADDRESS, chains: ['eth'] });
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => page.getByTestId('total-nav').textContent(), { timeout: 30_000 }).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await page.getByText('Offline — cached data').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Fill history' }).isDisabled()).toBe(false);
  });
});
