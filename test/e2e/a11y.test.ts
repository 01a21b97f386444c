import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { axeFindings, describeFindings } from './axe.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';

/**
 * Accessibility as a test: axe-core on every main view and dialog, light and dark, in
 * Debian's Chromium against the web shell. Any serious or critical violation fails.
 * Then every main view at the three window sizes, light and dark, as screenshots.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
// The service's and the sync's today pinned: the date in view ("as of 20. Nov. 2026") is the same
// whatever the machine's date (in March, "März" is not a \w word). The page keeps the machine's
// clock, as the times the core records do ("Synced in dieser Minute").
const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { demo: demoStarter({ txnsPerWallet: 400, now: () => SIM_NOW }), now: () => SIM_NOW },
});

/** The two watched wallets, synced (each describe may run alone with -t). */
async function ensureWallets(): Promise<void> {
  const { core } = web;
  if ((await core.call('wallets.list', {})).length) return;
  await core.call('wallets.add', { address: A, chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops'] });
  await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold storage' });
  await waitForJobs(core, [...(await core.call('sync.all', { wallet: A })), ...(await core.call('sync.all', { wallet: B }))]);
}

// A failed step must not leave a modal open over the next test's page.
afterEach(async () => {
  for (let i = 0; i < 3 && (await web.page.locator('dialog[open]').count()); i++) await web.page.keyboard.press('Escape');
});

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await web.page.emulateMedia({ colorScheme: theme });
  await poll(() => web.page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
}

/** axe in light and dark; returns the findings of both. */
async function scan(where: string): Promise<string[]> {
  const out: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(theme);
    out.push(...describeFindings(`${where} (${theme})`, await axeFindings(web.page)));
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
    await web.page.goto(web.shell.url);
    await expect.poll(() => web.page.getByRole('heading', { name: 'Watch a wallet to begin' }).isVisible(), { timeout: 15_000 }).toBe(true);
    // The next action in the main area, and wallets to try in demo mode.
    expect(
      await web.page
        .getByRole('main')
        .getByRole('button', { name: /^Add wallet/ })
        .isVisible(),
    ).toBe(true);
    expect(await web.page.getByRole('button', { name: /^Add “Demo/ }).count()).toBe(2);
    await expectAccessible('first run');
  });

  it('the Add wallet dialog, with an inline error', async () => {
    await web.page.getByRole('button', { name: 'Add wallet' }).first().click();
    const dialog = web.page.getByRole('dialog', { name: 'Add wallet' });
    await dialog.getByLabel('Address').fill('0x12');
    await dialog.getByRole('button', { name: 'Add wallet' }).click();
    await poll(() => dialog.getByRole('alert').count()).toBeGreaterThan(0);
    await expectAccessible('add wallet dialog');
    await web.page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
  });

  it('the Settings dialog', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    await poll(() => web.page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(true);
    await expectAccessible('settings dialog');
    await web.page.keyboard.press('Escape');
    await poll(() => web.page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
  });

  it('the Overview of one wallet', async () => {
    await ensureWallets();
    await web.page.goto(`${web.shell.url}#/overview?wallet=${A}`);
    await expect.poll(() => web.page.getByTestId('total-nav').textContent(), { timeout: 15_000 }).toMatch(/\d/);
    await expectAccessible('overview');
  });

  it('the Overview of all wallets, with exposure by token', async () => {
    await web.page.getByRole('link', { name: /All wallets/ }).click();
    await expect.poll(() => web.page.getByRole('region', { name: 'Exposure by token' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible('overview, all wallets');
  });

  it('an uncached date', async () => {
    await web.page.getByLabel('As of', { exact: true }).fill('2025-06-01');
    await poll(() =>
      web.page
        .getByText(/is not cached/)
        .first()
        .isVisible(),
    ).toBe(true);
    await expectAccessible('uncached date');
    await web.page.goBack();
  });

  it('Positions, by position with a row expanded', async () => {
    await web.page.getByRole('link', { name: /Treasury/ }).click();
    await web.page.getByRole('tab', { name: 'Positions' }).click();
    await expect.poll(() => web.page.getByRole('button', { name: /Underlying tokens of/ }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await web.page
      .getByRole('button', { name: /Underlying tokens of/ })
      .first()
      .click();
    await poll(() => web.page.locator('table.inner').count()).toBeGreaterThan(0);
    await expectAccessible('positions');
  });

  it('the Export menu open', async () => {
    await web.page.getByRole('button', { name: /^Export/ }).click();
    await poll(() => web.page.getByRole('menu', { name: 'Export' }).isVisible()).toBe(true);
    await expectAccessible('export menu');
    await web.page.keyboard.press('Escape');
    await poll(() => web.page.getByRole('menu').count()).toBe(0);
  });

  it('Positions by underlying, and liquidity', async () => {
    await web.page.getByRole('tab', { name: 'By token' }).click();
    await poll(() => web.page.getByRole('columnheader', { name: /Token/ }).first().isVisible()).toBe(true);
    await expectAccessible('by underlying');
    await web.page.getByRole('tab', { name: 'Liquidity' }).click();
    await poll(() => web.page.getByRole('columnheader', { name: /Ownership/ }).isVisible()).toBe(true);
    await expectAccessible('liquidity');
    await web.page.getByRole('tab', { name: 'By position' }).click();
  });

  it('comparing two dates', async () => {
    await web.page.getByRole('tab', { name: 'Overview' }).click();
    await web.page.getByLabel('As of', { exact: true }).fill('2025-06-01');
    await web.page.getByRole('button', { name: /^Fetch / }).click();
    await expect.poll(() => web.page.getByText(/is not cached/).count(), { timeout: 20_000 }).toBe(0);
    await web.page.getByRole('tab', { name: 'Positions' }).click();
    await web.page.getByRole('button', { name: 'Compare with date…' }).click();
    await expect.poll(() => web.page.getByTestId('diff-total').isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible('compare');
    await web.page.getByRole('button', { name: 'Stop comparing' }).click();
  });

  it('the Timeline', async () => {
    await web.page.getByRole('tab', { name: 'Timeline' }).click();
    await expect.poll(() => web.page.locator('[role=row].txn').count(), { timeout: 15_000 }).toBeGreaterThan(5);
    await expectAccessible('timeline');
  });

  it('a transaction’s detail with its logs', async () => {
    await web.page.locator('[role=row].txn').first().click();
    const drawer = web.page.getByRole('dialog', { name: 'Transaction detail' });
    await expect.poll(() => drawer.getByText(/Event logs \(\d+\)/).isVisible(), { timeout: 10_000 }).toBe(true);
    await expectAccessible('transaction detail');
    await web.page.keyboard.press('Escape');
    await poll(() => drawer.count()).toBe(0);
  });

  it('a search that matches nothing', async () => {
    await web.page.getByLabel('Search by hash or address').fill('0xffffffffffffff');
    await web.page.getByRole('button', { name: 'Search' }).click();
    await poll(() => web.page.getByText(/No transaction matches/).isVisible()).toBe(true);
    await expectAccessible('empty search');
    await web.page.getByRole('button', { name: 'Clear filters' }).click();
  });

  it('the Edit wallet dialog', async () => {
    await web.page.getByRole('button', { name: 'Edit Treasury' }).click();
    await poll(() => web.page.getByRole('dialog', { name: 'Edit wallet' }).isVisible()).toBe(true);
    await expectAccessible('edit wallet dialog');
    await web.page.keyboard.press('Escape');
  });

  it('the keyboard shortcuts dialog', async () => {
    await web.page.locator('body').focus();
    await web.page.keyboard.press('?');
    await poll(() => web.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible()).toBe(true);
    await expectAccessible('shortcuts dialog');
    await web.page.keyboard.press('Escape');
  });

  it('lists every finding in one place (empty) and had no page errors', () => {
    expect(all).toEqual([]);
    expect(web.problems).toEqual([]);
  });
});

describe('every main view at 1024×640, 1440×900 and 2560×1440, light and dark', { timeout: 120_000 }, () => {
  const sizes = [
    [1024, 640],
    [1440, 900],
    [2560, 1440],
  ] as const;
  const views: Array<[string, string, () => Promise<unknown>]> = [
    ['overview', `#/overview?wallet=${A}`, () => expect.poll(() => web.page.getByTestId('total-nav').textContent(), { timeout: 15_000 }).toMatch(/\d/)],
    [
      'overview-all',
      '#/overview',
      () => expect.poll(() => web.page.getByRole('region', { name: 'Exposure by token' }).isVisible(), { timeout: 15_000 }).toBe(true),
    ],
    [
      'positions',
      `#/positions?wallet=${A}`,
      () => expect.poll(() => web.page.getByRole('button', { name: /Underlying tokens of/ }).count(), { timeout: 15_000 }).toBeGreaterThan(0),
    ],
    ['timeline', `#/timeline?wallet=${A}`, () => expect.poll(() => web.page.locator('[role=row].txn').count(), { timeout: 15_000 }).toBeGreaterThan(5)],
  ];
  beforeAll(ensureWallets);
  for (const [w, h] of sizes) {
    it(`${w}×${h}: the header stays on one line, tables scroll inside their box, key figures stay visible`, async () => {
      await web.page.setViewportSize({ width: w, height: h });
      for (const [name, hash, ready] of views) {
        await web.page.goto(`${web.shell.url}${hash}`);
        await ready();
        // The top bar never wraps: one row tall.
        const bar = await web.page.locator('.topbar').boundingBox();
        expect(bar!.height, `${name} top bar at ${w}×${h}`).toBeLessThan(64);
        // Nothing makes the page itself scroll sideways.
        expect(await web.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        if (name === 'positions') {
          // Value and Health are shown, inside the viewport.
          for (const col of ['Value', 'Health']) {
            const box = await web.page.getByRole('columnheader', { name: new RegExp(`^${col}`) }).boundingBox();
            expect(box, `${col} column at ${w}×${h}`).not.toBeNull();
            expect(box!.x + box!.width).toBeLessThanOrEqual(w);
          }
        }
        if (name === 'timeline') {
          await web.page.locator('[role=row].txn').first().click();
          await poll(() => web.page.getByRole('dialog', { name: 'Transaction detail' }).isVisible()).toBe(true);
          // The selected row's amounts stay visible beside the detail.
          const what = await web.page.locator('[role=row][aria-selected=true] .what').boundingBox();
          const drawer = await web.page.getByRole('dialog', { name: 'Transaction detail' }).boundingBox();
          expect(what!.x + 40, `amounts beside the detail at ${w}×${h}`).toBeLessThan(drawer!.x);
        }
        for (const theme of ['light', 'dark'] as const) {
          await setTheme(theme);
          await shoot(web.page, `size-${w}x${h}-${name}-${theme}`);
        }
        await setTheme('light');
        if (name === 'timeline') await web.page.keyboard.press('Escape');
      }
    });
  }
});

describe('one locale for everything', { timeout: 60_000 }, () => {
  beforeAll(ensureWallets);
  afterAll(async () => {
    await web.core.call('settings.update', { locale: null });
  });

  it('with de-DE: numbers, currencies, dates, relative times and date fields follow it, with no double stop', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await web.core.call('settings.update', { locale: 'de-DE' });
    await web.page.goto(`${web.shell.url}#/overview?wallet=${A}`);
    await poll(() => web.page.getByTestId('total-nav').textContent()).toMatch(/^[\d.]+,\d\d\s\$$/);
    expect(await web.page.getByLabel('Stand', { exact: true }).inputValue()).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    expect(await web.page.getByLabel('Stand', { exact: true }).getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    // The words follow the locale too (issue 39, item 2): one language per screen.
    await poll(() => web.page.getByText('Werte in USD').count()).toBeGreaterThan(0);
    const body = await web.page.locator('#app').innerText();
    expect(body).toMatch(/Werte|Values in USD, as of \d+\. \w+\.? \d{4}/);
    expect(body).not.toMatch(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}/);
    expect(body).toMatch(/ynchronisiert/);
    expect(body).not.toMatch(/Synced/);
    expect(body).not.toMatch(/\.\./);
    await shoot(web.page, 'locale-de-overview');
    // A date typed in the locale's form is applied.
    await web.page.getByLabel('Stand', { exact: true }).fill('15.05.2025');
    await poll(() => web.page.url()).toContain('date=2025-05-15');
    await web.page.goto(`${web.shell.url}#/timeline?wallet=${A}`);
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const timeline = await web.page.locator('#app').innerText();
    expect(timeline).not.toMatch(/\.\./);
    expect(timeline).toMatch(/(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. /);
    expect(await web.page.getByLabel('Von Datum').getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    await shoot(web.page, 'locale-de-timeline');
  });
});
