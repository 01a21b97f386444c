import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { poll, settled, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The monthly pack of a freshly watched wallet (issue 39, Medium 15): tokens moved in the month
 * with no price cached are one finding with one way forward, not a red line per token; and the
 * pack opens on the newest month cached at both ends when there is one.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const DAY = new Date(SIM_NOW).toISOString().slice(0, 10);

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 400, now: () => SIM_NOW }), now: () => SIM_NOW },
  clock: SIM_NOW,
  timeout: 120_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth', 'arb'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: A }), await core.call('sync.positions', { wallet: A, date: DAY })]);
  },
});

describe('the monthly pack of a fresh wallet', () => {
  it('names the unpriced tokens once, with one action that fetches the prices', async () => {
    await web.open('#/pack');
    await settled(web.page);
    const verdict = web.page.getByTestId('pack-verdict');
    await poll(() => verdict.textContent()).toContain('No cached price in the period for');
    const findings = await verdict.locator('li').allTextContents();
    expect(findings.filter((f) => f.startsWith('No cached price'))).toHaveLength(1);
    expect(findings.find((f) => f.startsWith('No cached price'))).toMatch(
      /^No cached price in the period for \d+ tokens, .+: \d+ transfers not valued\. Fetch the positions at dates inside the period \(weekly\) to price them\.$/,
    );
    await shoot(web.page, 'pack-fresh-wallet');

    const before = (await web.core.call('sync.jobs', undefined)).length;
    await verdict.getByRole('button', { name: 'Fetch weekly positions in the period' }).click();
    await poll(async () => (await web.core.call('sync.jobs', undefined)).length).toBeGreaterThan(before);
    const jobs = await web.core.call('sync.jobs', undefined);
    await waitForJobs(web.core, jobs);
    // The month is now cached at both ends: the pack opens on it, its transfers priced.
    await web.open('#/overview');
    await web.open('#/pack');
    await settled(web.page);
    await poll(() => verdict.textContent()).not.toContain('No cached price');
    await shoot(web.page, 'pack-fresh-wallet-priced');
    expect(web.problems).toEqual([]);
  });
});
