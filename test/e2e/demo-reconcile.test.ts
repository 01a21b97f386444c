import { describe, expect, it } from 'vitest';
import { demoStarter } from '../../src/sim/demo.ts';
import { bothThemes } from './axe.ts';
import { waitForJobs } from '../support/jobs.ts';
import { poll, useWebSession } from '../support/web-session.ts';

/**
 * Reconcile in the demo, as a newcomer tries it (issue 27): the plain balances reconcile to the
 * unit, so a remainder is the change inside protocol positions (interest, rebases, rewards,
 * pools). The screen says so ("in positions"), never a red "unexplained" for money that did not
 * leave; a remainder in a plain balance would still read "unexplained".
 */
const WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
const FROM = '2026-09-30';
const TO = '2026-10-31';

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  // The demo as users get it: the service's clock is this computer's.
  core: { demo: demoStarter(), scheduleEveryMs: 0 },
  timeout: 120_000,
  seed: async (core) => {
    for (const w of WALLETS) await core.call('wallets.add', w);
    await waitForJobs(core, await core.call('sync.all', undefined));
    for (const w of WALLETS) await waitForJobs(core, await Promise.all([FROM, TO].map((date) => core.call('sync.positions', { wallet: w.address, date }))));
  },
});

describe('Reconcile in the demo', () => {
  it('says a remainder held in protocol positions is that, not money unexplained', async () => {
    const r = await web.core.call('reconcile.get', { from: FROM, to: TO });
    const inPositions = r.rows.filter((x) => x.status === 'unexplained' && x.wallet_unexplained_qty === 0).length;
    const plain = r.rows.filter((x) => x.status === 'unexplained' && x.wallet_unexplained_qty !== 0).length;
    expect(r.complete).toBe(true);
    expect(inPositions).toBeGreaterThan(0);
    await web.open(`#/reconcile?from=${FROM}&to=${TO}`);
    const summary = web.page.getByText(/tokens: \d+ with flows reconcile exactly/);
    await poll(() => summary.textContent()).toContain(`${plain} show an unexplained remainder`);
    expect(await summary.textContent()).toContain(`${inPositions} more changed only inside protocol positions`);
    const badges = web.page.locator('table[aria-label="Roll-forward by token"] tbody td .badge');
    await poll(() => badges.filter({ hasText: /^in positions$/ }).count()).toBe(inPositions);
    expect(await badges.filter({ hasText: /^unexplained$/ }).count()).toBe(plain);
    await bothThemes(web.page, 'demo-reconcile');
    expect(web.problems).toEqual([]);
  });

  it('opens, with no period asked, on the last complete one: both ends cached, and complete', async () => {
    await web.open('#/reconcile');
    await poll(() => web.page.getByText(/^Complete\./).count()).toBe(1);
    expect(await web.page.getByText('Incomplete — these figures rest on missing data:').count()).toBe(0);
    // Both ends are cached dates, the closing one a day that has ended.
    const cached = await web.core.call('positions.dates', {});
    const ends = await web.page.locator('#reconcile-from, #reconcile-to').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(ends).toHaveLength(2);
    const badges = web.page.locator('.picker .badge');
    expect(await badges.allTextContents()).toEqual(expect.arrayContaining(['cached']));
    expect(cached.length).toBeGreaterThanOrEqual(2);
    expect(web.problems).toEqual([]);
  });
});
