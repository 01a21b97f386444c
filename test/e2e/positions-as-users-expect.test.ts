import { beforeAll, describe, expect, it } from 'vitest';
import { bothThemes } from './axe.ts';
import { cutFigures } from '../support/figures.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { type ApiAsk, COLD, poll, recordAsks, settled, shootBothThemes, TREASURY, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Positions as DeBank and Zerion users expect (issue 39, item 4), in real Chromium on the demo
 * with spam on (src/sim/spam.ts: copies of USDC, WETH, … from other contracts): quantity and
 * implied price, the change since an earlier cached date, one row per token across chains, and
 * rows grouped by protocol with subtotals that add up to the total.
 */
const DAY = new Date(SIM_NOW).toISOString().slice(0, 10);
// Early enough that the treasury opened and closed positions since (three new, two gone in the demo).
const EARLIER = '2026-01-01';

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW, spam: true }), now: () => SIM_NOW },
  clock: SIM_NOW,
  timeout: 180_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: TREASURY, chains: ['eth', 'arb'], label: 'Treasury' });
    await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold storage' });
    await waitForJobs(core, await core.call('sync.all', undefined));
    // The earlier date: the treasury only, so the cold wallet's change is unknown there.
    await waitForJobs(core, [await core.call('sync.positions', { wallet: TREASURY, date: EARLIER })]);
  },
});

