import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { demoStarter } from '../../src/sim/demo.ts';
import { bothThemes } from './axe.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { tempDir } from '../support/store.ts';

/**
 * Notes, categories and rules on screen (issue 28, item 2), in Chromium against the web shell:
 * a rule made through the Rules dialog (previewed first) categorises the outflows; the timeline
 * filters by that category and by "uncategorised"; the export of the filtered timeline holds
 * exactly those rows (the downloaded file read back); a category and a note chosen in the
 * transaction's detail win over the rule; axe in light and dark, at two window sizes.
 */
const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { demo: demoStarter({ txnsPerWallet: 150, now: () => SIM_NOW }), scheduleEveryMs: 0 },
  timeout: 120_000,
  acceptDownloads: true,
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  },
});

describe('categories and rules on screen', () => {
  it('a rule made in the Rules dialog categorises outflows; the filter and its export hold exactly them; the detail edits win', async () => {
    const { page } = web;
    const { matches } = await web.core.request('rules.preview', { conditions: { direction: 'out' } });
    expect(matches).toBeGreaterThan(0);
    await web.open('#/timeline');
    await poll(() => page.locator('[role=row].txn').count()).toBeGreaterThan(0);

    // The rule, through the form: previewed, then saved.
    await page.getByTestId('open-rules').click();
    const dialog = page.getByRole('dialog', { name: 'Categories and rules' });
    await poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByLabel('Rule name (optional)').fill('Outflows');
    await dialog.getByLabel('Sets category').selectOption('Vendor payment');
    await dialog.getByLabel('Direction').selectOption('out');
    await dialog.getByRole('button', { name: 'Check matches' }).click();
    await poll(() => dialog.getByTestId('rule-preview').textContent()).toBe(`This rule matches ${matches.toLocaleString('en-US')} cached transactions.`);
    await bothThemes(page, 'books-rules-dialog');
    await dialog.getByRole('button', { name: 'Save rule' }).click();
    await poll(() => dialog.getByTestId('rules-message').textContent()).toMatch(new RegExp(`${matches.toLocaleString('en-US')} categorised by a rule`));
    // The lists reload on the core's change event, after the save's answer: polled.
    await poll(() => dialog.getByTestId('rules-table').locator('tbody tr').count()).toBe(1);
    await poll(() => dialog.getByTestId('categories-table').textContent()).toContain(matches.toLocaleString('en-US'));
    await page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);

    // Filtered by the category: the count is the rule's, every row shows it.
    await page.getByTestId('category-filter').selectOption('Vendor payment');
    await poll(() => page.url()).toContain('category=Vendor');
    await poll(() => page.getByRole('status').filter({ hasText: 'match' }).first().textContent()).toContain(
      `${matches.toLocaleString('en-US')} transactions match`,
    );
    await poll(async () => {
      const cells = await page.getByTestId('row-category').allTextContents();
      return cells.length > 0 && cells.every((t) => t.includes('Vendor payment'));
    }).toBe(true);

    // The export of the filtered view holds exactly those transactions.
    await page.getByRole('button', { name: 'Export ▾' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByRole('menuitem', { name: 'These transactions (CSV)' }).click(),
    ]);
    const file = join(tempDir(), 'vendor.csv');
    await download.saveAs(file);
    const records = parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;
    const expected = (await web.core.request('timeline.page', { categories: ['Vendor payment'], limit: 1000 })).rows.map((r) => r.txnHash);
    expect(new Set(records.map((r) => r['txn_hash']))).toEqual(new Set(expected));
    expect(expected).toHaveLength(matches);
    expect(records.every((r) => r['category'] === 'Vendor payment' && r['category_source'] === 'rule')).toBe(true);

    // The first row's detail: a manual category and a note, from the keyboard.
    const first = page.locator('[role=row].txn').first();
    await first.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('dialog', { name: 'Transaction detail' });
    await poll(() => detail.getByTestId('category-source').textContent()).toContain('A rule files this under Vendor payment.');
    await detail.getByLabel('Category', { exact: true }).selectOption('Payroll');
    await detail.getByLabel('Note', { exact: true }).fill('March payroll, team A');
    await detail.getByLabel('Note', { exact: true }).press('Control+Enter');
    await poll(() => detail.getByTestId('category-source').textContent()).toContain('Chosen by you (a rule would say Vendor payment).');
    const hash = expected[0]!;
    expect(await web.core.request('notes.get', { wallet: WALLET, chain: 'eth', txnHash: hash })).toMatchObject({
      category: 'Payroll',
      source: 'manual',
      note: 'March payroll, team A',
    });
    await bothThemes(page, 'books-detail');
    await page.setViewportSize({ width: 1024, height: 640 });
    await bothThemes(page, 'books-detail-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('Escape');

    // It left the Vendor payment filter (a manual choice wins); "uncategorised" holds the rest.
    await poll(async () => (await web.core.request('timeline.count', { categories: ['Vendor payment'] })) === matches - 1).toBe(true);
    await page.getByTestId('category-filter').selectOption('Uncategorised');
    await poll(() => page.url()).toContain('uncategorised=1');
    const total = await web.core.request('timeline.count', {});
    await poll(() => page.getByRole('status').filter({ hasText: 'match' }).first().textContent()).toContain(
      `${(total - matches).toLocaleString('en-US')} transactions match`,
    );
    await bothThemes(page, 'books-timeline-uncategorised');
    expect(web.problems).toEqual([]);
  });
});
