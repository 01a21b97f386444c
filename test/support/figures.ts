import type { Page } from 'playwright-core';

/** Figures on the page that do not show whole: text wider than its box, or outside the visible part of its scroller. */
export function cutFigures(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    // The timeline's fee and tokens moved too: its rows are a grid of cells, not a table.
    const figures = document.querySelectorAll<HTMLElement>(
      'main td.num, main th.num, main .kpi strong, main tfoot td, main [role=gridcell].num, main [role=row].txn .what',
    );
    for (const el of figures) {
      const text = el.textContent?.trim() ?? '';
      const box = el.getBoundingClientRect();
      if (!text || box.width === 0 || getComputedStyle(el).display === 'none') continue;
      let cut = el.scrollWidth > el.clientWidth + 1;
      // Outside what its scrolling box (or the window) shows.
      let scroller: HTMLElement | null = el.parentElement;
      while (scroller && !/(auto|scroll|hidden)/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      const view = scroller ? scroller.getBoundingClientRect() : { left: 0, right: innerWidth };
      if (box.right > Math.min(view.right, innerWidth) + 1 || box.left < view.left - 1) cut = true;
      if (cut) out.push(`${text.slice(0, 24)} (${Math.round(box.left)}–${Math.round(box.right)} in ${Math.round(view.left)}–${Math.round(view.right)})`);
    }
    return out;
  });
}