/** A figure as the screen writes it ("+$1,234.56", "−$0.10") in cents; null for "—". */
function cents(text: string): number | null {
  const t = text.trim();
  if (!t || t.startsWith('—')) return null;
  const negative = /^[-\u2212]/.test(t) || /^\(/.test(t);
  const digits = t.replace(/[^0-9.]/g, '');
  const value = Math.round(Number(digits) * 100);
  return negative ? -value : value;
}

async function show(route: string): Promise<void> {
  await web.open(route);
  await poll(() => web.page.evaluate(() => location.hash)).toBe(route);
  await settled(web.page);
}

const table = () => web.page.locator('table.positions');
let sent: ApiAsk[] = [];
beforeAll(() => {
  sent = recordAsks(web.page);
});

describe('positions as users expect', () => {
  it('quantity and implied price per position and per token beneath', async () => {
    await show(`#/positions?date=${DAY}`);
    await poll(() => table().locator('tbody tr').count()).toBeGreaterThan(3);
    const headers = await table().locator('thead th').allInnerTexts();
    expect(headers).toEqual(expect.arrayContaining(['Quantity', 'Price']));
    // A one-token position: its quantity and a price in dollars; a position of several says so.
    const quantities = await table().locator('tbody > tr:not(.sub) > td:nth-child(7)').allInnerTexts();
    const prices = await table().locator('tbody > tr:not(.sub) > td:nth-child(8)').allInnerTexts();
    expect(quantities.some((q) => /\d/.test(q))).toBe(true);
    expect(prices.some((p) => p.includes('$'))).toBe(true);
    // Never a made-up $0.00 price.
    expect(prices.filter((p) => cents(p) === 0)).toEqual([]);
    // Beneath a position: its tokens with their quantity and price.
    await table().locator('button.expand').first().click();
    const inner = table().locator('table.inner');
    await poll(() => inner.locator('thead th').allInnerTexts()).toEqual(['Token', 'Quantity', 'Price', 'Value', 'Details']);
    await table().locator('button.expand').first().click();
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('grouped by protocol: a header per protocol whose subtotals add up to the total', async () => {
    await show(`#/positions?date=${DAY}`);
    await poll(() => table().locator('tbody tr').count()).toBeGreaterThan(3);
    const toggle = web.page.getByRole('button', { name: 'Group by protocol' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    // Keyboard: focus and Enter.
    await toggle.focus();
    await web.page.keyboard.press('Enter');
    await poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    const groups = table().locator('[data-testid=protocol-group]');
    await poll(() => groups.count()).toBeGreaterThan(1);
    const subtotals = (await table().locator('[data-testid=subtotal]').allInnerTexts()).map(cents);
    const total = cents(await table().getByTestId('positions-total').innerText());
    expect(subtotals.every((s) => s !== null)).toBe(true);
    expect(subtotals.reduce((a, b) => a! + b!, 0)).toBe(total);
    // Each group's rows are its protocol's, and every position is in one group.
    const rows = await groups.evaluateAll((gs) => gs.map((g) => g.querySelectorAll(':scope > tr:not(.group-head):not(.sub)').length));
    await web.page.getByRole('button', { name: 'Group by protocol' }).click();
    await poll(() => table().locator('tbody > tr:not(.sub)').count()).toBe(rows.reduce((a, b) => a + b, 0));
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('change since an earlier date: per row, new and gone said, an uncached wallet chain "—" with why, never 0', async () => {
    await show(`#/positions?date=${DAY}`);
    await poll(() => table().locator('tbody tr').count()).toBeGreaterThan(3);
    await web.page.getByRole('button', { name: 'Change since…' }).click();
    await poll(() => web.page.evaluate(() => location.hash)).toContain(`since=${EARLIER}`);
    await poll(async () => (await table().locator('thead th').allInnerTexts()).some((t) => t.startsWith('Change since'))).toBe(true);
    const changes = table().locator('tbody [data-testid=change]');
    await poll(() => changes.count()).toBeGreaterThan(3);
    // The cold wallet is not cached at the earlier date: its rows say "—", the note names it, the total is unknown.
    const note = web.page.getByTestId('change-unknown');
    await poll(() => note.innerText()).toContain('Cold storage (Ethereum)');
    const coldRows = table().locator('tbody > tr:not(.sub)', { hasText: 'Cold storage' });
    expect(await coldRows.count()).toBeGreaterThan(0);
    for (const t of await coldRows.locator('[data-testid=change]').allInnerTexts()) expect(t.trim().startsWith('—')).toBe(true);
    expect((await table().getByTestId('change-total').innerText()).trim()).toBe('—');

    // The treasury alone: every change known, and they add up to the change of its total.
    await show(`#/positions?wallet=${TREASURY}&date=${DAY}&since=${EARLIER}`);
    await poll(() => table().getByTestId('change-total').innerText()).toMatch(/\d/);
    const rowChanges = await table()
      .locator('tbody [data-testid=change]')
      .evaluateAll((cells) => cells.map((c) => c.querySelector(':scope > span:not(.badge):not(.sr-only)')?.textContent ?? ''));
    expect(rowChanges.length).toBeGreaterThan(3);
    const parsed = rowChanges.map(cents);
    expect(parsed.every((c) => c !== null)).toBe(true);
    expect(parsed.reduce((a, b) => a! + b!, 0)).toBe(cents(await table().getByTestId('change-total').innerText()));
    const core = await web.core.call('portfolio.change', { wallet: TREASURY, date: DAY, since: EARLIER });
    expect(cents(await table().getByTestId('change-total').innerText())).toBe(Math.round(core.total! * 100));
    // The screen asks the change of the rows it shows, never of every row (issue 40: a fund's is megabytes).
    const asks = sent.filter((a) => a.op === 'portfolio.change');
    expect(asks.length).toBeGreaterThan(0);
    expect(asks.every((a) => Array.isArray(a.input['keys']) || Array.isArray(a.input['tokenKeys']))).toBe(true);
    const shown = await table()
      .locator('tbody button.expand[data-row-key]')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-row-key')));
    expect([...(asks.at(-1)!.input['keys'] as string[])].sort()).toEqual([...shown].sort());
    // One page, so the last: the gone rows asked with it.
    expect(asks.at(-1)!.input['gone']).toBe(true);
    // New and gone rows are said as such (the demo opens and closes positions over seven weeks).
    const news = Object.values(core.positions).filter((c) => c.state === 'new').length;
    expect(await table().locator('tbody .badge', { hasText: /^new$/ }).count()).toBe(news);
    expect(await table().locator('[data-testid=gone-row]').count()).toBe(core.gone.length);
    // The demo's seven weeks open or close some positions (else this proves nothing of new and gone).
    expect(news + core.gone.length).toBeGreaterThan(0);
    // By token: the change of the token rows shown, asked by their keys.
    await show(`#/positions?view=underlying&wallet=${TREASURY}&date=${DAY}&since=${EARLIER}`);
    const tokenChanges = web.page.locator('[data-testid=token-row] [data-testid=change]');
    await poll(async () => (await tokenChanges.allInnerTexts()).filter((t) => /\d/.test(t)).length).toBeGreaterThan(3);
    const tokenRows = web.page.locator('[data-testid=token-row]');
    const lastAsk = () => sent.filter((a) => a.op === 'portfolio.change').at(-1)!.input;
    await poll(async () => (lastAsk()['tokenKeys'] as string[] | undefined)?.length === (await tokenRows.count())).toBe(true);
    const tokenAsk = lastAsk();
    expect(tokenAsk['keys']).toBeUndefined();
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('by token: one row per token across chains, opening to its chains and wallets; no spam copy merged', async () => {
    await show(`#/positions?view=underlying&date=${DAY}`);
    const rows = web.page.locator('[data-testid=token-row]');
    await poll(() => rows.count()).toBeGreaterThan(3);
    const names = (await rows.locator('th[scope=row]').allInnerTexts()).map((t) => t.trim());
    // One row per token: no symbol and name twice (a copy of USDC would be a second "USDC USD Coin").
    expect(names.length).toBe(new Set(names).size);
    // The view the screen shows left the demo's spam out (and it has some).
    const view = await web.core.call('portfolio.view', { date: DAY });
    expect(view.spam.count).toBeGreaterThan(0);
    const spamSymbols = new Set(view.spam.rows.map((r) => r.position.symbol));
    const copies = names.filter((n) => spamSymbols.has(n.split(/\s/)[0] ?? ''));
    for (const c of copies) expect(names.filter((n) => n === c)).toHaveLength(1);
    // A token on two chains: one row; opened, each chain (and wallet) beneath.
    const several = rows.filter({ has: web.page.locator('td.chains', { hasText: ',' }) }).first();
    const chains = (await several.locator('td.chains').innerText()).split(',').map((c) => c.trim());
    expect(chains.length).toBeGreaterThan(1);
    await several.getByRole('button').click();
    await poll(() => web.page.locator('[data-testid=holding-row]').count()).toBeGreaterThanOrEqual(chains.length);
    const beneath = (await web.page.locator('[data-testid=holding-row] td.indent').allInnerTexts()).join(' ');
    for (const c of chains) expect(beneath).toContain(c);
    expect(await several.getByRole('button').getAttribute('aria-expanded')).toBe('true');
    // The value total agrees with the exposure's (the same by-token table).
    expect(cents(await web.page.getByTestId('tokens-total').innerText())).toBe(Math.round(view.exposure.totalNav * 100));
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('sorting by keyboard: aria-sort follows', async () => {
    await show(`#/positions?date=${DAY}`);
    await poll(() => table().locator('tbody tr').count()).toBeGreaterThan(3);
    const valueButton = table().locator('thead th > button.sort', { hasText: /^Value/ });
    const value = valueButton.locator('xpath=..');
    expect(await value.getAttribute('aria-sort')).toBe('descending');
    await valueButton.focus();
    await web.page.keyboard.press('Enter');
    await poll(() => value.getAttribute('aria-sort')).toBe('ascending');
    const nameButton = table().locator('thead th > button.sort', { hasText: /^Position/ });
    const name = nameButton.locator('xpath=..');
    await nameButton.focus();
    await web.page.keyboard.press('Space');
    await poll(() => name.getAttribute('aria-sort')).toBe('ascending');
    await poll(() => value.getAttribute('aria-sort')).toBe('none');
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('looked at and checked by axe: 1024 and 1440 wide, light and dark, nothing cut', async () => {
    for (const width of [1024, 1440]) {
      await web.page.setViewportSize({ width, height: 900 });
      await show(`#/positions?date=${DAY}&since=${EARLIER}&by=protocol`);
      await poll(() => table().locator('[data-testid=protocol-group]').count()).toBeGreaterThan(1);
      await poll(() => table().getByTestId('change-total').count()).toBe(1);
      await settled(web.page);
      // Nothing cut: the table fits its box (columns give way by priority, lib/column-priority.ts).
      const fits = await web.page
        .locator('.table-wrap')
        .first()
        .evaluate((n) => n.scrollWidth <= n.clientWidth + 1);
      const shown = await table()
        .locator('thead th')
        .evaluateAll((ths) => ths.filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.textContent?.trim()));
      if (width === 1024) await bothThemes(web.page, `positions-by-protocol-${width}`);
      else await shootBothThemes(web.page, `positions-by-protocol-${width}`);
      // A later protocol's header and subtotal, scrolled to.
      await table().locator('[data-testid=protocol-group]').nth(1).scrollIntoViewIfNeeded();
      await shootBothThemes(web.page, `positions-by-protocol-${width}-second-group`);
      expect(fits, `${width}`).toBe(true);
      expect(await cutFigures(web.page)).toEqual([]);
      expect(shown.some((t) => t?.startsWith('Value'))).toBe(true);
      // The quantity is shown: in its column, or (the column given way at this width) beneath the value.
      const inline = await table()
        .locator('[data-testid=inline-qty]')
        .evaluateAll((els) => els.filter((e) => getComputedStyle(e).display !== 'none').length);
      expect(shown.includes('Quantity') || inline > 3, `${width}: quantity shown`).toBe(true);

      // The treasury alone: every change known, new and gone rows said.
      await show(`#/positions?wallet=${TREASURY}&date=${DAY}&since=${EARLIER}`);
      await poll(() => table().getByTestId('change-total').innerText()).toMatch(/\d/);
      const gone = table().locator('[data-testid=gone-row]');
      if (await gone.count()) await gone.first().scrollIntoViewIfNeeded();
      await shootBothThemes(web.page, `positions-change-treasury-${width}`);
      expect(await cutFigures(web.page)).toEqual([]);

      await show(`#/positions?view=underlying&date=${DAY}&since=${EARLIER}`);
      const rows = web.page.locator('[data-testid=token-row]');
      await poll(() => rows.count()).toBeGreaterThan(3);
      await rows
        .filter({ has: web.page.locator('td.chains', { hasText: ',' }) })
        .first()
        .getByRole('button')
        .click();
      await poll(() => web.page.locator('[data-testid=holding-row]').count()).toBeGreaterThan(1);
      await settled(web.page);
      const tokensFit = await web.page
        .locator('.table-wrap')
        .first()
        .evaluate((n) => n.scrollWidth <= n.clientWidth + 1);
      if (width === 1024) await bothThemes(web.page, `positions-by-token-${width}`);
      else await shootBothThemes(web.page, `positions-by-token-${width}`);
      expect(tokensFit, `${width}`).toBe(true);
      expect(await cutFigures(web.page)).toEqual([]);

      await show(`#/overview?date=${DAY}`);
      const exposure = web.page.getByTestId('exposure');
      await poll(() => exposure.locator('tbody tr').count()).toBeGreaterThan(3);
      await exposure.locator('tbody tr:not(.sub)', { hasText: ',' }).first().getByRole('button').click();
      await poll(() => exposure.locator('tr.sub').count()).toBeGreaterThan(1);
      await exposure.scrollIntoViewIfNeeded();
      if (width === 1024) await bothThemes(web.page, `overview-exposure-${width}`);
      else await shootBothThemes(web.page, `overview-exposure-${width}`);
      expect(await cutFigures(web.page)).toEqual([]);
    }
    expect(web.problems).toEqual([]);
  }, 120_000);
});
