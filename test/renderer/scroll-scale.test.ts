import { describe, expect, it } from 'vitest';
import { boxHeight, follow, offsetFor, runwayOf, scaleOf, scrollTopFor, stuckAtEnd, type Span } from '../../src/renderer/src/lib/scroll-scale.ts';
import { dayIndex, itemAt, itemCount, itemOfRow, rowCount, SparseRows } from '../../src/renderer/src/lib/timeline-days.ts';
import type { TimelineRow } from '../../src/shared/model.ts';

/**
 * The scroll range of a list taller than a browser lays out (lib/scroll-scale.ts): the box's
 * position stands for the list's place in proportion, the ends for the ends, and small moves
 * go row by row. Ten million rows of 36 px in a 12 M px box, 700 px in view: the scale is 30.
 */
const ROW = 36;
const TEN_MILLION: Span = { total: 10_000_000 * ROW, max: 12_000_000, view: 700 };
const listEnd = (s: Span) => s.total - s.view;
const boxEnd = (s: Span) => boxHeight(s) - s.view;

describe('the scale between the box and the list', () => {
  it('is none for a list that fits: the box is the list', () => {
    const fits: Span = { total: 100_000 * ROW, max: 12_000_000, view: 700 };
    expect(boxHeight(fits)).toBe(3_600_000);
    expect(scaleOf(fits)).toBe(1);
    for (const top of [0, 1, 36, 77_777, boxEnd(fits)]) {
      expect(offsetFor(fits, top)).toBe(top);
      expect(scrollTopFor(fits, top)).toBe(top);
      expect(follow(fits, { offset: 5, from: 5, to: top, dragging: false })).toBe(top);
    }
  });

  it('keeps the box under the cap whatever the list, and scales by the rest', () => {
    expect(boxHeight(TEN_MILLION)).toBe(12_000_000);
    expect(scaleOf(TEN_MILLION)).toBeCloseTo((360_000_000 - 700) / (12_000_000 - 700), 9);
    expect(boxHeight({ total: 1e12, max: 12_000_000, view: 700 })).toBe(12_000_000);
  });

  it('maps the box to the list monotonically, and each end to the end', () => {
    const s = TEN_MILLION;
    expect(offsetFor(s, 0)).toBe(0);
    expect(offsetFor(s, boxEnd(s))).toBe(listEnd(s));
    expect(offsetFor(s, boxEnd(s) + 50)).toBe(listEnd(s));
    expect(scrollTopFor(s, 0)).toBe(0);
    expect(scrollTopFor(s, listEnd(s))).toBe(boxEnd(s));
    let last = -1;
    for (let top = 0; top <= boxEnd(s); top += 9_973) {
      const offset = offsetFor(s, top);
      expect(offset).toBeGreaterThanOrEqual(last);
      last = offset;
    }
    let lastTop = -1;
    for (let offset = 0; offset <= listEnd(s); offset += 299_993) {
      const top = scrollTopFor(s, offset);
      expect(top).toBeGreaterThanOrEqual(lastTop);
      lastTop = top;
    }
  });

  it('keeps the box off its ends while the list is not at its own (a runway for the next notch)', () => {
    const s = TEN_MILLION;
    const runway = runwayOf(s);
    expect(runway).toBe(2_800);
    expect(scrollTopFor(s, 1)).toBe(runway);
    expect(scrollTopFor(s, 36 * 50)).toBe(runway);
    expect(scrollTopFor(s, listEnd(s) - 1)).toBe(boxEnd(s) - runway);
    // In between, in proportion.
    expect(scrollTopFor(s, 180_000_000)).toBe(Math.round(180_000_000 / scaleOf(s)));
  });

  it('moves row by row on small moves (a wheel notch, a key, a page), wherever the list is', () => {
    const s = TEN_MILLION;
    for (const start of [0, 36 * 1_000, 180_000_000, listEnd(s) - 36 * 40]) {
      const from = scrollTopFor(s, start);
      for (const by of [36, -36, 100, 700, -700, 1_400]) {
        const offset = follow(s, { offset: start, from, to: from + by, dragging: false });
        expect(offset, `${start} by ${by}`).toBe(Math.min(listEnd(s), Math.max(0, start + by)));
      }
    }
    // Down a thousand rows one at a time and back: the same place, never a jump.
    let offset = 180_000_000;
    let top = scrollTopFor(s, offset);
    for (let i = 0; i < 1_000; i++) {
      const next = follow(s, { offset, from: top, to: top + ROW, dragging: false });
      expect(next - offset).toBe(ROW);
      offset = next;
      top += ROW;
      // The box set back once it stops, as the list does at each scroll's end.
      if (i % 10 === 9) top = scrollTopFor(s, offset);
    }
    expect(offset).toBe(180_000_000 + 1_000 * ROW);
  });

  it('jumps in proportion when the thumb is dragged or the box moves by more than two views', () => {
    const s = TEN_MILLION;
    const half = Math.round(boxEnd(s) / 2);
    expect(follow(s, { offset: 0, from: 0, to: half, dragging: true })).toBe(offsetFor(s, half));
    expect(follow(s, { offset: 0, from: 0, to: 1_401, dragging: false })).toBe(offsetFor(s, 1_401));
    // Dragged to the bottom: the last row whole; to the top: the first.
    expect(follow(s, { offset: 5, from: 5, to: boxEnd(s), dragging: true })).toBe(listEnd(s));
    expect(follow(s, { offset: 9e7, from: 3e6, to: 0, dragging: true })).toBe(0);
  });

  it('says when the box stopped at an end the list has not reached (its position is set again at once)', () => {
    const s = TEN_MILLION;
    expect(stuckAtEnd(s, 500, 0)).toBe(true);
    expect(stuckAtEnd(s, 0, 0)).toBe(false);
    expect(stuckAtEnd(s, listEnd(s) - 10, boxEnd(s))).toBe(true);
    expect(stuckAtEnd(s, listEnd(s), boxEnd(s))).toBe(false);
    expect(stuckAtEnd({ total: 1000, max: 12_000_000, view: 700 }, 100, 0)).toBe(false);
  });
});

