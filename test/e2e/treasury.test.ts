import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { axeFindings, describeFindings } from './axe.ts';

/** The Reconcile and Risk views in Chromium, light and dark, against the demo service. */
const RENDERER = join(import.meta.dirname, '../../out/renderer');
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const COLD = '0x00000000219ab540356cbb839cbe05303d7705fa';
let core: Core;
let shell: WebShell;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: { txnsPerWallet: 2000, now: () => SIM_NOW } });
  await core.call('wallets.add', { address: ADDRESS, chains: ['eth', 'arb'], label: 'Treasury' });
  // A second wallet that holds a vote-escrow lock, for the unlock ladder.
  await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold' });
  await waitForJobs(core, [
    await core.call('sync.backfill', { wallet: ADDRESS, from: '2025-01-31', to: '2025-12-31', every: 'month' }),
    await core.call('sync.transactions', { wallet: ADDRESS }),
    await core.call('sync.positions', { wallet: COLD, date: '2025-12-31' }),
  ]);
  shell = await startWebShell({ core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  problems = watchProblems(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await core?.close();
});

/** A screenshot in each theme, and axe-core in each: no serious or critical violation. */
async function bothThemes(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(scheme);
    await shoot(page, `${name}-${scheme}`);
    expect(describeFindings(`${name} (${scheme})`, await axeFindings(page))).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const open = async (hash: string) => {
  await page.goto(shell.url);
  await page.evaluate((h) => (location.hash = h), hash);
};

describe('treasury views', () => {
  it('Reconcile: a complete roll-forward, rows that reconcile exactly, a token traced to its transactions', async () => {
    await open(`#/reconcile?wallet=${ADDRESS}&date=2025-12-31&from=2025-01-31`);
    await expect
      .poll(() => page.getByTestId('reconcile-verdict').textContent(), { timeout: 15_000 })
      .toMatch(/Complete\. \d+ tokens: \d+ with flows reconcile exactly/);
    const r = await core.call('reconcile.get', { wallet: ADDRESS, from: '2025-01-31', to: '2025-12-31' });
    const rows = page.locator('table[aria-label="Roll-forward by token"] > tbody > tr');
    expect(await rows.count()).toBe(r.rows.length);
    expect(await page.locator('tbody .badge', { hasText: 'reconciled' }).count()).toBe(r.rows.filter((x) => x.status === 'reconciled').length);
    await bothThemes('reconcile');
    const unexplained = r.rows.find((x) => x.status === 'unexplained' && x.chain === 'eth')!;
    await rows.filter({ hasText: unexplained.token_name! }).filter({ hasText: 'eth' }).first().click();
    const trace = page.locator(`table[aria-label="Transactions that moved ${unexplained.token_symbol}"] tbody tr`);
    await expect
      .poll(() => trace.count(), { timeout: 10_000 })
      .toBe(
        Math.min(
          200,
          (await core.call('reconcile.trace', { wallet: ADDRESS, chain: 'eth', tokenCid: unexplained.token_cid!, from: '2025-01-31', to: '2025-12-31' }))
            .length,
        ),
      );
    await bothThemes('reconcile-trace');
  });

  it('Reconcile: says plainly when a date is not cached, and offers to fetch it', async () => {
    await open(`#/reconcile?wallet=${ADDRESS}&date=2025-12-31&from=2025-02-01`);
    await expect.poll(() => page.getByTestId('reconcile-verdict').textContent(), { timeout: 15_000 }).toContain('positions at 2025-02-01 are not cached');
    await expect.poll(() => page.getByRole('button', { name: /^Fetch/ }).count()).toBe(1);
    await bothThemes('reconcile-incomplete');
  });

  // Finding (issue 27): picking Reconcile's closing date silently moved the as-of date every
  // other view shows. The period is its own.
  it('Reconcile: picking the closing date moves the period, not the app’s as-of date', async () => {
    await open(`#/reconcile?wallet=${ADDRESS}&date=2025-12-31&from=2025-01-31`);
    await expect.poll(() => page.getByTestId('reconcile-verdict').textContent(), { timeout: 15_000 }).toMatch(/Complete\./);
    const asOf = await page.getByLabel('As of').inputValue();
    await page.locator('#reconcile-to').fill('2025-11-30');
    await page.locator('#reconcile-to').press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/to=2025-11-30/);
    expect(await page.getByLabel('As of').inputValue()).toBe(asOf);
    expect(await page.evaluate(() => location.hash)).toMatch(/date=2025-12-31/);
    await page.getByRole('tab', { name: 'Overview' }).click();
    expect(await page.getByLabel('As of').inputValue()).toBe(asOf);
  });

  it('Risk: headroom by collateral with a stress control, health history, unlock ladder', async () => {
    await open(`#/risk?wallet=${ADDRESS}&date=2025-12-31`);
    const summary = page.getByTestId('stress-summary').first();
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toMatch(/A 25% fall in \S+ reaches/);
    // At a 90% fall every lending position crosses.
    await page.locator('#stress').fill('90');
    await expect.poll(() => summary.textContent()).toMatch(/A 90% fall in \S+ reaches the threshold of \d+ loans? worth \$/);
    await page.locator('#stress').fill('30');
    await page.locator('.group tbody tr').first().click();
    await expect.poll(() => page.getByTestId('near-misses').textContent(), { timeout: 10_000 }).toMatch(/\d+ cached dates; /);
    await page.waitForTimeout(300);
    await bothThemes('risk');
    await page.locator('#health-title').scrollIntoViewIfNeeded();
    await bothThemes('risk-health');
    await page.locator('#unlock-title').scrollIntoViewIfNeeded();
    await bothThemes('risk-unlocks');
    // All wallets: the ladder lists the cold wallet's lock, as the core reports it.
    await open('#/risk?date=2025-12-31');
    const ladderRows = page.locator('table[aria-label="Upcoming unlocks"] tbody tr');
    const expected = (await core.call('risk.unlocks', { date: '2025-12-31' })).unlocks;
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => ladderRows.count(), { timeout: 10_000 }).toBe(expected.length);
    expect(await ladderRows.first().textContent()).toContain('Cold');
    await page.locator('#unlock-title').scrollIntoViewIfNeeded();
    await bothThemes('risk-unlocks-all');
    expect(problems).toEqual([]);
  });
});
