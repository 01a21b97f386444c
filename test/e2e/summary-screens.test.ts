import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../../src/shared/model.ts';
import { positionTotals } from '../../src/shared/portfolio/totals.ts';
import { headroom } from '../../src/shared/headroom.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { COLD, poll, settled, shootBothThemes, useWebSession } from '../support/web-session.ts';

/**
 * The screens ask for what they show, never the whole portfolio view (issue 40 item 2): at a
 * fund's scale the view is hundreds of megabytes of JSON. Overview reads `portfolio.summary`,
 * Risk `risk.lending` and `risk.unlocks`, the Monthly pack a summary at each end; each in
 * Chromium over the web shell, every request it sends recorded, in every scope. What they show
 * is held to the core's whole view (read here, by the test, not by a screen): the same totals,
 * each wallet's totals, the largest tokens and their holders, the spam left out, the lending
 * positions and the unlocks. A demo world with spam in it (the treasury on eth and arb) and a
 * second wallet, so the wallets table has two rows and a group two members. At 1024 px, light
 * and dark.
 */
const DATES = { from: '2026-10-01', to: '2026-11-01' };
const web = useWebSession({
  viewport: { width: 1024, height: 768 },
  core: { demo: demoStarter({ now: () => SIM_NOW, spam: true, txnsPerWallet: 200 }), scheduleEveryMs: 0, now: () => SIM_NOW },
  clock: SIM_NOW,
  timeout: 180_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
    await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold storage' });
    const jobs: JobInfo[] = [await core.call('sync.transactions', { wallet: WALLET })];
    for (const wallet of [WALLET, COLD]) jobs.push(await core.call('sync.backfill', { wallet, from: DATES.from, to: DATES.to, every: 'month' }));
    await waitForJobs(core, jobs);
    await core.call('sync.settle', undefined);
  },
});

/** Money as the page formats it (Chromium's locale here is en-US); an unknown figure is a dash. */
const usd = (v: number | null) =>
  v === null ? '—' : new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v);

const count = (n: number) => new Intl.NumberFormat('en-US').format(n);

/** The operations the page asks the core for from now on (the web shell's /api/<operation>). */
function recordOps(): { ops: string[] } {
  const seen = { ops: [] as string[] };
  web.page.on('request', (r) => {
    const at = new URL(r.url()).pathname.indexOf('/api/');
    if (at >= 0) seen.ops.push(new URL(r.url()).pathname.slice(at + '/api/'.length));
  });
  return seen;
}

async function show(route: string) {
  await web.open(route);
  await poll(() => web.page.evaluate(() => location.hash)).toBe(route);
  await settled(web.page);
}

