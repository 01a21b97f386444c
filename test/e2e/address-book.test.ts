import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { demoStarter } from '../../src/sim/demo.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * The address book in Chromium (issue 28, item 1): a CSV imported through the screen (a bad
 * row first: every row's outcome listed, nothing written; then the corrected file), the names
 * in the timeline's rows and detail, a search by name, the Internal and To-unknown marks, the
 * export downloaded and read back; axe in both themes, names whole at 1024 px.
 */
const OPS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const COLD = '0x00000000219ab540356cbb839cbe05303d7705fa';
const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  acceptDownloads: true,
  core: { demo: demoStarter({ txnsPerWallet: 150, now: () => SIM_NOW }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: OPS, chains: ['eth'], label: 'Ops' });
    await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold' });
    const jobs: JobInfo[] = [];
    for (const w of [OPS, COLD]) jobs.push(await core.call('sync.transactions', { wallet: w }));
    await waitForJobs(core, jobs);
  },
  timeout: 120_000,
});

/** The address Ops sent to most often that is not a watched wallet: the grantee the CSV names. */
async function grantee(): Promise<string> {
  const rows = (await web.core.call('timeline.page', { wallet: OPS, limit: 1000 })).rows;
  const counts = new Map<string, number>();
  for (const r of rows) if (r.from === OPS && r.to && r.to !== OPS && r.to !== COLD) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

describe('the address book', () => {
  it('imports a CSV through the screen: a bad row blocks it, row by row; corrected, every row lands', async () => {
    const g = await grantee();
    await web.open('#/book');
    const page = web.page;
    await expect.poll(() => page.getByRole('tab', { name: 'Address book' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByText('No names yet').count()).toBe(1);

    const bad = join(web.dataDir, 'book-bad.csv');
    writeFileSync(bad, `address,name,tags,ours,chains,note\neth:${g},Grantee X,grants,false,,monthly grant\nzz:0x${'e5'.repeat(20)},Nowhere,,,,\n`);
    await page.getByLabel('CSV file').setInputFiles(bad);
    await page.getByRole('button', { name: 'Check the file' }).click();
    const preview = page.getByTestId('import-preview');
    await expect.poll(() => preview.locator('tbody tr').count()).toBe(2);
    const cells = async () => (await preview.locator('tbody tr').allInnerTexts()).map((t) => t.split('\t').map((x) => x.trim()));
    const rows = await cells();
    expect(rows[0]!.slice(0, 3)).toEqual(['2', 'Add', 'Grantee X']);
    expect(rows[1]!.slice(0, 3)).toEqual(['3', 'Error', 'Nowhere']);
    expect(rows[1]![5]).toMatch(/unknown chain "zz"/);
    expect(await page.getByRole('button', { name: /^Import \d/ }).isDisabled()).toBe(true);
    await bothThemes(page, 'address-book-preview');
    expect(await web.core.call('counterparties.list', undefined)).toEqual([]);

    const good = join(web.dataDir, 'book-good.csv');
    writeFileSync(good, `address,name,tags,ours,chains,note\neth:${g},Grantee X,grants,false,,monthly grant\n0x${'e5'.repeat(20)},Our signer,,true,,\n`);
    await page.getByLabel('CSV file').setInputFiles(good);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toMatch(/2 to add.*0 errors/);
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await expect.poll(() => page.getByText('Imported: 2 added, 0 updated.').count()).toBe(1);
    const table = page.getByRole('table', { name: 'Address book' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    expect(await table.getByRole('rowheader').allInnerTexts()).toEqual(['Grantee X', 'Our signerOurs']);
    await bothThemes(page, 'address-book');

    // Edited with the form, by keyboard: the name changes, recorded in the audit trail.
    await page.getByRole('button', { name: 'Edit Grantee X' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit a name' });
    await dialog.getByLabel('Name').fill('Grantee X (2026)');
    // Chains and tags picked from lists, not typed as comma-separated text (issue 39 item 5): the
    // entry's chain a chip, a chain the wallets know added from the list by keyboard, a new tag typed.
    const chains = dialog.getByRole('combobox', { name: 'Chains' });
    expect(await dialog.getByRole('button', { name: /^Remove Ethereum/ }).count()).toBe(1);
    await chains.fill('arb');
    await expect.poll(() => dialog.getByRole('option', { name: /Arbitrum/ }).count()).toBe(1);
    await chains.press('ArrowDown');
    await chains.press('Enter');
    const tags = dialog.getByRole('combobox', { name: 'Tags' });
    await tags.fill('grants');
    await tags.press('Enter');
    await bothThemes(page, 'address-book-form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => table.getByRole('rowheader').first().innerText()).toBe('Grantee X (2026)');
    const row = table.locator('tbody tr').first();
    expect(await row.innerText()).toContain('\tArbitrum One, Ethereum\tgrants\t');
    // Opened again, the form shows what was saved as chips.
    await page.getByRole('button', { name: 'Edit Grantee X (2026)' }).click();
    expect(await dialog.getByRole('button', { name: /^Remove (Ethereum|Arbitrum|grants)/ }).count()).toBe(3);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const edits = await web.core.call('audit.list', { entity: 'counterparty' });
    expect(JSON.stringify(edits)).toContain('Grantee X (2026)');

    // Names whole at 1024 px.
    await page.setViewportSize({ width: 1024, height: 640 });
    for (const cell of await table.getByRole('rowheader').all()) expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await bothThemes(page, 'address-book-1024');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Exported through the screen: the file read back holds the book.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = join(web.dataDir, 'exported-book.csv');
    await (await download).saveAs(file);
    const back = parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(back.map((r) => [r['address'], r['name'], r['ours'], r['chains']])).toEqual([
      [g, 'Grantee X (2026)', 'false', 'arb;eth'],
      [`0x${'e5'.repeat(20)}`, 'Our signer', 'true', ''],
    ]);
  });

  it('names the counterparties in the timeline and its detail, finds them by name, marks outflows to nobody named', async () => {
    const g = await grantee();
    await web.open(`#/timeline?wallet=${OPS}`);
    const page = web.page;
    const party = page.getByTestId('party').filter({ hasText: 'to Grantee X (2026)' });
    await expect.poll(() => party.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('to-unknown').count()).toBeGreaterThan(0);
    await bothThemes(page, 'address-book-timeline');

    // The detail names both ends.
    await party.first().click();
    await expect.poll(() => page.getByTestId('to-name').textContent()).toBe('Grantee X (2026)');
    expect(await page.getByTestId('from-name').textContent()).toBe('Ops');

    // A search by the name finds exactly the grantee's transactions.
    await page.getByRole('searchbox', { name: /Search by hash or address, or by a counterparty’s name/ }).fill('grantee x');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const expected = await web.core.call('timeline.count', { wallet: OPS, search: g });
    expect(expected).toBeGreaterThan(1);
    await expect.poll(() => page.getByText(`${expected} transactions match`).count()).toBe(1);
    // Every row shown names the grantee (the list renders those in view).
    const shown = page.locator('.txn');
    await expect.poll(() => shown.filter({ hasText: 'Grantee X (2026)' }).count()).toBe(await shown.count());
    expect(await page.getByTestId('to-unknown').count()).toBe(0);
  });
});
