import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { axeFindings, describeFindings } from './axe.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Backups and the data file in Settings, in Chromium: made, listed, verified; exported, previewed, imported; restored. */
const web = useWebSession({
  viewport: { width: 1024, height: 900 },
  acceptDownloads: true,
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 200 }) },
  seed: (core) => core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' }),
  open: true,
});

const settings = async () => {
  if (!(await web.page.getByRole('dialog', { name: 'Settings' }).isVisible())) await web.page.getByRole('button', { name: 'Settings' }).click();
  const dialog = web.page.getByRole('dialog', { name: 'Settings' });
  await poll(() => dialog.isVisible()).toBe(true);
  return dialog;
};

describe('backups in Settings', () => {
  it('makes one now, lists it with what it holds, and verifies it', async () => {
    const dialog = await settings();
    const section = dialog.getByRole('region', { name: 'Backups' });
    await poll(() => section.getByText('No backups yet.').isVisible()).toBe(true);
    await section.getByRole('button', { name: 'Back up now' }).click();
    await poll(() => section.getByRole('status').textContent()).toMatch(/^Backup demo-\d{8}T\d{6}Z\.sqlite made and checked\.$/);
    const item = section.getByRole('listitem');
    await poll(() => item.count()).toBe(1);
    expect((await item.textContent())!.replace(/\s+/g, ' ')).toMatch(
      /demo-\d{8}T\d{6}Z\.sqlite .* · made by hand · 1 wallet, 0 groups, \d+ snapshots?, \d+ transactions?/,
    );
    const [made] = (await web.core.call('backups.list', undefined)).backups;
    await section.getByRole('button', { name: `Verify the backup ${made!.name}` }).click();
    await poll(() => section.getByRole('status').textContent()).toBe(`${made!.name} checks out: its SHA-256 matches its manifest, integrity_check is ok.`);
    await section.scrollIntoViewIfNeeded();
    await shoot(web.page, 'settings-backups-1024');
    await web.page.emulateMedia({ colorScheme: 'dark' });
    await shoot(web.page, 'settings-backups-1024-dark');
    await web.page.emulateMedia({ colorScheme: 'light' });
  });

  it('exports the data file as a download, previews an import item by item, imports it, and restores the backup', async () => {
    const dialog = await settings();
    const section = dialog.getByRole('region', { name: 'Your data' });
    const download = web.page.waitForEvent('download');
    await section.getByRole('button', { name: 'Export your data' }).click();
    const file = join(web.dataDir, 'exported.json');
    await (await download).saveAs(file);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc).toMatchObject({
      format: 'folioscope-user-data',
      version: 1,
      data: { wallets: [expect.objectContaining({ address: WALLET, label: 'Treasury' })] },
    });

    // A file from elsewhere: the wallet relabelled, another wallet and a group.
    doc.data.wallets[0].label = 'Treasury (cold)';
    doc.data.wallets.push({ address: WALLET_2, label: 'Staking', tags: [], chains: ['eth'] });
    doc.data.groups.push({ name: 'Fund I', wallets: [WALLET, WALLET_2] });
    const other = join(web.dataDir, 'other.json');
    writeFileSync(other, JSON.stringify(doc));
    await section.getByLabel('Data file').setInputFiles(other);
    await section.getByRole('button', { name: 'Preview' }).click();
    const items = section.getByRole('list', { name: 'What the import changes' }).getByRole('listitem');
    // One item per wallet, group, setting and the books' categories (the seeded list, unchanged).
    await poll(() => items.count()).toBe(doc.data.wallets.length + 1 + Object.keys(doc.data.settings).length + doc.data.categories.length);
    const texts = (await items.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(texts).toContain(`change wallet ${WALLET} label "Treasury" → "Treasury (cold)"`);
    expect(texts).toContain(`add wallet ${WALLET_2} "Staking" on eth`);
    expect(texts).toContain('add group Fund I 2 wallets');
    expect(await section.getByText(/2 to add, 1 to change, \d+ unchanged, 0 conflicts/).isVisible()).toBe(true);
    // Nothing changed yet.
    expect((await web.core.call('wallets.list', undefined)).length).toBe(1);
    await section.scrollIntoViewIfNeeded();
    await shoot(web.page, 'settings-data-preview-1024');
    const findings = describeFindings('Settings with a backup and a preview (light)', await axeFindings(web.page));
    await web.page.emulateMedia({ colorScheme: 'dark' });
    await shoot(web.page, 'settings-data-preview-1024-dark');
    findings.push(...describeFindings('Settings with a backup and a preview (dark)', await axeFindings(web.page)));
    await web.page.emulateMedia({ colorScheme: 'light' });
    expect(findings).toEqual([]);

    await section.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => section.getByRole('status').textContent()).toBe('Imported: 2 added, 1 changed.');
    expect((await web.core.call('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury (cold)', 'Staking']);
    expect((await web.core.call('groups.list', undefined)).map((g) => g.name)).toEqual(['Fund I']);

    // The same file again holds nothing new: nothing to import (issue 39: Import stayed enabled with 0 changes).
    const again = join(web.dataDir, 'again.json');
    writeFileSync(again, JSON.stringify(doc));
    await section.getByLabel('Data file').setInputFiles(again);
    await section.getByRole('button', { name: 'Preview' }).click();
    await poll(() => section.getByRole('list', { name: 'What the import changes' }).getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await section.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    expect(await web.core.call('wallets.list', undefined)).toHaveLength(2);

    // A file that conflicts (the wallet on other chains): import blocked until the file's version is asked for.
    doc.data.wallets[1].chains = ['eth', 'arb'];
    const conflicting = join(web.dataDir, 'conflicting.json'); // a new file: Chromium will not read one changed since it was chosen
    writeFileSync(conflicting, JSON.stringify(doc));
    await section.getByLabel('Data file').setInputFiles(conflicting);
    await section.getByRole('button', { name: 'Preview' }).click();
    await poll(() => section.getByText(`chains differ: here eth; in the file eth, arb`).isVisible()).toBe(true);
    expect(await section.getByRole('alert').textContent()).toMatch(/Conflicts block the import/);
    expect(await section.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);

    // The backup made before the import: restored after a confirmation, the app on it again.
    const backups = dialog.getByRole('region', { name: 'Backups' });
    const [made] = (await web.core.call('backups.list', undefined)).backups;
    await backups.getByRole('button', { name: `Restore the backup ${made!.name}` }).click();
    await poll(() => backups.getByText(/The current cache is kept aside beside it/).isVisible()).toBe(true);
    await backups.getByRole('button', { name: 'Restore', exact: true }).click();
    await poll(() => backups.getByRole('status').textContent()).toMatch(
      new RegExp(`^Restored ${made!.name.replace(/\./g, '\\.')}\\. The cache it replaced is kept at .*before-restore-`),
    );
    expect((await web.core.call('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
  });

  it('had no page errors', () => {
    expect(web.problems).toEqual([]);
  });
});