describe('the days of a long list', () => {
  const days = [
    { day: '2026-11-03', count: 3, cursor: 'c3' },
    { day: '2026-11-02', count: 250, cursor: 'c2' },
    { day: '2026-10-30', count: 1, cursor: 'c1' },
  ];
  const ix = dayIndex(days);
  it('places every heading and transaction by arithmetic', () => {
    expect(itemCount(ix)).toBe(257);
    expect(rowCount(ix)).toBe(254);
    expect(itemAt(ix, 0)).toEqual({ day: 0, row: null });
    expect(itemAt(ix, 1)).toEqual({ day: 0, row: 0 });
    expect(itemAt(ix, 3)).toEqual({ day: 0, row: 2 });
    expect(itemAt(ix, 4)).toEqual({ day: 1, row: null });
    expect(itemAt(ix, 5)).toEqual({ day: 1, row: 3 });
    expect(itemAt(ix, 255)).toEqual({ day: 2, row: null });
    expect(itemAt(ix, 256)).toEqual({ day: 2, row: 253 });
    for (let row = 0; row < 254; row++) expect(itemAt(ix, itemOfRow(ix, row)).row).toBe(row);
  });

  it("reads a block from its day's cursor, passing over the day's rows before it, and only what the view needs", async () => {
    const asked: Array<{ cursor: string; skip: number; limit: number }> = [];
    const fake = (n: number) => ({ id: n }) as TimelineRow;
    const rows = new SparseRows(
      ix,
      async (at) => {
        asked.push(at);
        const start = { c3: 0, c2: 3, c1: 253 }[at.cursor]! + at.skip;
        return Array.from({ length: Math.min(at.limit, 254 - start) }, (_, i) => fake(start + i));
      },
      () => undefined,
      Array.from({ length: 120 }, (_, i) => fake(i)),
    );
    // The first page's whole block is the list's first; the rest of it waits for a block.
    expect(rows.row(99)?.id).toBe(99);
    expect(rows.row(100)).toBeUndefined();
    expect(rows.item(0)).toMatchObject({ kind: 'day', date: '2026-11-03', count: 3 });
    expect(await rows.load(200)).toMatchObject({ id: 200 });
    expect(asked).toEqual([{ cursor: 'c2', skip: 197, limit: 100 }]);
    rows.want(itemOfRow(ix, 253) - 3, itemOfRow(ix, 253) + 1);
    expect(await rows.load(253)).toMatchObject({ id: 253 });
    // Rows 250 to 253 are in the block read already: nothing more is asked, and the rows between are not read.
    expect(asked).toHaveLength(1);
    expect(rows.row(150)).toBeUndefined();
    rows.want(itemOfRow(ix, 150), itemOfRow(ix, 160));
    await rows.load(150);
    expect(asked.at(-1)).toEqual({ cursor: 'c2', skip: 97, limit: 100 });
  });
});
