import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * Four eyes on a close (issue 37 item 4), in Chromium, as the approver on a team server's core
 * (CoreOptions.team): two closes a preparer prepared (another person's core on the same data
 * folder, before this one opened) wait in Settings → Closed periods; one is approved after a
 * confirmation and then names both people, the other is rejected only with a reason. On the
 * pack, the period's button says "Prepare close" and asks first; the approver's own prepared
 * close cannot be approved by them, and the panel says why.
 */
const PREPARER = 'preparer@books';
const APPROVER = 'approver@books';
const demo = () => demoStarter({ now: () => SIM_NOW, txnsPerWallet: 200 });

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { person: APPROVER, team: true, demo: demo(), now: () => SIM_NOW, scheduleEveryMs: 0 },
  timeout: 180_000,
  prepare: async (dataDir) => {
    const core = await createCore({
      dataDir,
      shell: 'web',
      env: {},
      baseUrl: null,
      demo: demo(),
      now: () => SIM_NOW,
      scheduleEveryMs: 0,
      person: PREPARER,
      team: true,
    });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      for (const date of ['2026-08-31', '2026-09-30', '2026-10-31']) await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date })]);
      await core.request('closes.prepare', { wallet: WALLET, month: '2026-09' });
      await core.request('closes.prepare', { wallet: WALLET, month: '2026-10' });
    } finally {
      await core.close();
    }
  },
  open: true,
});

describe('four eyes on a close, in the app', () => {
  it('approves a close another person prepared (naming both) and rejects one only with a reason', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    const section = dialog.getByRole('region', { name: 'Closed periods' });
    const rows = section.locator('ul.closes > li');
    await poll(() => rows.count()).toBe(2);
    const text = async (i: number) => (await rows.nth(i).innerText()).replace(/\s+/g, ' ').trim();
    // Newest first: October, then September; each prepared, by whom, waiting; no bundle for a close not closed.
    expect(await text(0)).toMatch(
      new RegExp(`^Treasury · 2026-09-30 – 2026-10-31 prepared, awaiting approval Approve Reject… Prepared .* by ${PREPARER} · NAV \\(prepared\\)`),
    );
    expect(await text(1)).toMatch(/^Treasury · 2026-08-31 – 2026-09-30 prepared, awaiting approval Approve Reject… Prepared /);
    expect(await section.getByRole('button', { name: /auditor’s bundle/ }).count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'four-eyes-prepared');

    // Approve, asked once more; from the keyboard.
    const approve = section.getByRole('button', { name: 'Approve the prepared close of Treasury, 2026-09-30 – 2026-10-31' });
    await approve.focus();
    await web.page.keyboard.press('Enter');
    const confirm = section.getByRole('group', { name: /^Approve the close of Treasury, 2026-09-30 – 2026-10-31\?/ });
    await poll(() => confirm.isVisible()).toBe(true);
    expect((await web.core.call('closes.list', undefined)).map((c) => c.state)).toEqual(['prepared', 'prepared']);
    await bothThemes(web.page, 'four-eyes-approve');
    await confirm.getByRole('button', { name: 'Approve and close' }).click();
    await poll(() => section.getByRole('status').textContent()).toBe('Approved: the period is closed.');
    await poll(() => text(0)).toMatch(
      new RegExp(
        `^Treasury · 2026-09-30 – 2026-10-31 closed Auditor’s bundle Reopen… Prepared .* by ${PREPARER} · approved and closed .* by ${APPROVER} · NAV \\(closed\\)`,
      ),
    );
    const [approved] = await web.core.call('closes.list', { from: '2026-09-30', to: '2026-10-31' });
    expect(approved).toMatchObject({ state: 'closed', preparedBy: PREPARER, approvedBy: APPROVER, samePerson: false });

    // Reject: a reason is asked, in a dialog; none is refused there.
    await section.getByRole('button', { name: 'Reject the prepared close of Treasury, 2026-08-31 – 2026-09-30' }).click();
    const ask = web.page.getByRole('dialog', { name: 'Reject a prepared close' });
    await poll(() => ask.isVisible()).toBe(true);
    const reason = ask.getByLabel('Reason for rejecting');
    await poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
    await ask.getByRole('button', { name: 'Reject the close' }).click();
    await poll(() => ask.getByRole('alert').textContent()).toBe('Give a reason for rejecting the close.');
    await bothThemes(web.page, 'four-eyes-reject');
    await reason.fill('September’s invoices are not booked yet');
    await web.page.keyboard.press('Tab');
    await web.page.keyboard.press('Enter');
    await poll(() => ask.isVisible()).toBe(false);
    await poll(() => section.getByRole('status').textContent()).toBe('Rejected: the period can be prepared again.');
    await poll(() => text(1)).toMatch(
      new RegExp(
        `^Treasury · 2026-08-31 – 2026-09-30 rejected Prepared .* by ${PREPARER} · .* Rejected .* by ${APPROVER}: September’s invoices are not booked yet$`,
      ),
    );
    await section.scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'four-eyes-settings');
    const [edit] = (await web.core.call('audit.list', { entity: 'period' })).entries;
    expect(edit).toMatchObject({ action: 'reject', person: APPROVER, reason: 'September’s invoices are not booked yet' });
    expect(web.problems).toEqual([]);
  });

  it("offers Prepare close on a team server, asking first; the preparer's own approval is refused with why", async () => {
    await web.open('#/pack?from=2026-08-31&to=2026-09-30');
    const panel = web.page.getByRole('region', { name: 'Period close' });
    await poll(() => panel.getByRole('button', { name: 'Prepare close' }).isVisible()).toBe(true);
    expect(await panel.getByRole('button', { name: 'Close this period' }).count()).toBe(0);
    expect(await panel.textContent()).toContain('On this team server a close is prepared by one person and approved by another.');
    await panel.getByRole('button', { name: 'Prepare close' }).click();
    await poll(() => panel.getByText(/^Prepare this period’s close with NAV \$[\d,.]+ at its opening and \$[\d,.]+ at its closing\?/).isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Prepare the close' }).click();
    await poll(() => panel.getByRole('status').textContent()).toBe('Prepared: another person approves or rejects it.');
    await poll(() => panel.textContent()).toMatch(new RegExp(`prepared, awaiting approval\\s+on .* by ${APPROVER}; waiting for another person’s approval`));
    await bothThemes(web.page, 'four-eyes-pack');
    await panel.getByRole('button', { name: /^Approve the prepared close of/ }).click();
    await panel.getByRole('button', { name: 'Approve and close' }).click();
    await poll(() => panel.getByRole('alert').textContent()).toMatch(
      new RegExp(
        `^${APPROVER} prepared close \\d+ \\(All wallets, 2026-08-31 to 2026-09-30\\), so cannot approve it: on a team server a close is prepared by one person and approved by another\\.$`,
      ),
    );
    const [mine] = await web.core.call('closes.list', { from: '2026-08-31', to: '2026-09-30' });
    expect(mine).toMatchObject({ state: 'prepared', preparedBy: APPROVER, scope: { kind: 'all' } });
    await bothThemes(web.page, 'four-eyes-own');
    expect(web.problems).toEqual([]);
  });
});
