import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainName } from '../../src/shared/chain-names.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { poll, settled, useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * Spam on the screens (issue 38, items 3–5; docs/spam.md) in Chromium, at 1024 px, on a demo
 * whose world has spam in it (the treasury on eth and arb: airdropped fakes, poisoning, and one
 * payment to a lookalike address): beside the Overview's total the line saying what was left out
 * and what it claimed, the total the core's; the spam listed apart with why and who decided;
 * "Not spam" putting a token's value into the total on screen (and Undo taking it out again);
 * "Mark as spam" on a genuine position; the timeline's spam dimmed, hidden on request, the
 * lookalike payment's danger badge and the detail's verdict and say; the inbox's high-severity
 * poisoning alert; Settings' verdicts. Each screen in both themes, axe clean.
 */
const DATES = { from: '2026-08-01', to: '2026-11-01' };
const web = useWebSession({
  viewport: { width: 1024, height: 768 },
  core: { demo: demoStarter({ now: () => SIM_NOW, spam: true, txnsPerWallet: 600 }), scheduleEveryMs: 0 },
  clock: SIM_NOW,
  timeout: 180_000,
  // As test/spam/hostile-world.test.ts syncs its world: the wallet's history and a month's positions.
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
    const jobs: JobInfo[] = [
      await core.call('sync.transactions', { wallet: WALLET }),
      await core.call('sync.backfill', { wallet: WALLET, from: DATES.from, to: DATES.to, every: 'month' }),
    ];
    await waitForJobs(core, jobs);
    // The alert rules' and the poisoning guard's check the sync set off.
    await core.call('sync.settle', undefined);
  },
});

