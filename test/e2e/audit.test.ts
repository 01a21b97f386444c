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
  // The person pinned too: the desktop's own is this machine's account and name (store/audit.ts localPerson).
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 50, now: () => SIM_NOW }), now: () => SIM_NOW, person: 'alice@treasury-laptop' },
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
    // Read on a screen: the address short (whole in the cell's title and in the CSV), what made
    // the edit in words (its operation in the title): issue 39, Medium 14.
    const short = `${WALLET.slice(0, 6)}…\u2060${WALLET.slice(-4)}`;
    // Who made it, then what made it and from where (issue 37 item 1).
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      expect.stringMatching(/2026/),
      `wallet ${short} "Treasury": label: "Ops" → "Treasury"`,
      'alice@treasury-laptopEditing a wallet, in the browser',
    ]);
    expect(await rows.first().locator('td').nth(2).innerText()).toBe('alice@treasury-laptop\nEditing a wallet, in the browser');
    expect(await rows.first().locator('td').nth(1).getAttribute('title')).toBe(`wallet ${WALLET.toLowerCase()} "Treasury": label: "Ops" → "Treasury"`);
    expect(await rows.first().locator('td').nth(2).getAttribute('title')).toBe('wallets.update');
    expect(await section.getByText('3 of 3 edits shown.').count()).toBe(1);
    // Filtered by person: the one person named, with their edits counted; "Everyone" again shows all.
    const person = section.getByLabel('Person');
    expect(await person.locator('option').allTextContents()).toEqual(['Everyone', 'alice@treasury-laptop (3 edits)']);
    await person.selectOption('alice@treasury-laptop');
    await poll(() => section.getByText('3 of 3 edits shown.').count()).toBe(1);
    await person.selectOption('');
    await section.getByLabel('Show').selectOption('group');
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('group 1 "Fund I" created');
    await bothThemes(web.page, 'settings-audit');

    const download = web.page.waitForEvent('download');
    await section.getByRole('button', { name: 'Export the trail (CSV)' }).click();
    const file = join(web.dataDir, 'audit.csv');
    await (await download).saveAs(file);
    const records = parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(records.map((r) => `${r['origin']} ${r['entity']} ${r['action']} ${r['person']} ${r['via']}`)).toEqual([
      'wallets.add wallet create alice@treasury-laptop web',
      'groups.save group create alice@treasury-laptop web',
      'wallets.update wallet update alice@treasury-laptop web',
    ]);
    expect(web.problems).toEqual([]);
  });

  it('a group whose members changed reads as who joined and who left, short addresses, not two JSON lists', async () => {
    const OTHER = '0x00000000219ab540356cbb839cbe05303d7705fa';
    await web.core.call('wallets.add', { address: OTHER, chains: ['eth'], label: 'Cold' });
    const [group] = await web.core.call('groups.list', undefined);
    await web.core.call('groups.save', { id: group!.id, name: 'Fund I', wallets: [OTHER] });
    await web.page.reload();
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const section = web.page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Audit trail' });
    await section.getByLabel('Show').selectOption('group');
    const first = section.getByRole('table', { name: 'Audit trail' }).locator('tbody tr').first().locator('td');
    await poll(() => first.nth(1).textContent()).toBe(
      `group 1 "Fund I": wallets: added 0x0000…\u206005fa; removed ${WALLET.slice(0, 6)}…\u2060${WALLET.slice(-4)}`,
    );
    expect(await first.nth(2).textContent()).toBe('alice@treasury-laptopSaving a group, in the browser');
    await first.nth(1).scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'settings-audit-group');
    // The edit takes the room of the row, and a short address is never split across lines.
    const [when, edit, by] = await Promise.all([0, 1, 2].map(async (i) => (await first.nth(i).boundingBox())!.width));
    expect(edit!).toBeGreaterThan(Math.max(when!, by!));
    const lines = await first.nth(1).evaluate((td) => {
      const range = document.createRange();
      const text = td.textContent!;
      const at = text.indexOf('0x5a0b');
      const node = td.querySelector('bdi')!.firstChild!;
      range.setStart(node, at);
      range.setEnd(node, at + 12);
      return range.getClientRects().length;
    });
    expect(lines).toBe(1);
    expect(web.problems).toEqual([]);
  });
});
