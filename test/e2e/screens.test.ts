import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { shoot } from '../support/browser.ts';
import { SIM_NOW } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * What looking at every main view in the all-wallets scope found (issue 27, "screens looked
 * at"), each checked where it was seen: the two demo wallets, at 1024×640 and 1440×900.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
const SIZES = [
  [1024, 640],
  [1440, 900],
] as const;

const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  // The service's "today" and the page's, pinned together: the views' default periods end on it.
  core: { demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW }) },
  clock: SIM_NOW,
  timeout: 120_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth', 'arb'], label: 'Demo treasury' });
    await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Demo staking' });
    await waitForJobs(core, await core.call('sync.all', undefined));
    await core.call('counterparties.save', {
      address: '0x1111111254eeb25477b68fb85ed929f73a960582',
      name: '1inch Aggregation Router v5',
      tags: ['dex'],
      chains: ['eth', 'arb'],
      ours: false,
      note: 'Swaps routed through 1inch; checked against the vendor list in March',
    });
    await core.call('counterparties.save', {
      address: '0x28c6c06298d514db089934071355e5743bf21d60',
      name: 'Binance 14',
      tags: ['exchange'],
      chains: [],
      ours: false,
      note: '',
    });
  },
});

const settle = () => web.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe('the screens a treasurer looks at, all wallets', () => {
  for (const [width, height] of SIZES)
    it(`timeline at ${width}×${height}: the tokens moved keep their room and read whole; no empty Category column`, async () => {
      await web.page.setViewportSize({ width, height });
      await web.open('#/timeline');
      await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
      await settle();
      // The protocol, category and wallet columns once took their maximum widths first and left
      // the tokens moved 0 px at 1024: every amount was gone.
      const head = await web.page.getByRole('columnheader', { name: 'Tokens moved' }).boundingBox();
      expect(head!.width, `Tokens moved at ${width}×${height}`).toBeGreaterThanOrEqual(220);
      const cut = await web.page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[role=row].txn .what')]
          .filter((el) => el.getBoundingClientRect().bottom < innerHeight && el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent),
      );
      expect(cut, `${width}×${height}`).toEqual([]);
      // Nothing is categorised in a fresh demo: a Category column would be empty on every row.
      expect(await web.page.getByRole('columnheader', { name: 'Category' }).count()).toBe(0);
      // In the detail, a watched wallet's name and its address read apart.
      await web.page.locator('[role=row].txn').first().click();
      const from = web.page.getByRole('dialog', { name: 'Transaction detail' }).getByTestId('from-name').or(web.page.getByTestId('to-name')).first();
      await poll(() => from.isVisible()).toBe(true);
      const gap = await from.evaluate((name) => {
        // The address's first character: the first text after the name that holds "0x".
        const walker = document.createTreeWalker(name.parentElement!, NodeFilter.SHOW_TEXT);
        let node: Node | null;
        while ((node = walker.nextNode()) && (name.contains(node) || !node.textContent!.includes('0x')));
        const at = node!.textContent!.indexOf('0x');
        const range = document.createRange();
        range.setStart(node!, at);
        range.setEnd(node!, at + 1);
        return range.getBoundingClientRect().left - name.getBoundingClientRect().right;
      });
      expect(gap).toBeGreaterThanOrEqual(3);
      await web.page.keyboard.press('Escape');
      await shoot(web.page, `screens-timeline-${width}`);
      expect(web.problems).toEqual([]);
    });

  for (const [width, height] of SIZES)
    it(`liquidity at ${width}×${height}: identically named positions are told apart`, async () => {
      await web.page.setViewportSize({ width, height });
      await web.open('#/positions?view=liquidity');
      await poll(() => web.page.locator('main tbody tr').count()).toBeGreaterThan(3);
      await settle();
      // What a reader sees of each row's identity: the name, what tells twins apart, and the
      // chain and wallet columns where the width shows them. Three "Aave V3 WETH supply / USDC
      // borrow" of Demo treasury on arb read the same before.
      const rows = await web.page.evaluate(() =>
        [...document.querySelectorAll<HTMLTableRowElement>('main tbody tr')].map((tr) =>
          [...tr.cells]
            .slice(0, 4)
            .filter((td) => getComputedStyle(td).display !== 'none')
            .map((td) => td.querySelector('strong')?.textContent ?? td.textContent?.trim())
            .concat(tr.querySelector('[data-testid=twin]')?.textContent ?? '')
            .join(' | '),
        ),
      );
      expect(rows.length).toBeGreaterThan(3);
      expect(rows.filter((r, i) => rows.indexOf(r) !== i)).toEqual([]);
      expect(web.problems).toEqual([]);
    });

  it('reconcile: green and red are for what moved; no flow is a plain zero', async () => {
    await web.page.setViewportSize({ width: 1440, height: 900 });
    await web.open('#/reconcile');
    await poll(() => web.page.locator('main tbody tr').count()).toBeGreaterThan(3);
    const coloured = await web.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('main tbody td.pos, main tbody td.neg')].map((td) => td.textContent!.trim()),
    );
    expect(coloured.length).toBeGreaterThan(0);
    expect(coloured.filter((t) => !/^[+-]/.test(t))).toEqual([]);
  });

  it('monthly pack at 1024×640: months by name in the locale; the arrow goes with the closing date where the controls wrap', async () => {
    await web.page.setViewportSize({ width: 1024, height: 640 });
    await web.open('#/pack');
    const month = web.page.getByLabel('Month', { exact: true });
    await poll(() => web.page.locator('#pack-to').isVisible()).toBe(true);
    const arrow = await web.page.locator('main .arrow').boundingBox();
    const closing = await web.page.locator('#pack-to').boundingBox();
    // On one line: the arrow's middle within the closing field's height, and just before it.
    expect(Math.abs(arrow!.y + arrow!.height / 2 - (closing!.y + closing!.height / 2))).toBeLessThan(closing!.height / 2);
    expect(arrow!.x).toBeLessThan(closing!.x);
    await poll(() => month.locator('option:checked').textContent()).toMatch(/^[A-Z][a-z]+ \d{4}$/);
    await shoot(web.page, 'screens-pack-1024');
    await web.core.call('settings.update', { locale: 'de-DE' });
    try {
      await web.open('#/pack');
      // The whole screen in German (issue 39 item 2): the field is "Monat" now.
      await poll(() => web.page.getByLabel('Monat', { exact: true }).locator('option:checked').textContent()).toMatch(
        /^(Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}$/,
      );
    } finally {
      await web.core.call('settings.update', { locale: null });
    }
  });

  it('address book at 1024×640: a name reads as a name, at the top of its row, and stays in it when the list scrolls', async () => {
    await web.page.setViewportSize({ width: 1024, height: 640 });
    await web.open('#/book');
    const name = web.page.getByRole('rowheader', { name: '1inch Aggregation Router v5' });
    await poll(() => name.isVisible()).toBe(true);
    const look = await name.evaluate((th) => {
      // The address beside it, and a plain cell of the row (the chains) for the text's size and colour.
      const cell = th.nextElementSibling as HTMLElement;
      const plain = getComputedStyle((th.parentElement as HTMLTableRowElement).cells[2]!);
      const s = getComputedStyle(th);
      return {
        position: s.position,
        fontSize: parseFloat(s.fontSize),
        body: parseFloat(plain.fontSize),
        colour: s.color,
        text: plain.color,
        topGap: Math.abs(
          th.getBoundingClientRect().top + parseFloat(s.paddingTop) - (cell.getBoundingClientRect().top + parseFloat(getComputedStyle(cell).paddingTop)),
        ),
      };
    });
    expect(look.position).not.toBe('sticky');
    expect(look.fontSize).toBe(look.body);
    expect(look.colour).toBe(look.text);
    // The name's first line beside the address's first line (it sat in the middle of a tall row).
    expect(look.topGap).toBeLessThan(4);
    await shoot(web.page, 'screens-book-1024');
    expect(web.problems).toEqual([]);
  });
});