/** Money as the page formats it (Chromium's locale here is en-US). */
const usd = (v: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v);
const compact = (v: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(v);
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

describe('spam on the screens', () => {
  it('says beside the Overview’s total what was left out as spam, lists it apart, and “Not spam” puts a token’s value into the total', async () => {
    const page = web.page;
    const view = await web.core.call('portfolio.view', { date: DATES.to });
    expect(view.spam.count).toBeGreaterThan(1);
    await web.open('#/overview');
    const total = page.getByTestId('total-nav');
    const line = page.getByTestId('spam-line');
    await poll(() => total.textContent()).toBe(usd(view.totals.total!));
    await poll(() => line.textContent()).toBe(`${view.spam.count} spam tokens left out, claimed ${compact(view.spam.claimed!)}`);
    // Under the NAV line: the dates whose totals left spam out, the most on one date at least today's.
    const caption = page.getByText(/cached dates from/);
    await poll(() => caption.textContent()).toMatch(
      /spam left out of the line on [1-9]\d* dates? \(at most [1-9]\d* spam tokens? on a date, claimed at most \$/,
    );
    expect(Number(/at most (\d+) spam token/.exec((await caption.textContent())!)![1])).toBeGreaterThanOrEqual(view.spam.count);

    await page.getByRole('button', { name: 'Show them' }).click();
    const table = page.getByRole('table', { name: 'Spam tokens left out of the totals' });
    await poll(() => table.locator('tbody tr').count()).toBe(view.spam.count);
    const first = view.spam.rows[0]!;
    const row = table.locator('tbody tr').first();
    expect(await row.textContent()).toContain(first.position.symbol!);
    expect(await row.textContent()).toContain(usd(first.total!));
    expect(await row.textContent()).toContain(first.verdict.reasons[0]!.text);
    expect(await row.textContent()).toMatch(/the rules \(score \d+\)|a list|you/);
    await settled(page);
    await bothThemes(page, 'spam-overview');

    // "Not spam" on the largest claim: the token for every wallet; the figures load again with it.
    await row.getByRole('button', { name: `Not spam: put ${first.position.symbol} on ${chainName(first.chain)} back in the totals, for every wallet` }).click();
    const after = usd(view.totals.total! + first.total!);
    await poll(() => total.textContent()).toBe(after);
    await poll(() => line.textContent()).toMatch(new RegExp(`^${view.spam.count - 1} spam tokens? left out`));
    const now = await web.core.call('portfolio.view', { date: DATES.to });
    expect(usd(now.totals.total!)).toBe(after);
    expect(await web.core.call('spam.verdicts', undefined)).toEqual([
      expect.objectContaining({ kind: 'token', chain: first.chain, wallet: null, verdict: 'not-spam', target: expect.stringMatching(/^0x[0-9a-f]{40}$/) }),
    ]);
    const outcome = page.getByTestId('spam-outcome');
    await poll(() => outcome.textContent()).toContain(`${first.position.symbol} is marked not spam for every wallet`);
    await bothThemes(page, 'spam-overview-not-spam');

    // Undo: the lists and the rules decide again, and the total is the core's first one.
    await outcome.getByRole('button', { name: 'Undo' }).click();
    await poll(() => total.textContent()).toBe(usd(view.totals.total!));
    expect(await web.core.call('spam.verdicts', undefined)).toEqual([]);
    expect(web.problems).toEqual([]);
  });

  it('lets a genuine position be marked spam from Positions, out of the total until undone', async () => {
    const page = web.page;
    const view = await web.core.call('portfolio.view', { date: DATES.to });
    const top = view.positions[0]!;
    const name = top.position.symbol || top.position.name!;
    await web.open('#/positions');
    const foot = page.locator('tfoot tr.total td.num strong');
    await poll(() => foot.textContent()).toBe(usd(view.totals.total!));
    await poll(() => page.getByTestId('spam-line').textContent()).toMatch(/^\d+ spam tokens left out, claimed/);
    // Keyboard: the first row's expand button is the table's tab stop; Tab reaches its "Mark as spam".
    await page.locator('table.positions tbody button.expand').first().focus();
    await page.keyboard.press('Tab');
    const mark = page.getByRole('button', { name: `Mark as spam: ${name} on ${chainName(top.chain)}, for every wallet (left out of the totals)` });
    await poll(() => mark.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await poll(() => foot.textContent()).toBe(usd(view.totals.total! - top.total!));
    await poll(() => page.getByTestId('spam-line').textContent()).toMatch(new RegExp(`^${view.spam.count + 1} spam tokens left out`));
    await bothThemes(page, 'spam-positions-marked');
    await page.getByTestId('spam-outcome').getByRole('button', { name: 'Undo' }).click();
    await poll(() => foot.textContent()).toBe(usd(view.totals.total!));
    expect(web.problems).toEqual([]);
  });

  it('marks the payment to a lookalike with a danger badge naming the address it imitates', async () => {
    const page = web.page;
    const [alert] = (await web.core.call('alerts.inbox', { all: true })).alerts.filter((a) => a.kind === 'address-poisoning');
    expect(alert).toBeTruthy();
    const { txnHash, lookalike, imitates, prefix, suffix } = alert!.facts as Record<string, string>;
    await web.open(`#/timeline?wallet=${WALLET}&q=${txnHash}`);
    const badge = page.getByTestId('lookalike');
    await poll(() => badge.count()).toBe(1);
    expect(await badge.textContent()).toBe('Lookalike address');
    expect(await badge.getAttribute('title')).toBe(
      `Paid to a lookalike of ${imitates}: the same first characters ${prefix} and last …${suffix}, another middle. Check that this payment reached whom it was meant for.`,
    );
    expect(await page.getByTestId('imitates').textContent()).toBe(`looks like ${short(imitates!)} (same ${prefix}…${suffix})`);
    // The lookalike's mark stands for "to unknown" there: one mark, the louder.
    expect(await page.getByTestId('to-unknown').count()).toBe(0);
    await settled(page);
    await bothThemes(page, 'spam-timeline-lookalike-row');
    await page.locator('[role=row].txn').first().click();
    const verdict = page.getByRole('dialog', { name: 'Transaction detail' }).getByTestId('txn-spam');
    await poll(() => verdict.textContent()).toContain(`Paid to ${lookalike}, a lookalike of ${imitates}: both start ${prefix} and end …${suffix}.`);
    await settled(page);
    await bothThemes(page, 'spam-timeline-lookalike');
    await page.keyboard.press('Escape');
    expect(web.problems).toEqual([]);
  });

  it('shows the poisoning alert in the inbox at high severity, naming both addresses and what they share', async () => {
    const page = web.page;
    const [alert] = (await web.core.call('alerts.inbox', {})).alerts.filter((a) => a.kind === 'address-poisoning');
    const { lookalike, imitates, prefix, suffix } = alert!.facts as Record<string, string>;
    await page.getByRole('button', { name: /^Alerts:/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Alerts' });
    const item = dialog.locator('li[data-kind="address-poisoning"]');
    await poll(() => item.count()).toBe(1);
    expect(await item.locator('.badge.high').textContent()).toBe('High');
    const text = (await item.textContent())!;
    expect(text).toContain(`Payment to a lookalike address ${lookalike}`);
    expect(text).toContain(`to ${lookalike}, which is not ${imitates}, the counterparty it imitates: both start ${prefix} and end …${suffix}.`);
    await bothThemes(page, 'spam-alerts');
    await page.keyboard.press('Escape');

    // The user vouches for the lookalike (not spam): the guard takes the alert back, and the inbox says why.
    await web.core.call('spam.mark', { kind: 'address', target: lookalike!, verdict: 'not-spam' });
    await web.core.call('sync.settle', undefined);
    await page.getByRole('button', { name: /^Alerts:/ }).click();
    await poll(() => item.locator('.resolution').textContent()).toBe(
      `Cleared: No longer a payment to a lookalike: you marked ${lookalike} not spam for every wallet, a counterparty you vouched for (remove that to be warned again).`,
    );
    expect(await item.textContent()).toMatch(/cleared /);
    await bothThemes(page, 'spam-alerts-taken-back');
    await page.keyboard.press('Escape');
    // Cleared again: the payment is to a lookalike once more, and a new alert says so.
    await web.core.call('spam.clear', { kind: 'address', target: lookalike! });
    await web.core.call('sync.settle', undefined);
    expect((await web.core.call('alerts.inbox', {})).alerts.filter((a) => a.kind === 'address-poisoning' && a.resolvedAt === null)).toHaveLength(1);
    expect(web.problems).toEqual([]);
  });

  it('dims the timeline’s spam (hidden on request), and the detail says why and takes the user’s say', async () => {
    const page = web.page;
    await web.open(`#/timeline?wallet=${WALLET}`);
    const badges = page.getByTestId('spam-badge');
    await poll(() => badges.count()).toBeGreaterThan(0);
    await settled(page);
    await bothThemes(page, 'spam-timeline');

    const spamRow = page.locator('[role=row].txn.spam').first();
    await spamRow.click();
    const drawer = page.getByRole('dialog', { name: 'Transaction detail' });
    const verdict = drawer.getByTestId('txn-spam');
    await poll(() => verdict.textContent()).toContain('Judged spam: left out of every figure.');
    expect(await verdict.textContent()).toMatch(/Decided by (the rules \(score \d+\)|a list)\./);
    await bothThemes(page, 'spam-timeline-detail');
    await verdict.getByRole('heading', { name: 'Your say, for every wallet' }).scrollIntoViewIfNeeded();
    await bothThemes(page, 'spam-timeline-detail-say');

    // The counterparty (the poisoner's lookalike) called spam by the user: the user decides now;
    // cleared, the rules (or a list) again. (Calling a poisoner genuine would make it a known
    // counterparty, and the real one's payments lookalikes of it: docs/spam.md.)
    const rulesSaid = (await verdict.textContent())!.match(/Decided by [^.]*\./)![0];
    await verdict.getByRole('button', { name: 'Mark Counterparty as spam' }).click();
    await poll(() => verdict.textContent()).toContain('Decided by you.');
    expect(await verdict.getByRole('button', { name: 'Mark Counterparty as spam' }).getAttribute('aria-pressed')).toBe('true');
    const marks = await web.core.call('spam.verdicts', undefined);
    expect(marks).toEqual([expect.objectContaining({ kind: 'address', verdict: 'spam', wallet: null })]);
    await verdict.getByRole('button', { name: 'Clear your verdict on Counterparty' }).click();
    await poll(() => verdict.textContent()).toContain(rulesSaid);
    expect(await web.core.call('spam.verdicts', undefined)).toEqual([]);
    await page.keyboard.press('Escape');

    // Hide spam: the rows judged spam leave the list (not the cache), and the count of them is said.
    await page.getByTestId('hide-spam').check();
    await poll(() => page.getByTestId('spam-hidden').textContent()).toMatch(/^· \d+ spam hidden$/);
    await poll(() => badges.count()).toBe(0);
    expect(page.url()).toContain('spam=hide');
    await page.getByTestId('hide-spam').uncheck();
    await poll(() => badges.count()).toBeGreaterThan(0);
    expect(web.problems).toEqual([]);
  });

  it('says beside the pack’s NAV lines and the roll-forward what spam they leave out', async () => {
    const page = web.page;
    const pack = await web.core.call('pack.get', { from: '2026-10-01', to: DATES.to });
    const [opening, closing] = [await web.core.call('portfolio.view', { date: '2026-10-01' }), await web.core.call('portfolio.view', { date: DATES.to })];
    expect(pack.spamTransactions).toBeGreaterThan(0);
    await web.open(`#/pack?from=2026-10-01&to=${DATES.to}`);
    const block = page.getByTestId('pack-spam');
    await poll(() => block.getByTestId('pack-spam-transactions').textContent()).toBe(
      `${pack.spamTransactions} spam transactions left out of the flows, counterparties and flags`,
    );
    expect(await block.getByTestId('spam-line').allTextContents()).toEqual([
      `Oct 1, 2026: ${opening.spam.count} spam tokens left out, claimed ${compact(opening.spam.claimed!)}`,
      `Nov 1, 2026: ${closing.spam.count} spam tokens left out, claimed ${compact(closing.spam.claimed!)}`,
    ]);
    await block.getByRole('button', { name: 'Show them' }).last().click();
    await poll(() => block.getByTestId('spam-table').locator('tbody tr').count()).toBe(closing.spam.count);
    await block.scrollIntoViewIfNeeded();
    await settled(page);
    await bothThemes(page, 'spam-pack');

    const rec = await web.core.call('reconcile.get', { from: '2026-10-01', to: DATES.to });
    expect(rec.spam.length).toBeGreaterThan(0);
    await web.open(`#/reconcile?from=2026-10-01&to=${DATES.to}`);
    await poll(() => page.getByTestId('spam-line').textContent()).toBe(`${rec.spam.length} spam tokens left out of the roll-forward`);
    await page.getByRole('button', { name: 'Show them' }).click();
    await poll(() => page.getByTestId('spam-table').locator('tbody tr').count()).toBe(rec.spam.length);
    await settled(page);
    await bothThemes(page, 'spam-reconcile');
    expect(web.problems).toEqual([]);
  });

  it('lists the user’s verdicts and the lists in Settings, each verdict cleared there', async () => {
    const page = web.page;
    const [first] = (await web.core.call('portfolio.view', { date: DATES.to })).spam.rows;
    await web.open('#/overview');
    await page.getByRole('button', { name: 'Show them' }).click();
    await page
      .getByRole('button', { name: `Not spam: put ${first!.position.symbol} on ${chainName(first!.chain)} back in the totals, for every wallet` })
      .click();
    await poll(async () => (await web.core.call('spam.verdicts', undefined)).length).toBe(1);
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const section = dialog.locator('section[aria-labelledby="spam-title"]');
    await section.scrollIntoViewIfNeeded();
    const verdicts = section.getByTestId('spam-verdicts');
    await poll(() => verdicts.locator('li').count()).toBe(1);
    expect(await verdicts.textContent()).toMatch(/not spam.*Token on (Ethereum|Arbitrum)[^,]*, for every wallet/);
    const lists = section.getByTestId('spam-lists');
    expect(await lists.textContent()).toContain('Folioscope defaults');

    // A list imported: checked whole by the core, then listed with what it holds; removed again.
    const file = join(web.dataDir, 'ops-list.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'Ops list',
        tokens: [],
        addresses: [{ address: `0x${'ab'.repeat(20)}`, verdict: 'spam', note: 'poisoner' }],
        symbolPatterns: [],
      }),
    );
    await section.getByLabel('List file').setInputFiles(file);
    await section.getByRole('button', { name: 'Import', exact: true }).click();
    await poll(() => section.getByRole('status').textContent()).toBe('Imported “Ops list”: 0 tokens, 1 address, 0 patterns.');
    await poll(() => lists.locator('li').count()).toBe(2);
    await bothThemes(page, 'spam-settings');
    await lists.getByRole('button', { name: 'Remove the list Ops list' }).click();
    await poll(() => lists.locator('li').count()).toBe(1);

    await verdicts.getByRole('button', { name: /^Clear your verdict on Token 0x/ }).click();
    await poll(() => section.getByText('No verdicts yet').count()).toBe(1);
    expect(await web.core.call('spam.verdicts', undefined)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(web.problems).toEqual([]);
  });
});
