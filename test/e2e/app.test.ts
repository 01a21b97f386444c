import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCREENSHOTS } from '../support/browser.ts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { tempDir } from '../support/store.ts';
import { shootBothThemes, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import type { Simulator } from '../../src/sim/server.ts';

/**
 * End to end, as a user: the web shell in demo mode, the real renderer in Debian's
 * Chromium. The flows run in order on one page, as one person's first session would.
 */
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
/** The demo service the core started (the session's starter hands it over): a test slows it down. */
let demo: Simulator | null = null;
const web = useWebSession({
  viewport: { width: 1360, height: 860 },
  acceptDownloads: true,
  core: { demo: async (key) => (demo = await demoStarter({ txnsPerWallet: 3000 })(key)) },
});

const kpi = () => web.page.getByTestId('total-nav');

const bothThemes = (name: string) => shootBothThemes(web.page, name);

/** The timeline's action type filter: typed as the screens spell it and added with Enter (the picker, issue 39 item 5). */
async function pickAction(shown: string) {
  const field = web.page.getByRole('combobox', { name: 'Action type', exact: true });
  await field.fill(shown);
  await field.press('Enter');
}

describe('Folioscope in Chromium, demo mode', () => {
  it('refuses a request without the token', async () => {
    const res = await fetch(web.shell.origin + '/');
    expect(res.status).toBe(401);
    const api = await fetch(web.shell.origin + '/api/wallets.list', { method: 'POST', headers: { Origin: web.shell.origin } });
    expect(api.status).toBe(401);
  });

  it('starts in demo mode and says so, with an empty state that says what to do', async () => {
    await web.page.goto(web.shell.url);
    await expect.poll(() => web.page.getByText('Demo data').isVisible()).toBe(true);
    await expect.poll(() => web.page.getByText('Watch a wallet to begin').isVisible()).toBe(true);
    expect(web.page.url()).not.toContain('token=');
    await bothThemes('01-first-start');
  });

  it('opens Settings with the service, the key (never shown) and the data folder; Escape closes it', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const settings = web.page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => settings.getByText(/Demo mode: the built-in reference service/).isVisible()).toBe(true);
    expect(await settings.getByLabel('Access key').getAttribute('type')).toBe('password');
    await expect.poll(() => settings.getByText(/Data folder:/).isVisible()).toBe(true);
    await bothThemes('00-settings');
    await web.page.keyboard.press('Escape');
    await expect.poll(() => settings.isVisible()).toBe(false);
  });

  it('validates the address inline, then adds a wallet and shows its positions', async () => {
    await web.page.getByRole('button', { name: 'Add wallet' }).first().click();
    const dialog = web.page.getByRole('dialog', { name: 'Add wallet' });
    await dialog.getByLabel('Address').fill('0x1234');
    await dialog.getByRole('button', { name: 'Add wallet' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('expected 0x followed by 40');
    await bothThemes('01-add-wallet-error');
    await dialog.getByLabel('Address').fill(ADDRESS);
    await dialog.getByLabel('Label').fill('Treasury');
    await dialog.getByLabel('Tags').fill('ops, cold');
    await dialog.getByRole('checkbox', { name: 'Arbitrum One' }).check();
    await dialog.getByRole('button', { name: 'Add wallet' }).click();
    await expect.poll(() => kpi().textContent(), { timeout: 20_000 }).toMatch(/^\$[\d,]+\.\d\d$/);
    await expect.poll(() => web.page.getByRole('link', { name: /Treasury/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(
        () =>
          web.page
            .getByText(/Synced/)
            .first()
            .isVisible(),
        { timeout: 20_000 },
      )
      .toBe(true);
    await bothThemes('02-overview');
  });

  it('shows the three views of positions, with underlying details', async () => {
    await web.page.getByRole('tab', { name: 'Positions' }).click();
    await expect.poll(() => web.page.locator('tbody tr').count()).toBeGreaterThan(3);
    await web.page
      .getByRole('button', { name: /Underlying tokens of/ })
      .first()
      .click();
    await expect.poll(() => web.page.locator('table.inner').first().isVisible()).toBe(true);
    await bothThemes('03-positions');
    await web.page.getByRole('tab', { name: 'By token' }).click();
    await expect.poll(() => web.page.getByRole('columnheader', { name: /Token/ }).isVisible()).toBe(true);
    await bothThemes('04-by-underlying');
    await web.page.getByRole('tab', { name: 'Liquidity' }).click();
    await expect.poll(() => web.page.getByRole('columnheader', { name: /Ownership/ }).isVisible()).toBe(true);
    await bothThemes('05-liquidity');
    await web.page.getByRole('tab', { name: 'By position' }).click();
  });

  it('changes the date: an uncached date says so, and fetching it shows that date', async () => {
    const before = await kpi().count();
    expect(before).toBe(0); // on the Positions tab
    await web.page.getByRole('tab', { name: 'Overview' }).click();
    const total = await kpi().textContent();
    await web.page.getByLabel('As of').fill('2025-06-01');
    await expect.poll(() => web.page.getByText(/is not cached/).isVisible()).toBe(true);
    await web.page.getByRole('button', { name: /^Fetch / }).click();
    await expect.poll(() => web.page.getByText(/is not cached/).isVisible(), { timeout: 20_000 }).toBe(false);
    await expect.poll(() => kpi().textContent()).not.toBe(total);
    expect(web.page.url()).toContain('date=2025-06-01');
  });

  it('compares two dates: opened, closed and changed, with the NAV change split', async () => {
    await web.page.getByRole('tab', { name: 'Positions' }).click();
    await web.page.getByRole('button', { name: 'Compare with date…' }).click();
    await expect.poll(() => web.page.getByTestId('diff-total').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => web.page.getByRole('region', { name: 'Comparison' }).textContent()).toMatch(/principal.*rewards/s);
    // Two different dates: some positions changed between them.
    expect(await web.page.getByTestId('diff-total').textContent()).not.toBe('$0.00');
    await expect.poll(() => web.page.getByRole('region', { name: 'Comparison' }).locator('tbody tr').count()).toBeGreaterThan(0);
    await bothThemes('06-compare');
    // Back returns to the view before comparing.
    await web.page.goBack();
    await expect.poll(() => web.page.getByTestId('diff-total').count()).toBe(0);
  });

  it('fills history with a progress bar, then draws NAV over dates', async () => {
    await web.page.getByRole('tab', { name: 'Overview' }).click();
    await web.page.getByRole('button', { name: '30d' }).click();
    // Latency on the demo service, so the fill lasts long enough to see its progress bar.
    demo!.setLatency(40);
    try {
      await web.page.getByRole('button', { name: 'Fill history' }).click();
      await expect.poll(() => web.page.getByRole('progressbar', { name: 'History fill progress' }).count(), { timeout: 5_000 }).toBeGreaterThan(0);
      await expect
        .poll(() => web.page.getByRole('img', { name: /NAV over \d+ cached dates/ }).getAttribute('aria-label'), { timeout: 60_000 })
        .toMatch(/NAV over (2\d|30) cached dates/);
    } finally {
      demo!.setLatency(0);
    }
    await bothThemes('07-nav-history');
  });

  it('shows all wallets together, with exposure per token', async () => {
    await web.page.getByRole('link', { name: /All wallets/ }).click();
    const exposure = web.page.getByRole('region', { name: 'Exposure by token' });
    await expect.poll(() => exposure.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await exposure.locator('tbody tr').count()).toBeGreaterThan(3);
    await bothThemes('07b-all-wallets');
    await web.page.getByRole('link', { name: /Treasury/ }).click();
  });

  it('scrolls the timeline, loading more pages, and opens a transaction with its logs', async () => {
    await web.page.getByRole('tab', { name: 'Timeline' }).click();
    await expect.poll(() => web.page.getByRole('columnheader', { name: /^Time \(UTC\)/ }).isVisible(), { timeout: 20_000 }).toBe(true);
    // The count is of every match (what the export holds), not of the rows loaded so far.
    const count = async () => Number((await web.page.getByText(/^[\d,]+\+? transactions/).textContent())!.replace(/[^\d]/g, ''));
    await expect.poll(count, { timeout: 30_000 }).toBe(6000);
    // Scrolling loads the next pages.
    let pagesAsked = 0;
    web.page.on('request', (req) => void (req.url().endsWith('api/timeline.page') && pagesAsked++));
    const list = web.page.getByRole('grid', { name: 'Transactions, newest first' });
    for (let i = 0; i < 12; i++) {
      await list.hover();
      await web.page.mouse.wheel(0, 4000);
      // One frame: the list has seen the scroll before the next one.
      await web.page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    }
    await expect.poll(() => pagesAsked).toBeGreaterThan(0);
    await bothThemes('08-timeline');
    // The list was just scrolled hard: let it settle, then open the first row it shows.
    // A virtual list still settling may recycle the row under the click: click the first row it
    // shows until the detail opens.
    const drawer = web.page.getByRole('dialog', { name: 'Transaction detail' });
    await expect
      .poll(
        async () => {
          if (!(await drawer.isVisible())) {
            // A swap that went through: its logs are certain (a plain native transfer, as on a real
            // chain, has none, nor has a failed transaction). Which rows the list holds around the
            // view decides which swap comes first.
            const row = web.page.locator('[role=row].txn:not(.failed)', { hasText: 'Swap' }).first();
            await row.scrollIntoViewIfNeeded({ timeout: 2_000 }).catch(() => undefined);
            await row.click({ timeout: 2_000 }).catch(() => undefined);
          }
          return drawer.isVisible();
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect.poll(() => drawer.getByText(/Event logs \(\d+\)/).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => drawer.locator('ol.logs li').count()).toBeGreaterThan(0);
    await bothThemes('09-transaction');
    await web.page.keyboard.press('Escape');
  });

  it('filters the timeline, with the filters in the URL so Back works', async () => {
    await pickAction('Swap');
    await expect.poll(() => web.page.url()).toContain('action=swap');
    // Some rows, and only swaps (an empty list would pass "every" alone).
    await expect
      .poll(async () => {
        const rows = await web.page.locator('[role=row].txn').allTextContents();
        return rows.length > 0 && rows.every((t) => t.includes('Swap'));
      })
      .toBe(true);
    await web.page.goBack();
    await expect.poll(() => web.page.url()).not.toContain('action=swap');
  });

  it('exports what the view shows: transactions as CSV, and the portfolio report as PDF', async () => {
    await pickAction('Swap');
    await web.page.getByRole('button', { name: 'Export ▾' }).click();
    const [csvDownload] = await Promise.all([
      web.page.waitForEvent('download', { timeout: 30_000 }),
      web.page.getByRole('menuitem', { name: 'These transactions (CSV)' }).click(),
    ]);
    const csvPath = join(tempDir(), 'export.csv');
    await csvDownload.saveAs(csvPath);
    expect(csvDownload.suggestedFilename()).toMatch(/^folioscope-transactions-.*\.csv$/);
    const records = parse(readFileSync(csvPath, 'utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(records.length).toBeGreaterThan(10);
    expect(new Set(records.map((r) => r['action_type']))).toEqual(new Set(['swap']));
    await expect.poll(() => web.page.getByText(/Downloaded folioscope-transactions/).isVisible()).toBe(true);

    await web.page.getByRole('tab', { name: 'Overview' }).click();
    await web.page.getByRole('button', { name: 'Export ▾' }).click();
    const [pdfDownload] = await Promise.all([
      web.page.waitForEvent('download', { timeout: 30_000 }),
      web.page.getByRole('menuitem', { name: 'Portfolio report (PDF)' }).click(),
    ]);
    const pdfPath = join(tempDir(), 'report.pdf');
    await pdfDownload.saveAs(pdfPath);
    expect(execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' })).toMatch(/Pages:\s+\d+/);
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain('Portfolio report');
    expect(text).toContain(ADDRESS);
    expect(text).toContain(await kpi().textContent());
    // A picture of the first page, for people to look at.
    execFileSync('pdftoppm', ['-r', '80', '-png', '-singlefile', '-f', '1', '-l', '1', pdfPath, join(SCREENSHOTS, '11-report-page-1')]);
  });

  it('had no page errors or CSP violations', () => {
    expect(web.problems).toEqual([]);
  });
});
