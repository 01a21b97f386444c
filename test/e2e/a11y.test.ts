import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';
import { axeFindings, describeFindings } from './axe.ts';

/**
 * Accessibility as a test: axe-core on every main view and dialog, light and dark, in
 * Debian's Chromium against the web shell. Any serious or critical violation fails.
 * Then every main view at the three window sizes, light and dark, as screenshots.
 */
/** Waits for a state; generous, as a loaded two-core machine can be slow (no fixed sleeps anywhere). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const RENDERER = join(import.meta.dirname, '../../out/renderer');
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
let core: Core;
let shell: WebShell;
let browser: Browser;
let page: Page;
let problems: string[];

async function syncAll(wallet: string): Promise<void> {
  const jobs = await core.call('sync.all', { wallet });
  const pending = new Set(jobs.map((j) => j.id));
  await new Promise<void>((resolve) => {
    const off = core.on('sync.progress', (j) => {
      if (j.state === 'done' || j.state === 'failed') pending.delete(j.id);
      if (!pending.size) {
        off();
        resolve();
      }
    });
  });
}

/** The two watched wallets, synced (each describe may run alone with -t). */
async function ensureWallets(): Promise<void> {
  if ((await core.call('wallets.list', {})).length) return;
  await core.call('wallets.add', { address: A, chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops'] });
  await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold storage' });
  await Promise.all([syncAll(A), syncAll(B)]);
}

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: { txnsPerWallet: 400 } });
  shell = await startWebShell({ core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  problems = watchProblems(page);
});

// A failed step must not leave a modal open over the next test's page.
afterEach(async () => {
  for (let i = 0; i < 3 && (await page.locator('dialog[open]').count()); i++) await page.keyboard.press('Escape');
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await core?.close();
});

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
}

/** axe in light and dark; returns the findings of both. */
async function scan(where: string): Promise<string[]> {
  const out: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(theme);
    out.push(...describeFindings(`${where} (${theme})`, await axeFindings(page)));
  }
  await setTheme('light');
  return out;
}

const all: string[] = [];
async function expectAccessible(where: string): Promise<void> {
  const findings = await scan(where);
  all.push(...findings);
  expect(findings).toEqual([]);
}

