import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { positionTotals } from '../../src/shared/portfolio/totals.ts';
import { seedFund } from '../support/fund.ts';
import { poll, settled, shootBothThemes, useWebSession } from '../support/web-session.ts';

/**
 * Overview over a fund (issue 40 item 2): 120 wallets on 2 chains, 130 of the 240 wallet chains
 * not cached, filed straight into SQLite as a sync files them. The screen asks for the summary,
 * a small answer where the whole view is megabytes, and shows what it bounds as bounded: the
 * first 100 wallets with their totals and how many more, the first 12 wallet chains not cached and
 * how many more, a token's first holders and how many more. Every figure the core's view's.
 */
const DATE = '2026-10-31';
const web = useWebSession({
  viewport: { width: 1024, height: 768 },
  timeout: 180_000,
  prepare: (dataDir) => {
    const db = openDatabase(join(dataDir, 'demo.sqlite'));
    seedFund(db, { wallets: 120, chains: 2, date: DATE, notCached: 130 });
    db.close();
  },
});

const usd = (v: number | null) =>
  v === null ? '—' : new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v);
const count = (n: number) => new Intl.NumberFormat('en-US').format(n);

describe('Overview over a fund of 120 wallets', () => {
  it('asks for the summary only, and lists what it bounds with how many more', async () => {
    const page = web.page;
    const answers: Array<{ op: string; bytes: number }> = [];
    page.on('response', async (r) => {
      const path = new URL(r.url()).pathname;
      if (!path.includes('/api/') || path.includes('/api/events')) return;
      answers.push({ op: path.slice(path.indexOf('/api/') + 5), bytes: (await r.body().catch(() => Buffer.alloc(0))).length });
    });
    const view = await web.core.call('portfolio.view', { date: DATE });
    await web.open(`#/overview?date=${DATE}`);
    await settled(page);
    await poll(() => page.getByTestId('total-nav').textContent()).toBe(usd(view.totals.total));

    // One summary, a small part of the whole view; never the view.
    await poll(() => answers.filter((a) => a.op === 'portfolio.summary').length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.op === 'portfolio.view')).toEqual([]);
    const whole = Buffer.byteLength(JSON.stringify(view));
    for (const a of answers.filter((x) => x.op === 'portfolio.summary')) expect(a.bytes).toBeLessThan(whole / 5);

    // The wallet chains not cached: counted whole, the first 12 named, the rest counted.
    const notice = page.getByTestId('partial-scope');
    await poll(() => notice.textContent()).toContain('Incomplete: 130 wallet chains are not cached');
    expect(await notice.textContent()).toContain('Fund wallet 56 (Ethereum), Fund wallet 56 (Arbitrum One),');
    expect(await notice.textContent()).toContain('Fund wallet 61 (Arbitrum One) and 118 more');

    // The first 100 wallets with their totals, and how many more.
    const section = page.locator('section.card', { has: page.getByRole('heading', { name: 'Wallets', exact: true }) });
    const rows = section.locator('tbody tr');
    await poll(() => rows.count()).toBe(100);
    for (const i of [0, 59, 99]) {
      const address = view.wallets[i]!;
      const t = positionTotals(view.positions.filter((r) => r.wallet === address).map((r) => r.position));
      expect(await rows.nth(i).locator('td.num').allTextContents(), address).toEqual([usd(t.total), usd(t.principal), usd(t.reward), count(t.count)]);
    }
    expect(await section.locator('p').last().textContent()).toBe('20 more wallets: pick one in the list, or export positions.');
    await section.locator('p').last().scrollIntoViewIfNeeded();
    await shootBothThemes(page, 'summary-fund-wallets-1024');
    await page.getByTestId('partial-scope').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shootBothThemes(page, 'summary-fund-top-1024');

    // A token held in many wallet chains: its first 10 holders, and how many more.
    const top = view.exposure.tokens[0]!;
    expect(top.wallets.length).toBeGreaterThan(10);
    const tokens = page.getByTestId('exposure').locator('tbody tr:not(.sub)');
    await tokens.first().getByRole('button').click();
    const holders = page.getByTestId('exposure').locator('tbody tr.sub');
    await poll(() => holders.count()).toBe(11);
    expect(await holders.nth(0).locator('td.num').nth(1).textContent()).toBe(usd(top.wallets[0]!.nav));
    expect(await holders.last().textContent()).toBe(`${top.wallets.length - 10} more wallet chains: see Positions › By token.`);
    await holders.last().scrollIntoViewIfNeeded();
    await shootBothThemes(page, 'summary-fund-overview-1024');
    expect(web.problems).toEqual([]);
  }, 120_000);
});
