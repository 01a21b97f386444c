import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { bothThemes } from './axe.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The audit trail in Settings, in Chromium (issue 28, item 4): an edit made on the screen (a
 * wallet relabelled in its dialog) is listed with before and after and the operation that made
 * it; the list filters by kind; the CSV the page downloads holds the same edits.
 */
const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  acceptDownloads: true,
  // The edits' time (the core's clock) and the page's today pinned: the trail's dates read 2026 whatever the machine's date.
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 50, now: () => SIM_NOW }), now: () => SIM_NOW },
  clock: SIM_NOW,
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' });
    await core.call('groups.save', { name: 'Fund I', wallets: [WALLET] });
  },
  open: true,
  timeout: 120_000,
});

describe('the audit trail in Settings', () => {
  it('lists an edit made on the screen with before and after, filters by kind, and exports the trail', async () => {
    // Relabel the wallet through its dialog, as a user does.
    await web.page.getByRole('link', { name: /^Ops/ }).click();
    await web.page.getByRole('button', { name: 'Edit Ops' }).click();
    const walletDialog = web.page.getByRole('dialog', { name: 'Edit wallet' });
    await poll(() => walletDialog.isVisible()).toBe(true);
    await walletDialog.getByLabel('Label').fill('Treasury');
    await walletDialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => walletDialog.isVisible()).toBe(false);

    await web.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    const section = dialog.getByRole('region', { name: 'Audit trail' });
    await section.scrollIntoViewIfNeeded();
    const rows = section.getByRole('table', { name: 'Audit trail' }).locator('tbody tr');
    await poll(() => rows.count()).toBe(3);
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      expect.stringMatching(/2026/),
      `wallet ${WALLET.toLowerCase()} "Treasury": label: "Ops" → "Treasury"`,
      'wallets.update',
    ]);
    expect(await section.getByText('3 of 3 edits shown.').count()).toBe(1);
    await section.getByLabel('Show').selectOption('group');
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('group 1 "Fund I" created');
    await bothThemes(web.page, 'settings-audit');

    const download = web.page.waitForEvent('download');
    await section.getByRole('button', { name: 'Export the trail (CSV)' }).click();
    const file = join(web.dataDir, 'audit.csv');
    await (await download).saveAs(file);
    const records = parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(records.map((r) => `${r['origin']} ${r['entity']} ${r['action']}`)).toEqual([
      'wallets.add wallet create',
      'groups.save group create',
      'wallets.update wallet update',
    ]);
    expect(web.problems).toEqual([]);
  });
});
