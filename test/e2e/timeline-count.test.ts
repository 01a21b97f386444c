import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding (issue 27): the timeline said "500+ transactions" where its CSV export held 6,000.
 * It says the count the export of the same filters holds, as soon as it is known.
 */
const TXNS = 1_300;
const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: TXNS }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  },
});

describe('the timeline says how many transactions match', () => {
  it('all of them, not the rows loaded so far; and with a filter, what its export holds', async () => {
    await web.page.goto(`${web.shell.url}#/timeline`);
    await expect
      .poll(
        () =>
          web.page
            .getByText(/^[\d,]+\+? transactions?( match(es)?)?$/)
            .first()
            .textContent(),
        { timeout: 20_000 },
      )
      .toBe('1,300 transactions');
    const swaps = await web.core.call('timeline.count', { actionTypes: ['swap'] });
    expect(swaps).toBeGreaterThan(0);
    expect(swaps).toBeLessThan(TXNS);
    await web.page.goto(`${web.shell.appUrl}#/timeline?action=swap`);
    await expect
      .poll(
        () =>
          web.page
            .getByText(/^[\d,]+\+? transactions? match(es)?$/)
            .first()
            .textContent(),
        { timeout: 20_000 },
      )
      .toBe(`${swaps.toLocaleString('en-US')} transaction${swaps === 1 ? ' matches' : 's match'}`);
    expect(web.problems).toEqual([]);
  });
});
