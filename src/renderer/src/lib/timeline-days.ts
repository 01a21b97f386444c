import type { TimelineDay } from '../../../shared/contract.ts';
import type { TimelineRow } from '../../../shared/model.ts';
import type { TimelineItem } from './timeline.ts';

/**
 * The timeline as a list of any length: its days (`timeline.days`: each day's count and cursor)
 * say where every heading and every transaction is, so the list places any of them by
 * arithmetic and reads the rows in view from the nearest day's cursor, never the rows before
 * them (docs/design-notes.md, "Renderer"). Items are a day's heading, then its transactions;
 * "row" below is a transaction's place among the transactions alone, "item" its place in the list.
 */
export interface DayIndex {
  readonly days: readonly TimelineDay[];
  /** The item of each day's heading; one more entry: the number of items. */
  readonly itemStart: Float64Array;
  /** The row of each day's first transaction; one more entry: the number of transactions. */
  readonly rowStart: Float64Array;
}

export function dayIndex(days: readonly TimelineDay[]): DayIndex {
  const itemStart = new Float64Array(days.length + 1);
  const rowStart = new Float64Array(days.length + 1);
  days.forEach((d, i) => {
    itemStart[i + 1] = itemStart[i]! + d.count + 1;
    rowStart[i + 1] = rowStart[i]! + d.count;
  });
  return { days, itemStart, rowStart };
}

export const itemCount = (ix: DayIndex) => ix.itemStart[ix.days.length]!;
export const rowCount = (ix: DayIndex) => ix.rowStart[ix.days.length]!;

/** The last entry of `starts` (a rising list) at or before `at`. */
function lastAtOrBefore(starts: Float64Array, length: number, at: number): number {
  let lo = 0;
  let hi = length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** What the list holds at `item`: a day's heading, or one of its transactions (by row). */
export function itemAt(ix: DayIndex, item: number): { day: number; row: number | null } {
  const day = lastAtOrBefore(ix.itemStart, ix.days.length, item);
  const inDay = item - ix.itemStart[day]!;
  return { day, row: inDay === 0 ? null : ix.rowStart[day]! + inDay - 1 };
}

/** The day a transaction is on (by row). */
export function dayOfRow(ix: DayIndex, row: number): number {
  return lastAtOrBefore(ix.rowStart, ix.days.length, row);
}

/** A transaction's place in the list (its row plus the headings above it). */
export function itemOfRow(ix: DayIndex, row: number): number {
  return row + dayOfRow(ix, row) + 1;
}

/** A day's heading as the list shows it. */
export function dayItem(ix: DayIndex, day: number): Extract<TimelineItem, { kind: 'day' }> {
  const d = ix.days[day]!;
  return { kind: 'day', key: `day-${d.day}`, date: d.day, count: d.count };
}

/** Reads `limit` transactions from `cursor`, passing over `skip` first (`timeline.page`). */
export type ReadRows = (at: { cursor: string; skip: number; limit: number }) => Promise<TimelineRow[]>;

/**
 * The transactions read so far, by row, in blocks of `BLOCK` read from the nearest day's cursor:
 * the blocks the view needs, at most two read at once (those the view has left are not read), and
 * the `KEPT` most recently needed kept. `changed` is called when a block arrives.
 */
export class SparseRows {
  static readonly BLOCK = 100;
  static readonly KEPT = 80;
  readonly #ix: DayIndex;
  readonly #read: ReadRows;
  readonly #changed: () => void;
  readonly #blocks = new Map<number, TimelineRow[]>();
  readonly #reading = new Map<number, Promise<void>>();
  #wanted: number[] = [];

  constructor(ix: DayIndex, read: ReadRows, changed: () => void, first: readonly TimelineRow[] = []) {
    this.#ix = ix;
    this.#read = read;
    this.#changed = changed;
    // The first page, read before the days were known: its whole blocks are the list's first.
    const B = SparseRows.BLOCK;
    const total = rowCount(ix);
    for (let b = 0; b * B < Math.min(first.length, total); b++) {
      const block = first.slice(b * B, (b + 1) * B);
      if (block.length === B || b * B + block.length === total) this.#blocks.set(b, block);
    }
  }

  get index(): DayIndex {
    return this.#ix;
  }

  /** The transaction at `row`, if read. */
  row(row: number): TimelineRow | undefined {
    const B = SparseRows.BLOCK;
    return this.#blocks.get(Math.floor(row / B))?.[row % B];
  }

  /** The item at `item`: a heading (always known), a transaction, or undefined while it is read. */
  item(item: number): TimelineItem | undefined {
    const at = itemAt(this.#ix, item);
    if (at.row === null) return dayItem(this.#ix, at.day);
    const row = this.row(at.row);
    return row && { kind: 'txn', key: `txn-${row.id}`, row };
  }

  /** Every transaction read so far (to find an open detail's row again). */
  *rows(): Iterable<TimelineRow> {
    for (const block of this.#blocks.values()) yield* block;
  }

  /** The view now shows items [first, end): read the blocks it needs, nearest first; forget the rest of what waits. */
  want(first: number, end: number): void {
    if (end <= first) return;
    const B = SparseRows.BLOCK;
    const total = rowCount(this.#ix);
    const from = itemAt(this.#ix, first);
    const to = itemAt(this.#ix, Math.max(first, end - 1));
    const lo = from.row ?? this.#ix.rowStart[from.day]!;
    const hi = Math.min(total - 1, to.row ?? this.#ix.rowStart[to.day]!);
    const wanted: number[] = [];
    for (let b = Math.floor(lo / B); b <= Math.floor(hi / B) && b * B < total; b++) {
      const kept = this.#blocks.get(b);
      if (kept) {
        // Most recently needed last: the first entries are the ones to forget.
        this.#blocks.delete(b);
        this.#blocks.set(b, kept);
      } else if (!this.#reading.has(b)) wanted.push(b);
    }
    this.#wanted = wanted;
    this.#pump();
  }

  /** The transaction at `row`, read now if it is not yet. */
  async load(row: number): Promise<TimelineRow | undefined> {
    const B = SparseRows.BLOCK;
    const b = Math.floor(row / B);
    if (!this.#blocks.has(b)) await (this.#reading.get(b) ?? this.#start(b));
    return this.row(row);
  }

  #pump(): void {
    while (this.#reading.size < 2 && this.#wanted.length) void this.#start(this.#wanted.shift()!);
  }

  #start(b: number): Promise<void> {
    const B = SparseRows.BLOCK;
    const row = b * B;
    const day = dayOfRow(this.#ix, row);
    const reading = this.#read({ cursor: this.#ix.days[day]!.cursor, skip: row - this.#ix.rowStart[day]!, limit: B })
      .then((rows) => {
        this.#blocks.set(b, rows);
        while (this.#blocks.size > SparseRows.KEPT) this.#blocks.delete(this.#blocks.keys().next().value!);
        this.#changed();
      })
      .catch(() => undefined)
      .finally(() => {
        this.#reading.delete(b);
        this.#pump();
      });
    this.#reading.set(b, reading);
    return reading;
  }
}
