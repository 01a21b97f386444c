import { describe, expect, it } from 'vitest';
import { SIM_NOW } from '../support/sim.ts';
import { waitForJobs } from '../support/jobs.ts';
import { settled, useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { worldLoans } from '../support/world.ts';

/** The Reconcile and Risk views in Chromium, light and dark, against the demo service. */
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const COLD = '0x00000000219ab540356cbb839cbe05303d7705fa';
const web = useWebSession({
  viewport: { width: 1360, height: 900 },
  core: { demo: demoStarter({ txnsPerWallet: 2000, now: () => SIM_NOW }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: ADDRESS, chains: ['eth', 'arb'], label: 'Treasury' });
    // A second wallet that holds a vote-escrow lock, for the unlock ladder.
    await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold' });
    await waitForJobs(core, [
      await core.call('sync.backfill', { wallet: ADDRESS, from: '2025-01-31', to: '2025-12-31', every: 'month' }),
      await core.call('sync.transactions', { wallet: ADDRESS }),
      await core.call('sync.positions', { wallet: COLD, date: '2025-12-31' }),
    ]);
  },
  timeout: 120_000,
});

const open = async (hash: string) => {
  await web.open();
  await web.page.evaluate((h) => (location.hash = h), hash);
};

describe('treasury views', () => {
  it('Reconcile: a complete roll-forward, rows that reconcile exactly, a token traced to its transactions', async () => {
    await open(`#/reconcile?wallet=${ADDRESS}&date=2025-12-31&from=2025-01-31`);
    await expect
      .poll(() => web.page.getByTestId('reconcile-verdict').textContent(), { timeout: 15_000 })
      .toMatch(/Complete\. \d+ tokens: \d+ that moved reconciles? exactly/);
    const r = await web.core.call('reconcile.get', { wallet: ADDRESS, from: '2025-01-31', to: '2025-12-31' });
    const rows = web.page.locator('table[aria-label="Roll-forward by token"] > tbody > tr');
    expect(await rows.count()).toBe(r.rows.length);
    expect(await web.page.locator('tbody .badge', { hasText: 'reconciled' }).count()).toBe(r.rows.filter((x) => x.status === 'reconciled').length);
    await bothThemes(web.page, 'reconcile');
    const unexplained = r.rows.find((x) => x.status === 'unexplained' && x.chain === 'eth')!;
    await rows.filter({ hasText: unexplained.token_name! }).filter({ hasText: 'eth' }).first().click();
    const trace = web.page.locator(`table[aria-label="Transactions that moved ${unexplained.token_symbol}"] tbody tr`);
    await expect
      .poll(() => trace.count(), { timeout: 10_000 })
      .toBe(
        Math.min(
          200,
          (await web.core.call('reconcile.trace', { wallet: ADDRESS, chain: 'eth', tokenCid: unexplained.token_cid!, from: '2025-01-31', to: '2025-12-31' }))
            .length,
        ),
      );
    await bothThemes(web.page, 'reconcile-trace');
  });

  it('Reconcile: says plainly when a date is not cached, and offers to fetch it', async () => {
    await open(`#/reconcile?wallet=${ADDRESS}&date=2025-12-31&from=2025-02-01`);
    await expect.poll(() => web.page.getByTestId('reconcile-verdict').textContent(), { timeout: 15_000 }).toContain('positions at 2025-02-01 are not cached');
    await expect.poll(() => web.page.getByRole('button', { name: /^Fetch/ }).count()).toBe(1);
    await bothThemes(web.page, 'reconcile-incomplete');
  });

  // Finding (issue 27): picking Reconcile's closing date silently moved the as-of date every
  // other view shows. The period is its own.
  it('Reconcile: picking the closing date moves the period, not the app’s as-of date', async () => {
    await open(`#/reconcile?wallet=${ADDRESS}&date=2025-12-31&from=2025-01-31`);
    await expect.poll(() => web.page.getByTestId('reconcile-verdict').textContent(), { timeout: 15_000 }).toMatch(/Complete\./);
    const asOf = await web.page.getByLabel('As of').inputValue();
    await web.page.locator('#reconcile-to').fill('2025-11-30');
    await web.page.locator('#reconcile-to').press('Enter');
    await expect.poll(() => web.page.evaluate(() => location.hash)).toMatch(/to=2025-11-30/);
    expect(await web.page.getByLabel('As of').inputValue()).toBe(asOf);
    expect(await web.page.evaluate(() => location.hash)).toMatch(/date=2025-12-31/);
    await web.page.getByRole('tab', { name: 'Overview' }).click();
    expect(await web.page.getByLabel('As of').inputValue()).toBe(asOf);
  });

  it('Risk: headroom by collateral with a stress control, health history, unlock ladder', async () => {
    await open(`#/risk?wallet=${ADDRESS}&date=2025-12-31`);
    const summary = web.page.getByTestId('stress-summary').first();
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toMatch(/A 25% fall in \S+ reaches/);
    // At a 90% fall every lending position crosses.
    await web.page.locator('#stress').fill('90');
    await expect.poll(() => summary.textContent()).toMatch(/A 90% fall in \S+ reaches the threshold of \d+ loans? worth \$/);
    // Each collateral token's summary as the world has it (test/support/world.ts): at each fall,
    // how many of the wallet's loans reach the threshold and what they owe, to the cent the service sends.
    const loans = worldLoans([{ address: ADDRESS, chains: ['eth', 'arb'] }], '2025-12-31');
    const symbols = [...new Set(loans.map((l) => l.symbol))].sort();
    expect(symbols.length).toBeGreaterThan(1);
    for (const stress of [25, 50, 90]) {
      await web.page.locator('#stress').fill(String(stress));
      const want = symbols.map((symbol) => {
        const crossing = loans.filter((l) => l.symbol === symbol && l.health * (1 - stress / 100) < 1);
        const debt = crossing.reduce((a, l) => a + l.debtUsd, 0);
        return { symbol, crossing: crossing.length, debt };
      });
      await expect.poll(() => web.page.getByTestId('stress-summary').first().textContent()).toContain(`A ${stress}% fall in ${symbols[0]}`);
      const texts = await web.page.getByTestId('stress-summary').allTextContents();
      expect(
        texts.map((t) =>
          t
            .replace(/\s+/g, ' ')
            .trim()
            .replace(/ worth \$[\d,.]+$/, ''),
        ),
      ).toEqual(
        want.map((w) =>
          w.crossing
            ? `A ${stress}% fall in ${w.symbol} reaches the threshold of ${w.crossing} loan${w.crossing === 1 ? '' : 's'}`
            : `A ${stress}% fall in ${w.symbol} reaches no threshold`,
        ),
      );
      for (const [i, w] of want.entries())
        if (w.crossing) expect(Math.abs(Number(/worth \$([\d,.]+)/.exec(texts[i]!)![1]!.replace(/,/g, '')) - w.debt)).toBeLessThanOrEqual(0.006 * w.crossing);
    }
    await web.page.locator('#stress').fill('30');
    await web.page.locator('.group tbody tr').first().click();
    await expect.poll(() => web.page.getByTestId('near-misses').textContent(), { timeout: 10_000 }).toMatch(/\d+ cached dates; /);
    await settled(web.page);
    await bothThemes(web.page, 'risk');
    await web.page.locator('#health-title').scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'risk-health');
    await web.page.locator('#unlock-title').scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'risk-unlocks');
    // All wallets: the ladder lists the cold wallet's lock, as the core reports it.
    await open('#/risk?date=2025-12-31');
    const ladderRows = web.page.locator('table[aria-label="Upcoming unlocks"] tbody tr');
    const expected = (await web.core.call('risk.unlocks', { date: '2025-12-31' })).unlocks;
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => ladderRows.count(), { timeout: 10_000 }).toBe(expected.length);
    expect(await ladderRows.first().textContent()).toContain('Cold');
    await web.page.locator('#unlock-title').scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'risk-unlocks-all');
    expect(web.problems).toEqual([]);
  });

  // Finding (issue 39): the NAV chart's date labels overlapped at 1024 px with the wallet list
  // open. The axis now measures its labels and keeps as many as fit (date-ticks.ts, tested in Node).
  it('Overview: a year of month ends at 1024 px with the wallet list open, every date label whole', async () => {
    await web.page.setViewportSize({ width: 1024, height: 768 });
    await open(`#/overview?wallet=${ADDRESS}&date=2025-12-31&range=1y`);
    await web.page.getByRole('button', { name: 'Show the wallet list' }).click();
    const chart = web.page.getByRole('img', { name: /^NAV over \d+ cached dates$/ });
    await expect.poll(() => chart.count(), { timeout: 15_000 }).toBe(1);
    await settled(web.page);
    await chart.scrollIntoViewIfNeeded();
    await bothThemes(web.page, 'nav-chart-1024-wallets-open');
    await web.page.setViewportSize({ width: 1360, height: 900 });
    expect(web.problems).toEqual([]);
  });
});
