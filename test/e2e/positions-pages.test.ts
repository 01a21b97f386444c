import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import type { LiquidityPage, PositionsPage, RowQuery, TokensPage } from '../../src/shared/portfolio/summary.ts';
import { seedFund } from '../support/fund.ts';
import { poll, recordAsks, settled, shootBothThemes, useWebSession, type ApiAsk } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * Positions page by page (issue 40 item 2), in real Chromium over a fund's cache filed straight
 * into SQLite (24 wallets on 2 chains, one wallet chain not cached: several hundred positions,
 * more than one page). The screen never asks for the whole portfolio view: its rows come from
 * `portfolio.rows`, sorted and filtered in the core, and what it shows is the core's page for the
 * same query, row for row; the pager reaches the last row; the totals are the view's.
 */
const DATE = '2026-10-31';
let sent: ApiAsk[] = [];

const web = useWebSession({
  viewport: { width: 1024, height: 800 },
  timeout: 180_000,
  core: { scheduleEveryMs: 0 },
  prepare: (dataDir) => {
    // The cache the web shell's demo mode opens (profile.ts databaseFileFor).
    const db = openDatabase(join(dataDir, 'demo.sqlite'));
    try {
      seedFund(db, { wallets: 24, chains: 2, date: DATE, notCached: 1 });
    } finally {
      db.close();
    }
  },
});

beforeAll(() => {
  sent = recordAsks(web.page);
});

/** A figure as the screen writes it ("$1,234.56", "−$0.10") in cents; null for "—". */
function cents(text: string): number | null {
  const t = text.trim();
  if (!t || t.startsWith('—')) return null;
  const negative = /^[-\u2212]/.test(t);
  const value = Math.round(Number(t.replace(/[^0-9.]/g, '')) * 100);
  return negative ? -value : value;
}

const table = () => web.page.locator('table.positions');
/** The rows shown, by their keys (each row's expand button carries its row's key). */
const shownKeys = () =>
  table()
    .locator('tbody button.expand[data-row-key]')
    .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-row-key')));
const positions = (q: RowQuery) => web.core.call('portfolio.rows', { date: DATE, table: 'positions', limit: 100, ...q }) as Promise<PositionsPage>;
const range = () => web.page.getByTestId('page-range').innerText();
/** The last `portfolio.rows` request the screen sent for a table. */
const lastRows = (table: string) => sent.filter((s) => s.op === 'portfolio.rows' && s.input['table'] === table).at(-1)?.input;

