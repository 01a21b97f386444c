import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { type Transaction, transaction as transactionSchema } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

/**
 * A timeline of any length (issue 40, item 3). Chromium lays out no box taller than ~33.5 M px,
 * so a list of rows 36 px high stopped at ~930,000 rows. Past its tallest box the list's box
 * stays that high and its scroll position stands for the list's place in proportion. The app's
 * box is 12 M px (a third of a million rows); this test sets 300,000 px (`folioscopeListMaxPx`)
 * so 100,000 rows, written straight into the cache through the store's code, are twelve times
 * taller than their box, as ten million rows are thirty times taller than the app's. What a user
 * would see go wrong: the oldest rows out of reach, a wheel notch or an arrow key jumping
 * thousands of rows, rows shown in the wrong place or order, a date gone to that is not the one
 * asked for.
 */
const ROWS = 100_000;
const MAX_BOX = 300_000;
const ROW = 36;
/** The cache's transactions as SQL orders them (the timeline's order), and each one's time. */
let ids: number[] = [];
let times: number[] = [];

const web = useWebSession({
  viewport: { width: 1024, height: 720 },
  // The scrollbar drawn, so its thumb can be dragged as a user would.
  scrollbars: true,
  timeout: 180_000,
  core: { scheduleEveryMs: 0 },
  prepare: (dataDir) => {
    const db = openDatabase(join(dataDir, 'demo.sqlite'));
    try {
      addWallet(db, { address: WALLET, chains: ['eth'], label: 'Long history' });
      const h = historyOf(
        { seed: 5, txnsPerWallet: ROWS, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
        WALLET,
        CHAINS[0]!,
      );
      for (let i = 0; i < ROWS; i += 2000) {
        const page: Transaction[] = [];
        for (let j = i; j < i + 2000; j++) page.push(transactionSchema.parse(transactionAt(h, j)));
        db.transaction(() => upsertTransactions(db, WALLET, 'eth', page)).immediate();
      }
      const ordered = db.prepare('SELECT id, time FROM transactions ORDER BY time DESC, id DESC').raw().all() as Array<[number, number]>;
      ids = ordered.map(([id]) => id);
      times = ordered.map(([, time]) => time);
    } finally {
      db.close();
    }
  },
});

/** The list as SQL orders it: a heading for each UTC day (the app's default zone), then its transactions; an id per item, null for a heading. */
function expectedItems(): Array<number | null> {
  const out: Array<number | null> = [];
  let day = '';
  ids.forEach((id, i) => {
    const d = new Date(times[i]!).toISOString().slice(0, 10);
    if (d !== day) {
      out.push(null);
      day = d;
    }
    out.push(id);
  });
  return out;
}

/** The rows in the DOM: grid index, transaction id (null for a heading or a row not read yet), place relative to the view. */
function layout() {
  return web.page.evaluate(() => {
    const grid = document.querySelector('[role=grid]')!;
    const rows = [...grid.querySelectorAll<HTMLElement>('[role=rowgroup].rows [role=row]')];
    const scroller = grid.querySelector<HTMLElement>('.scroller')!;
    const view = scroller.getBoundingClientRect();
    return {
      rowCount: Number(grid.getAttribute('aria-rowcount')),
      scrollTop: scroller.scrollTop,
      scrollHeight: scroller.scrollHeight,
      view: { top: view.top, height: scroller.clientHeight },
      rows: rows.map((r) => ({
        index: Number(r.getAttribute('aria-rowindex')),
        id: r.id.startsWith('txn-row-') ? Number(r.id.slice('txn-row-'.length)) : null,
        kind: r.classList.contains('day') ? 'day' : r.classList.contains('wait') ? 'wait' : 'txn',
        top: r.getBoundingClientRect().top - view.top,
      })),
    };
  });
}

/** The rows wholly in view, once every one of them is read: each where SQL puts it. */
async function shownInView() {
  const items = expectedItems();
  let l = await layout();
  await poll(async () => {
    l = await layout();
    return l.rows.filter((r) => r.top > -ROW && r.top < l.view.height).some((r) => r.kind === 'wait');
  }).toBe(false);
  const inView = l.rows.filter((r) => r.top >= -0.5 && r.top + ROW <= l.view.height + 0.5);
  for (const [i, r] of inView.entries()) {
    if (i > 0) expect(r.index).toBe(inView[i - 1]!.index + 1);
    expect(r.id, `row ${r.index}`).toBe(items[r.index - 2]);
  }
  return { ...l, inView };
}

const scroller = () => web.page.locator('[role=grid] .scroller');
const frames = (n = 2) =>
  web.page.evaluate(
    (n) =>
      new Promise<void>((r) => {
        const step = (k: number) => (k ? requestAnimationFrame(() => step(k - 1)) : r());
        step(n);
      }),
    n,
  );

/** Holds the scrollbar's thumb and drags it to the box's top, middle or bottom, as a user would. */
async function dragThumb(to: 'top' | 'bottom' | 'middle') {
  const box = (await scroller().boundingBox())!;
  const { top, height, scrollHeight, bar } = await scroller().evaluate((el: HTMLElement) => ({
    top: el.scrollTop,
    height: el.clientHeight,
    scrollHeight: el.scrollHeight,
    bar: el.offsetWidth - el.clientWidth,
  }));
  expect(bar, 'a drawn scrollbar').toBeGreaterThan(0);
  // The track runs between the scrollbar's arrow buttons (as tall as it is wide); the thumb, at
  // its shortest here, is placed along it as the box is scrolled.
  const track = height - 2 * bar;
  const thumb = 18;
  const x = box.x + box.width - bar / 2;
  const y = box.y + bar + (top / (scrollHeight - height)) * (track - thumb) + thumb / 2;
  const target = to === 'top' ? box.y - 40 : to === 'bottom' ? box.y + box.height + 40 : box.y + height / 2;
  await web.page.mouse.move(x, y);
  await web.page.mouse.down();
  await web.page.mouse.move(x, target, { steps: 3 });
  // Held there a moment, as a hand holds it: on a busy page the browser may drop a quick last
  // move (the thumb left short of the pointer), so it is moved there again, and let go only once
  // the box has stopped (at its end, for the ends). The page sets no position while the thumb is held.
  await web.page.mouse.move(x, target + 1);
  await web.page.mouse.move(x, target);
  const end = to === 'top' ? 0 : to === 'bottom' ? scrollHeight - height : null;
  const at = () => scroller().evaluate((el: HTMLElement) => el.scrollTop);
  await poll(async () => {
    const was = await at();
    await frames();
    return (await at()) === was && (end === null || Math.abs(was - end) < 1);
  }).toBe(true);
  await web.page.mouse.up();
  await frames();
}

describe('a timeline longer than the tallest box', () => {
  it('keeps its box under the cap, counts every row, and shows each where SQL puts it', async () => {
    await web.page.addInitScript((px) => ((window as unknown as { folioscopeListMaxPx: number }).folioscopeListMaxPx = px), MAX_BOX);
    await web.open('#/timeline');
    const items = expectedItems();
    await poll(() => web.page.getByRole('grid').getAttribute('aria-rowcount'), 60_000).toBe(String(items.length + 1));
    const l = await shownInView();
    expect(items.length * ROW).toBeGreaterThan(10 * MAX_BOX);
    expect(l.scrollHeight).toBe(MAX_BOX);
    expect(l.inView[0]).toMatchObject({ index: 2, kind: 'day' });
    expect(l.inView[1]!.id).toBe(ids[0]);
    expect(await web.page.getByText(/^[\d,]+ transactions$/).textContent()).toBe('100,000 transactions');
  });

  it('moves row by row on a wheel notch, never by the scale of thousands', async () => {
    const box = (await scroller().boundingBox())!;
    await web.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    let before = (await shownInView()).inView[0]!.index;
    for (let notch = 0; notch < 6; notch++) {
      // The box's own position is set back once it stops (it stands for the list's in proportion): the rows say where the list is.
      await web.page.mouse.wheel(0, 100);
      await poll(async () => (await layout()).rows.find((r) => r.top >= -0.5)?.index).not.toBe(before);
      await frames();
      const after = (await shownInView()).inView[0]!.index;
      // 100 px is under three rows of 36 (a row cut at the top of the view is not wholly in it).
      expect(after - before, `notch ${notch}`).toBeGreaterThanOrEqual(2);
      expect(after - before, `notch ${notch}`).toBeLessThanOrEqual(4);
      before = after;
    }
  });

  it('reaches the oldest row with the thumb dragged to the bottom, whole at the bottom of the view, and the newest back at the top', async () => {
    const items = expectedItems();
    await dragThumb('bottom');
    await poll(async () => (await layout()).rows.some((r) => r.index === items.length + 1)).toBe(true);
    const l = await shownInView();
    const last = l.inView.at(-1)!;
    expect(last).toMatchObject({ index: items.length + 1, id: ids.at(-1) });
    // Whole, at the bottom.
    expect(Math.abs(last.top + ROW - l.view.height)).toBeLessThan(1);
    expect(l.scrollTop + l.view.height).toBeGreaterThanOrEqual(l.scrollHeight - 1);

    // A wheel notch up from the bottom moves by rows, not to the proportional place of the box.
    await web.page.mouse.move(
      ...(await scroller()
        .boundingBox()
        .then((b) => [b!.x + b!.width / 2, b!.y + b!.height / 2] as const)),
    );
    await web.page.mouse.wheel(0, -100);
    await poll(async () => (await layout()).rows.find((r) => r.top >= -0.5)?.index).toBeLessThan(l.inView[0]!.index);
    const up = await shownInView();
    expect(l.inView[0]!.index - up.inView[0]!.index).toBeLessThanOrEqual(4);

    // The middle: each row where SQL puts it, read from its day without reading the rows before.
    await dragThumb('middle');
    const middle = await shownInView();
    expect(middle.inView[0]!.index).toBeGreaterThan(items.length * 0.3);
    expect(middle.inView[0]!.index).toBeLessThan(items.length * 0.7);

    await dragThumb('top');
    const top = await shownInView();
    expect(top.scrollTop).toBe(0);
    expect(top.inView[0]).toMatchObject({ index: 2, kind: 'day' });
    expect(top.inView[1]!.id).toBe(ids[0]);
  }, 120_000);

  it('keeps a thumb let go before the browser has told the page of its last move where it was let go', async () => {
    // The press, the move to the bottom and the release in one task, so the scroll event comes
    // after the release (as on a busy page): the drag was lost, the list set back to its top.
    await scroller().evaluate((el: HTMLElement) => {
      const r = el.getBoundingClientRect();
      const x = r.right - (el.offsetWidth - el.clientWidth) / 2;
      el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, clientX: x, clientY: r.top + 20 }));
      el.scrollTop = el.scrollHeight;
      el.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, clientX: x, clientY: r.bottom }));
    });
    await frames();
    const l = await shownInView();
    expect(l.inView.at(-1)).toMatchObject({ index: expectedItems().length + 1, id: ids.at(-1) });
    expect(l.scrollTop + l.view.height).toBeGreaterThanOrEqual(l.scrollHeight - 1);
  });

  it('goes over the whole list by keyboard: End to the oldest, arrows and pages row by row, Home to the newest', async () => {
    const focused = () => web.page.evaluate(() => document.activeElement?.id ?? '');
    const row = (i: number) => `txn-row-${ids[i]}`;
    await dragThumb('top');
    await web.page.locator(`#${row(0)}`).focus();
    await web.page.keyboard.press('End');
    await poll(focused).toBe(row(ROWS - 1));
    let l = await shownInView();
    expect(l.inView.at(-1)!.id).toBe(ids[ROWS - 1]);
    await web.page.keyboard.press('ArrowUp');
    await poll(focused).toBe(row(ROWS - 2));
    await web.page.keyboard.press('PageUp');
    await poll(focused).toBe(row(ROWS - 12));
    // The list moved by the rows the focus moved, not more: the oldest row is still near.
    l = await shownInView();
    expect(l.inView.some((r) => r.id === ids[ROWS - 12])).toBe(true);

    await web.page.keyboard.press('Home');
    await poll(focused).toBe(row(0));
    for (let i = 1; i <= 30; i++) {
      await web.page.keyboard.press('ArrowDown');
      await poll(focused).toBe(row(i));
    }
    l = await shownInView();
    // Thirty rows down (and the headings between): the list has moved by about as much, no more.
    expect(l.inView[0]!.index).toBeLessThan(40);
    await web.page.keyboard.press('PageDown');
    await poll(focused).toBe(row(40));

    // In the middle of the list too: one row down moves the list by at most a row.
    await dragThumb('middle');
    const middle = await shownInView();
    const at = middle.inView.filter((r) => r.id !== null)[5]!;
    await web.page.locator(`#txn-row-${at.id}`).focus();
    const k = ids.indexOf(at.id!);
    for (let i = 1; i <= 20; i++) {
      const before = await layout();
      await web.page.keyboard.press('ArrowDown');
      await poll(focused).toBe(row(k + i));
      const after = await layout();
      const was = before.rows.find((r) => r.id === ids[k])!;
      const now = after.rows.find((r) => r.id === ids[k]);
      if (now) expect(was.top - now.top).toBeLessThanOrEqual(2 * ROW);
    }
    await shownInView();
    expect(web.problems).toEqual([]);
  }, 120_000);

  it('goes to a date: the first transaction on or before it, found by the core, its day at the top', async () => {
    const items = expectedItems();
    const goTo = async (date: string) => {
      const field = web.page.getByRole('textbox', { name: /Date to go to/ });
      await field.fill(date);
      await field.press('Enter');
    };
    for (const date of ['2025-03-15', '2024-06-01', '2026-10-31']) {
      // As SQL reads it: the newest transaction before the end of the day (UTC).
      const end = Date.parse(`${date}T00:00:00Z`) + 86_400_000;
      const k = times.findIndex((t) => t < end);
      await goTo(date);
      await poll(() => web.page.evaluate(() => document.activeElement?.id ?? '')).toBe(`txn-row-${ids[k]}`);
      const l = await shownInView();
      const at = l.inView.find((r) => r.id === ids[k])!;
      // Its day's heading at the top of the view.
      expect(l.inView[0]).toMatchObject({ kind: 'day', index: at.index - 1 });
      expect(Math.abs(l.inView[0]!.top)).toBeLessThan(1);
      expect(items[at.index - 2]).toBe(ids[k]);
      expect(await web.page.getByTestId('jump-note').textContent()).toMatch(/^Gone to /);
    }
    // Before the oldest: the oldest, and why.
    await goTo('2023-01-01');
    await poll(() => web.page.evaluate(() => document.activeElement?.id ?? '')).toBe(`txn-row-${ids.at(-1)}`);
    expect(await web.page.getByTestId('jump-note').textContent()).toMatch(/^No transaction on or before /);
    // The core's answer is SQL's.
    const date = '2025-03-15';
    const end = Date.parse(`${date}T00:00:00Z`) + 86_400_000;
    expect(await web.core.call('timeline.position', { zone: 'UTC', date })).toMatchObject({ index: times.findIndex((t) => t < end), day: '2025-03-15' });
    expect(web.problems).toEqual([]);
  });

  it('with spam hidden (rows read page after page from the top), going to a date starts the list there, until Show the newest', async () => {
    const focused = () => web.page.evaluate(() => document.activeElement?.id ?? '');
    await web.page.getByTestId('hide-spam').check();
    await poll(() => web.page.getByRole('grid').getAttribute('aria-rowcount')).toBe('-1');
    const date = '2025-03-15';
    const k = times.findIndex((t) => t < Date.parse(`${date}T00:00:00Z`) + 86_400_000);
    const field = web.page.getByRole('textbox', { name: /Date to go to/ });
    await field.fill(date);
    await field.press('Enter');
    await poll(focused).toBe(`txn-row-${ids[k]}`);
    expect(await web.page.getByTestId('rebased').textContent()).toMatch(/^From Saturday, March 15, 2025, newer not shown/);
    // The list from there: its first rows are SQL's from that row on, and the keys go on down.
    const shown = await web.page
      .locator('[role=grid] [role=row].txn')
      .evaluateAll((rows) => rows.slice(0, 5).map((r) => Number(r.id.slice('txn-row-'.length))));
    expect(shown).toEqual(ids.slice(k, k + 5));
    await web.page.keyboard.press('PageDown');
    await poll(focused).toBe(`txn-row-${ids[k + 10]}`);
    await web.page.getByRole('button', { name: 'Show the newest' }).click();
    await poll(() => web.page.locator('[role=grid] [role=row].txn').first().getAttribute('id')).toBe(`txn-row-${ids[0]}`);
    await web.page.getByTestId('hide-spam').uncheck();
    expect(web.problems).toEqual([]);
  });

  it('reads well in both themes at 1024 px, scaled, with no serious accessibility finding', async () => {
    await dragThumb('middle');
    await shownInView();
    await bothThemes(web.page, 'timeline-scaled-1024');
    expect(web.problems).toEqual([]);
  }, 60_000);
});