describe('the screens ask for what they show', () => {
  it('Overview, Risk and the Monthly pack never ask for the whole portfolio view, in any scope', async () => {
    const group = await web.core.call('groups.save', { name: 'Both', wallets: [WALLET, COLD] });
    const seen = recordOps();
    for (const scope of ['', `?wallet=${WALLET}`, `?group=${group.id}`]) {
      await show(`#/overview${scope}`);
      await poll(() => web.page.getByTestId('total-nav').isVisible()).toBe(true);
      await show(`#/risk${scope}`);
      await poll(() => web.page.getByRole('heading', { name: /Unlock/ }).count()).toBeGreaterThan(0);
      await show(`#/pack${scope ? `${scope}&` : '?'}from=${DATES.from}&to=${DATES.to}`);
      await poll(() => web.page.getByTestId('pack-spam').count()).toBeGreaterThan(0);
    }
    // They asked what they show (so the recording works), and never the whole view.
    for (const op of ['portfolio.summary', 'risk.lending', 'risk.unlocks', 'nav.history', 'pack.get']) expect(seen.ops, op).toContain(op);
    expect(seen.ops.filter((op) => op === 'portfolio.view')).toEqual([]);
    await web.core.call('groups.remove', { id: group.id });
    expect(web.problems).toEqual([]);
  }, 120_000);

  // At a fund's scale NAV over dates built from nothing takes seconds (bench/RESULTS.md): asked
  // with the totals, the totals waited for it. Held here in the browser until the test lets it go.
  it('Overview shows its totals while NAV over dates is still on its way, and asks for NAV once they have come', async () => {
    const page = web.page;
    const view = await web.core.call('portfolio.view', { date: DATES.to });
    await show('#/risk');
    const events: string[] = [];
    const opOf = (url: string) => new URL(url).pathname.split('/api/')[1] ?? '';
    const asked = (r: { url(): string }) => events.push(`ask ${opOf(r.url())}`);
    const answered = (r: { url(): string }) => events.push(`answer ${opOf(r.url())}`);
    page.on('request', asked);
    page.on('requestfinished', answered);
    let release!: () => void;
    let held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/nav.history', async (route) => {
      await held;
      // A request the page gave up meanwhile (a newer load) is already done with.
      await route.continue().catch(() => undefined);
    });
    try {
      await web.open('#/overview');
      await poll(() => page.getByTestId('total-nav').textContent()).toBe(usd(view.totals.total));
      // The chart's place says it is loading; the totals and the rest are on screen.
      const chart = page.locator('section.card', { has: page.getByRole('heading', { name: 'NAV over dates' }) });
      await poll(() => chart.locator('[aria-busy=true]').count()).toBe(1);
      expect(await page.getByRole('img', { name: /^NAV over \d+ cached dates$/ }).count()).toBe(0);
      // Looked at: the totals, and the chart's placeholder (not "settled": its skeleton is held).
      await chart.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(import.meta.dirname, '../../test-results/screenshots/overview-nav-on-its-way.png') });
      release();
      await poll(() => page.getByRole('img', { name: /^NAV over \d+ cached dates$/ }).count()).toBe(1);
      expect(await chart.locator('[aria-busy=true]').count()).toBe(0);
      // Another range: the chart of the last one is not shown while the new one is held (the totals stay: the range is none of theirs).
      held = new Promise<void>((resolve) => (release = resolve));
      const range = page.getByRole('group', { name: 'Range' });
      const other = (await range.getByRole('button', { pressed: true }).textContent()) === 'All' ? '1y' : 'All';
      await range.getByRole('button', { name: other, exact: true }).click();
      await poll(() => chart.locator('[aria-busy=true]').count()).toBe(1);
      expect(await page.getByRole('img', { name: /^NAV over \d+ cached dates$/ }).count()).toBe(0);
      expect(await page.getByTestId('total-nav').textContent()).toBe(usd(view.totals.total));
      release();
      await poll(() => page.getByRole('img', { name: /^NAV over \d+ cached dates$/ }).count()).toBe(1);
    } finally {
      release();
      await page.unroute('**/api/nav.history');
      page.off('request', asked);
      page.off('requestfinished', answered);
    }
    // NAV was asked only once the totals had been answered.
    const firstNav = events.indexOf('ask nav.history');
    expect(firstNav).toBeGreaterThan(events.indexOf('answer portfolio.summary'));
    expect(events.indexOf('answer portfolio.summary')).toBeGreaterThanOrEqual(0);
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('Overview shows the view’s figures: totals, each wallet’s, the largest tokens and their holders, the spam left out', async () => {
    const page = web.page;
    const view = await web.core.call('portfolio.view', { date: DATES.to });
    await show('#/overview');
    // Polled: the screen before may still show for a frame or two after the hash changed.
    await poll(() => page.locator('.kpi strong').allTextContents()).toEqual([
      usd(view.totals.total),
      usd(view.totals.principal),
      usd(view.totals.reward),
      count(view.totals.count),
    ]);
    // Each wallet's row: its totals by the view's rule over its rows.
    const wallets = page.locator('section.card', { has: page.getByRole('heading', { name: 'Wallets', exact: true }) }).locator('tbody tr');
    await poll(() => wallets.count()).toBe(view.wallets.length);
    for (const [i, address] of view.wallets.entries()) {
      const t = positionTotals(view.positions.filter((r) => r.wallet === address).map((r) => r.position));
      expect(await wallets.nth(i).locator('td.num').allTextContents(), address).toEqual([usd(t.total), usd(t.principal), usd(t.reward), count(t.count)]);
    }
    // The largest tokens, their value; the first one's holders beneath it when opened.
    const tokens = page.getByTestId('exposure').locator('tbody tr:not(.sub)');
    const top = view.exposure.tokens.slice(0, 10);
    await poll(() => tokens.count()).toBe(top.length);
    for (const [i, t] of top.entries()) expect(await tokens.nth(i).locator('td.num').nth(1).textContent(), t.symbol ?? '').toBe(usd(t.totalNav));
    await tokens.first().getByRole('button').click();
    const holders = page.getByTestId('exposure').locator('tbody tr.sub');
    await poll(() => holders.count()).toBe(Math.min(10, top[0]!.wallets.length) + (top[0]!.wallets.length > 10 ? 1 : 0));
    for (const [i, w] of top[0]!.wallets.slice(0, 10).entries()) expect(await holders.nth(i).locator('td.num').nth(1).textContent()).toBe(usd(w.nav));
    // The spam left out: counted as the view counts it, its rows listed when asked.
    expect(view.spam.count).toBeGreaterThan(0);
    await poll(() => page.getByTestId('spam-line').textContent()).toMatch(new RegExp(`^${view.spam.count} spam tokens? left out`));
    await page.getByRole('button', { name: 'Show them' }).click();
    await poll(() => page.getByTestId('spam-table').locator('tbody tr').count()).toBe(Math.min(100, view.spam.count));
    await page.getByRole('button', { name: 'Hide them' }).click();
    await tokens.first().getByRole('button').click();
    // The top of the screen: the totals and the spam line beside them.
    await page.locator('main .bar').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shootBothThemes(page, 'summary-overview-1024');
    expect(web.problems).toEqual([]);
  });

  it('Risk shows the view’s lending positions and unlocks', async () => {
    const page = web.page;
    const view = await web.core.call('portfolio.view', { date: DATES.to });
    await show('#/risk');
    // The screen groups the positions with a headroom by collateral token (lib/risk-groups.ts): one
    // table per token, a row per position and token, said here apart from the screen's code.
    const lending = view.risk.positions.filter((p) => headroom(p.collateralDebtRatio, p.liqThreshold));
    const symbols = [...new Set(lending.flatMap((p) => p.collateral.map((c) => (c.symbol ?? c.tokenId).toUpperCase())))];
    expect(symbols.length).toBeGreaterThan(0);
    expect(view.unlocks.unlocks.length).toBeGreaterThan(0);
    await poll(() => page.getByTestId('stress-summary').count()).toBe(symbols.length);
    const shown = (await page.locator('.group h3').allTextContents()).map((t) => t.trim().split(/\s/)[0]!.toUpperCase());
    expect(shown.sort()).toEqual(symbols.sort());
    expect(await page.locator('.group tbody tr').count()).toBe(lending.reduce((n, p) => n + p.collateral.length, 0));
    // Each lending position by name, as the view has it.
    const text = await page.locator('.group').allTextContents();
    for (const p of lending) expect(text.join(' ')).toContain(p.name ?? '');
    expect(await page.getByRole('table', { name: 'Upcoming unlocks' }).locator('tbody tr').count()).toBe(view.unlocks.unlocks.length);
    await shootBothThemes(page, 'summary-risk-1024');
    expect(web.problems).toEqual([]);
  });

  it('the Monthly pack says the spam each end’s view leaves out', async () => {
    const page = web.page;
    const [opening, closing] = [await web.core.call('portfolio.view', { date: DATES.from }), await web.core.call('portfolio.view', { date: DATES.to })];
    await show(`#/pack?from=${DATES.from}&to=${DATES.to}`);
    const block = page.getByTestId('pack-spam');
    const compact = (v: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(v);
    await poll(() => block.getByTestId('spam-line').allTextContents()).toEqual([
      `Oct 1, 2026: ${opening.spam.count} spam tokens left out, claimed ${compact(opening.spam.claimed!)}`,
      `Nov 1, 2026: ${closing.spam.count} spam tokens left out, claimed ${compact(closing.spam.claimed!)}`,
    ]);
    await block.getByRole('button', { name: 'Show them' }).last().click();
    await poll(() => block.getByTestId('spam-table').locator('tbody tr').count()).toBe(Math.min(100, closing.spam.count));
    await shootBothThemes(page, 'summary-pack-1024');
    expect(web.problems).toEqual([]);
  });
});
