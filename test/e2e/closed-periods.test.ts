import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyCloseBundle } from '../../src/main/core/index.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { shoot } from '../support/browser.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * Closed periods in Settings, in Chromium: every close with its state in words (closed, changed
 * since close with what changed, closed with the names edited since, reopened with why), and a reopen that asks for its reason in a
 * dialog, refuses none, and is then in the audit trail.
 */
let group = 0;
const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  acceptDownloads: true,
  core: { person: 'alice@treasury-laptop', demo: demoStarter({ now: () => SIM_NOW, txnsPerWallet: 400 }), scheduleEveryMs: 0 },
  timeout: 120_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    for (const date of ['2026-09-30', '2026-10-31']) await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date })]);
    const first = await core.request('closes.close', { wallet: WALLET, month: '2026-10' });
    await core.request('closes.reopen', { id: first.id, reason: 'Fees re-read' });
    await core.request('closes.close', { wallet: WALLET, month: '2026-10' });
    group = (await core.request('groups.save', { name: 'Fund I', wallets: [WALLET] })).id;
    await core.request('closes.close', { group, month: '2026-10' });
    // The group renamed and given another member after its close: its figures' data changed (flagged).
    await core.call('wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Cold' });
    await core.request('groups.save', { id: group, name: 'Fund One', wallets: [WALLET, WALLET_2] });
    // The wallet relabelled: a change of names only, noted on its close, which stays closed (issue 39).
    await core.request('wallets.update', { address: WALLET, label: 'Treasury (main)' });
    await core.request('closes.check', undefined);
  },
  open: true,
});

describe('closed periods in Settings', () => {
  it('lists every close with its state and what changed, and reopens one only with a reason', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    await poll(() => dialog.isVisible()).toBe(true);
    const section = dialog.getByRole('region', { name: 'Closed periods' });
    const rows = section.locator('ul.closes > li');
    await poll(() => rows.count()).toBe(3);
    const text = async (i: number) => (await rows.nth(i).innerText()).replace(/\s+/g, ' ').trim();
    expect(await text(0)).toMatch(
      /^Fund I · 2026-09-30 – 2026-10-31 changed since close Auditor’s bundle Reopen… Closed .* · NAV \(closed\) \$[\d,.]+ → \$[\d,.]+ SHA-256 of the data behind it: [0-9a-f]{64} Changed since close \(found .*\); the closed figures are kept as they were: data edited: the group's members data edited: names only .*; no figure changed$/,
    );
    expect(await text(1)).toMatch(
      /^Treasury · 2026-09-30 – 2026-10-31 closed Auditor’s bundle Reopen… Closed .* SHA-256 of the data behind it: [0-9a-f]{64} Names edited since close \(found .*\); no figure changed, the period stays closed: data edited: names only .*; no figure changed$/,
    );
    expect(await text(2)).toMatch(/^Treasury · 2026-09-30 – 2026-10-31 reopened Auditor’s bundle Closed .* Reopened .*: Fees re-read$/);
    await section.scrollIntoViewIfNeeded();
    await shoot(web.page, 'closed-periods-1440');

    await section.getByRole('button', { name: 'Reopen Fund I, 2026-09-30 – 2026-10-31' }).click();
    const ask = web.page.getByRole('dialog', { name: 'Reopen a closed period' });
    await poll(() => ask.isVisible()).toBe(true);
    const reason = ask.getByLabel('Reason for reopening');
    // Opened, the focus is in the reason.
    await poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
    await bothThemes(web.page, 'closed-periods-reopen');
    await ask.getByRole('button', { name: 'Reopen the period' }).click();
    await poll(() => ask.getByRole('alert').textContent()).toBe('Give a reason for reopening the period.');
    expect((await web.core.call('closes.list', undefined)).filter((c) => c.state === 'reopened')).toHaveLength(1);
    await reason.fill('Fund renamed: close under the new name');
    await web.page.keyboard.press('Tab');
    await web.page.keyboard.press('Enter');
    await poll(() => ask.isVisible()).toBe(false);
    await poll(() => section.getByRole('status').textContent()).toBe('Reopened: the period can be closed again.');
    await poll(() => text(0)).toMatch(
      /^Fund I · 2026-09-30 – 2026-10-31 reopened Auditor’s bundle Closed .*Reopened .*: Fund renamed: close under the new name$/,
    );
    const [edit] = (await web.core.call('audit.list', { entity: 'period' })).entries;
    expect(edit).toMatchObject({ action: 'reopen', reason: 'Fund renamed: close under the new name', origin: 'closes.reopen' });

    await web.page.setViewportSize({ width: 1024, height: 640 });
    await section.scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'closed-periods-1024');
    expect(web.problems).toEqual([]);
  });

  it("names who closed and reopened, and downloads a close's auditor's bundle that checks out alone", async () => {
    await web.page.reload();
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const section = web.page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Closed periods' });
    const rows = section.locator('ul.closes > li');
    await poll(() => rows.count()).toBe(3);
    const text = async (i: number) => (await rows.nth(i).innerText()).replace(/\s+/g, ' ').trim();
    expect(await text(2)).toMatch(/ Closed .* by alice@treasury-laptop · .* Reopened .* by alice@treasury-laptop: Fees re-read$/);
    const download = web.page.waitForEvent('download');
    await section.getByRole('button', { name: 'Download the auditor’s bundle of Treasury, 2026-09-30 – 2026-10-31' }).first().click();
    const file = join(web.dataDir, 'bundle.zip');
    await (await download).saveAs(file);
    const check = verifyCloseBundle(readFileSync(file));
    expect(check.findings).toEqual([]);
    expect(check.close).toMatchObject({ closedBy: 'alice@treasury-laptop', from: '2026-09-30', to: '2026-10-31' });
    expect(web.problems).toEqual([]);
  });
});