describe('Positions, page by page from the core', () => {
  it('sort, filter and pages go to the core; the rows are its page; the last row is reached; the totals are the view’s; never the whole view', async () => {
    sent.length = 0;
    await web.open(`#/positions?date=${DATE}`);
    await poll(() => shownKeys().then((k) => k.length)).toBe(100);
    const view = await web.core.call('portfolio.view', { date: DATE });
    expect(view.positions.length).toBeGreaterThan(300);

    // The first page: the core's, largest first; the pager counts every row; the totals are the view's.
    const first = await positions({});
    expect(await shownKeys()).toEqual(first.rows.map((r) => r.key));
    expect(await range()).toBe(`Rows 1–100 of ${view.positions.length.toLocaleString('en-US')}`);
    expect(cents(await table().getByTestId('positions-total').innerText())).toBe(Math.round(view.totals.total! * 100));
    await settled(web.page);
    await shootBothThemes(web.page, 'positions-pages-first');
    await bothThemes(web.page, 'positions-pages');

    // Sorted by name in the core: the header says so, the rows are the core's page sorted so.
    const name = table().locator('thead th', { has: web.page.locator('button.sort', { hasText: /^Position/ }) });
    await name.locator('button').click();
    await poll(() => name.getAttribute('aria-sort')).toBe('ascending');
    const byName = await positions({ sort: 'name', order: 'asc' });
    await poll(shownKeys).toEqual(byName.rows.map((r) => r.key));
    expect(lastRows('positions')).toMatchObject({ sort: 'name', order: 'asc', offset: 0 });
    // Again: the other way round.
    await name.locator('button').click();
    await poll(() => name.getAttribute('aria-sort')).toBe('descending');
    await poll(shownKeys).toEqual((await positions({ sort: 'name', order: 'desc' })).rows.map((r) => r.key));

    // Paged to the end by the keyboard: the last page ends with the core's last row.
    const last = web.page.getByTestId('pager').getByRole('button', { name: 'Last' });
    await last.focus();
    await web.page.keyboard.press('Enter');
    const total = view.positions.length;
    const lastOffset = Math.floor((total - 1) / 100) * 100;
    await poll(range).toBe(`Rows ${(lastOffset + 1).toLocaleString('en-US')}–${total.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
    const end = await positions({ sort: 'name', order: 'desc', offset: lastOffset });
    await poll(shownKeys).toEqual(end.rows.map((r) => r.key));
    expect(end.rows.at(-1)!.key).toBe((await positions({ sort: 'name', order: 'desc', offset: total - 1, limit: 1 })).rows[0]!.key);
    expect(await last.isDisabled()).toBe(true);
    // The pager looked at, beneath the last row.
    await web.page.getByTestId('pager').scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'positions-pages-last');
    // The totals are every row's still, not the page's.
    expect(cents(await table().getByTestId('positions-total').innerText())).toBe(Math.round(view.totals.total! * 100));
    await web.page.getByTestId('pager').getByRole('button', { name: 'Previous' }).click();
    await poll(range).toMatch(new RegExp(`^Rows ${(lastOffset - 99).toLocaleString('en-US')}–`));

    // Filtered in the core: the text and a chain are sent; a new filter starts at the first page; the totals are the filtered rows'.
    await web.page.getByRole('searchbox', { name: 'Filter positions' }).fill('eth');
    await web.page.getByRole('combobox', { name: 'Show one chain' }).selectOption('arb');
    const filtered = await positions({ sort: 'name', order: 'desc', filter: { text: 'eth', chain: 'arb' } });
    expect(filtered.total).toBeGreaterThan(0);
    expect(filtered.total).toBeLessThan(total);
    await poll(shownKeys).toEqual(filtered.rows.map((r) => r.key));
    expect(lastRows('positions')).toMatchObject({ filter: { text: 'eth', chain: 'arb' }, offset: 0 });
    expect(filtered.rows.every((r) => r.chain === 'arb')).toBe(true);
    await poll(() => table().getByTestId('positions-total').innerText().then(cents)).toBe(Math.round(filtered.totals.total! * 100));
    expect(await table().locator('tfoot th').innerText()).toContain(`${filtered.total.toLocaleString('en-US')} positions shown`);

    // By token and liquidity: the core's tables too, their totals the view's.
    await web.page.getByRole('searchbox', { name: 'Filter positions' }).fill('');
    await web.page.getByRole('combobox', { name: 'Show one chain' }).selectOption('');
    await web.page.getByRole('tab', { name: 'By token' }).click();
    // The sort chosen stays (by name, Z to A): the core's tokens so sorted, row for row.
    const tokens = (await web.core.call('portfolio.rows', { date: DATE, table: 'tokens', limit: 100, sort: 'name', order: 'desc' })) as TokensPage;
    await poll(() => web.page.locator('[data-testid=token-row] th.name strong').allInnerTexts()).toEqual(tokens.rows.map((t) => t.symbol));
    expect(tokens.total).toBe(view.tokens.length);
    expect(cents(await web.page.getByTestId('tokens-total').innerText())).toBe(cents(`$${tokens.totalNav!.toFixed(2)}`));
    expect(lastRows('tokens')).toMatchObject({ table: 'tokens', sort: 'name', order: 'desc', offset: 0 });
    // A token held by every wallet chain lists its largest holdings and says how many more there are.
    const widest = tokens.rows.findIndex((t) => t.holdingCount > t.holdings.length);
    expect(widest).toBeGreaterThanOrEqual(0);
    await web.page.locator('[data-testid=token-row]').nth(widest).getByRole('button').click();
    await poll(() => web.page.locator('[data-testid=holding-row]').count()).toBe(tokens.rows[widest]!.holdings.length);
    expect(await web.page.getByTestId('more-holdings').innerText()).toContain(
      `${tokens.rows[widest]!.holdingCount - tokens.rows[widest]!.holdings.length} smaller holdings not listed here`,
    );
    await web.page.getByTestId('more-holdings').scrollIntoViewIfNeeded();
    await shootBothThemes(web.page, 'positions-pages-tokens');
    await web.page.getByRole('tab', { name: 'Liquidity' }).click();
    const liquidity = (await web.core.call('portfolio.rows', { date: DATE, table: 'liquidity', limit: 100 })) as LiquidityPage;
    await poll(() => web.page.locator('[data-testid=liquidity-row]').count()).toBe(Math.min(100, liquidity.total));
    expect(liquidity.total).toBe(view.liquidity.length);

    // Grouped by protocol: the core's groups, whose subtotals add up to the total.
    await web.page.getByRole('tab', { name: 'By position' }).click();
    await web.page.getByRole('button', { name: 'Group by protocol' }).click();
    await poll(() => table().locator('[data-testid=protocol-group]').count()).toBeGreaterThan(0);
    const grouped = await positions({ sort: 'name', order: 'desc', groupBy: 'protocol' });
    await poll(shownKeys).toEqual(grouped.rows.map((r) => r.key));
    const sum = grouped.groups!.reduce((a, g) => a + Math.round((g.totals.total ?? 0) * 100), 0);
    expect(Math.abs(sum - Math.round(view.totals.total! * 100))).toBeLessThanOrEqual(grouped.groups!.length);
    await web.page.getByRole('button', { name: 'Group by protocol' }).click();

    // Never the whole view: the screen asked for pages and the summary only.
    expect(sent.filter((s) => s.op === 'portfolio.view')).toEqual([]);
    expect(sent.some((s) => s.op === 'portfolio.summary')).toBe(true);
    expect(web.problems).toEqual([]);
  }, 180_000);

  it('the change since a date asks for the gone rows on the table’s last page only (they are shown after its last row)', async () => {
    // An earlier date this cache lacks: every change is unknown, and the asks are what is looked at.
    sent.length = 0;
    const changes = () => sent.filter((s) => s.op === 'portfolio.change');
    await web.open(`#/positions?date=${DATE}&since=2026-09-30`);
    await poll(() => changes().length).toBeGreaterThan(0);
    expect(changes().at(-1)!.input).toMatchObject({ since: '2026-09-30', gone: false });
    expect((changes().at(-1)!.input['keys'] as string[]).length).toBe(100);
    await web.page.getByRole('button', { name: 'Last', exact: true }).click();
    await poll(() => changes().at(-1)?.input['gone']).toBe(true);
    expect(web.problems).toEqual([]);
  }, 120_000);
});