describe('axe-core finds no serious or critical violation, light and dark', { timeout: 90_000 }, () => {
  it('first run (no wallet yet)', async () => {
    await page.goto(shell.url);
    await expect.poll(() => page.getByRole('heading', { name: 'Watch a wallet to begin' }).isVisible(), { timeout: 15_000 }).toBe(true);
    // The next action in the main area, and wallets to try in demo mode.
    expect(
      await page
        .getByRole('main')
        .getByRole('button', { name: /^Add wallet/ })
        .isVisible(),
    ).toBe(true);
    expect(await page.getByRole('button', { name: /^Add “Demo/ }).count()).toBe(2);
    await expectAccessible('first run');
  });

  it('the Add wallet dialog, with an inline error', async () => {
    await page.getByRole('button', { name: 'Add wallet' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add wallet' });
    await dialog.getByLabel('Address').fill('0x12');
    await dialog.getByRole('button', { name: 'Add wallet' }).click();
    await poll(() => dialog.getByRole('alert').count()).toBeGreaterThan(0);
    await expectAccessible('add wallet dialog');
    await page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
  });

  it('the Settings dialog', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(true);
    await expectAccessible('settings dialog');
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
  });

  it('the Overview of one wallet', async () => {
    await ensureWallets();
    await page.goto(`${shell.url}#/overview?wallet=${A}`);
    await expect.poll(() => page.getByTestId('total-nav').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await expectAccessible('overview');
  });

  it('the Overview of all wallets, with exposure by token', async () => {
    await page.getByRole('link', { name: /All wallets/ }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Exposure by token' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible('overview, all wallets');
  });

  it('an uncached date', async () => {
    await page.getByLabel('As of', { exact: true }).fill('2025-06-01');
    await poll(() =>
      page
        .getByText(/is not cached/)
        .first()
        .isVisible(),
    ).toBe(true);
    await expectAccessible('uncached date');
    await page.goBack();
  });

  it('Positions, by position with a row expanded', async () => {
    await page.getByRole('link', { name: /Treasury/ }).click();
    await page.getByRole('tab', { name: 'Positions' }).click();
    await expect.poll(() => page.getByRole('button', { name: /Underlying tokens of/ }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page
      .getByRole('button', { name: /Underlying tokens of/ })
      .first()
      .click();
    await poll(() => page.locator('table.inner').count()).toBeGreaterThan(0);
    await expectAccessible('positions');
  });

  it('the Export menu open', async () => {
    await page.getByRole('button', { name: /^Export/ }).click();
    await poll(() => page.getByRole('menu', { name: 'Export' }).isVisible()).toBe(true);
    await expectAccessible('export menu');
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('menu').count()).toBe(0);
  });

  it('Positions by underlying, and liquidity', async () => {
    await page.getByRole('tab', { name: 'By underlying' }).click();
    await poll(() => page.getByRole('columnheader', { name: /Token/ }).first().isVisible()).toBe(true);
    await expectAccessible('by underlying');
    await page.getByRole('tab', { name: 'Liquidity' }).click();
    await poll(() => page.getByRole('columnheader', { name: /Ownership/ }).isVisible()).toBe(true);
    await expectAccessible('liquidity');
    await page.getByRole('tab', { name: 'By position' }).click();
  });

  it('comparing two dates', async () => {
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByLabel('As of', { exact: true }).fill('2025-06-01');
    await page.getByRole('button', { name: /^Fetch / }).click();
    await expect.poll(() => page.getByText(/is not cached/).count(), { timeout: 20_000 }).toBe(0);
    await page.getByRole('tab', { name: 'Positions' }).click();
    await page.getByRole('button', { name: 'Compare with date…' }).click();
    await expect.poll(() => page.getByTestId('diff-total').isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible('compare');
    await page.getByRole('button', { name: 'Stop comparing' }).click();
  });

  it('the Timeline', async () => {
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await expect.poll(() => page.locator('[role=row].txn').count(), { timeout: 15_000 }).toBeGreaterThan(5);
    await expectAccessible('timeline');
  });

  it('a transaction’s detail with its logs', async () => {
    await page.locator('[role=row].txn').first().click();
    const drawer = page.getByRole('dialog', { name: 'Transaction detail' });
    await expect.poll(() => drawer.getByText(/Event logs \(\d+\)/).isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible('transaction detail');
    await page.keyboard.press('Escape');
    await poll(() => drawer.count()).toBe(0);
  });

  it('a search that matches nothing', async () => {
    await page.getByLabel('Search by hash or address').fill('0xffffffffffffff');
    await page.getByRole('button', { name: 'Search' }).click();
    await poll(() => page.getByText(/No transaction matches/).isVisible()).toBe(true);
    await expectAccessible('empty search');
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  it('the Edit wallet dialog', async () => {
    await page.getByRole('button', { name: 'Edit Treasury' }).click();
    await poll(() => page.getByRole('dialog', { name: 'Edit wallet' }).isVisible()).toBe(true);
    await expectAccessible('edit wallet dialog');
    await page.keyboard.press('Escape');
  });

  it('the keyboard shortcuts dialog', async () => {
    await page.locator('body').focus();
    await page.keyboard.press('?');
    await poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible()).toBe(true);
    await expectAccessible('shortcuts dialog');
    await page.keyboard.press('Escape');
  });

  it('lists every finding in one place (empty) and had no page errors', () => {
    expect(all).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('every main view at 1024×640, 1440×900 and 2560×1440, light and dark', { timeout: 120_000 }, () => {
  const sizes = [
    [1024, 640],
    [1440, 900],
    [2560, 1440],
  ] as const;
  const views: Array<[string, string, () => Promise<unknown>]> = [
    ['overview', `#/overview?wallet=${A}`, () => expect.poll(() => page.getByTestId('total-nav').textContent(), { timeout: 15_000 }).toMatch(/\d/)],
    [
      'overview-all',
      '#/overview',
      () => expect.poll(() => page.getByRole('region', { name: 'Exposure by token' }).isVisible(), { timeout: 15_000 }).toBe(true),
    ],
    [
      'positions',
      `#/positions?wallet=${A}`,
      () => expect.poll(() => page.getByRole('button', { name: /Underlying tokens of/ }).count(), { timeout: 15_000 }).toBeGreaterThan(0),
    ],
    ['timeline', `#/timeline?wallet=${A}`, () => expect.poll(() => page.locator('[role=row].txn').count(), { timeout: 15_000 }).toBeGreaterThan(5)],
  ];
  beforeAll(ensureWallets);
  for (const [w, h] of sizes) {
    it(`${w}×${h}: the header stays on one line, tables scroll inside their box, key figures stay visible`, async () => {
      await page.setViewportSize({ width: w, height: h });
      for (const [name, hash, ready] of views) {
        await page.goto(`${shell.url}${hash}`);
        await ready();
        // The top bar never wraps: one row tall.
        const bar = await page.locator('.topbar').boundingBox();
        expect(bar!.height, `${name} top bar at ${w}×${h}`).toBeLessThan(64);
        // Nothing makes the page itself scroll sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        if (name === 'positions') {
          // Value and Health are shown, inside the viewport.
          for (const col of ['Value', 'Health']) {
            const box = await page.getByRole('columnheader', { name: new RegExp(`^${col}`) }).boundingBox();
            expect(box, `${col} column at ${w}×${h}`).not.toBeNull();
            expect(box!.x + box!.width).toBeLessThanOrEqual(w);
          }
        }
        if (name === 'timeline') {
          await page.locator('[role=row].txn').first().click();
          await poll(() => page.getByRole('dialog', { name: 'Transaction detail' }).isVisible()).toBe(true);
          // The selected row's amounts stay visible beside the detail.
          const what = await page.locator('[role=row][aria-selected=true] .what').boundingBox();
          const drawer = await page.getByRole('dialog', { name: 'Transaction detail' }).boundingBox();
          expect(what!.x + 40, `amounts beside the detail at ${w}×${h}`).toBeLessThan(drawer!.x);
        }
        for (const theme of ['light', 'dark'] as const) {
          await setTheme(theme);
          await shoot(page, `size-${w}x${h}-${name}-${theme}`);
        }
        await setTheme('light');
        if (name === 'timeline') await page.keyboard.press('Escape');
      }
    });
  }
});

describe('one locale for everything', { timeout: 60_000 }, () => {
  beforeAll(ensureWallets);
  afterAll(async () => {
    await core.call('settings.update', { locale: null });
  });

  it('with de-DE: numbers, currencies, dates, relative times and date fields follow it, with no double stop', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await core.call('settings.update', { locale: 'de-DE' });
    await page.goto(`${shell.url}#/overview?wallet=${A}`);
    await poll(() => page.getByTestId('total-nav').textContent()).toMatch(/^[\d.]+,\d\d\s\$$/);
    expect(await page.getByLabel('As of', { exact: true }).inputValue()).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    expect(await page.getByLabel('As of', { exact: true }).getAttribute('placeholder')).toBe('DD.MM.YYYY');
    await poll(() => page.getByText('Werte in USD').count()).toBe(0); // the UI's words stay English
    const body = await page.locator('#app').innerText();
    expect(body).toMatch(/Werte|Values in USD, as of \d+\. \w+\.? \d{4}/);
    expect(body).not.toMatch(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}/);
    expect(body).toMatch(/Synced (vor \d+ Min\.|in dieser Minute)/);
    expect(body).not.toMatch(/\.\./);
    await shoot(page, 'locale-de-overview');
    // A date typed in the locale's form is applied.
    await page.getByLabel('As of', { exact: true }).fill('15.05.2025');
    await poll(() => page.url()).toContain('date=2025-05-15');
    await page.goto(`${shell.url}#/timeline?wallet=${A}`);
    await poll(() => page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const timeline = await page.locator('#app').innerText();
    expect(timeline).not.toMatch(/\.\./);
    expect(timeline).toMatch(/(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. /);
    expect(await page.getByLabel('From date').getAttribute('placeholder')).toBe('DD.MM.YYYY');
    await shoot(page, 'locale-de-timeline');
  });
});
