import type { TimelineRow } from '../../../shared/model.ts';
import { dayOf } from './format.ts';
import { words } from './words.ts';

/** The timeline as the list shows it: a heading for each day, then that day's transactions. */
export type TimelineItem = { kind: 'day'; key: string; date: string; count: number } | { kind: 'txn'; key: string; row: TimelineRow };

export function groupByDay(rows: readonly TimelineRow[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let current: { kind: 'day'; key: string; date: string; count: number } | null = null;
  for (const row of rows) {
    // Days in the time zone the times are shown in, so a row never sits under the wrong day.
    const day = dayOf(row.date);
    if (!current || current.date !== day) {
      current = { kind: 'day', key: `day-${day}`, date: day, count: 0 };
      items.push(current);
    }
    current.count++;
    items.push({ kind: 'txn', key: `txn-${row.id}`, row });
  }
  return items;
}

/**
 * Appends a page to grouped items without regrouping what is there: only the last day's
 * heading may grow (a page can continue the previous page's day). Returns a new array.
 */
export function appendByDay(items: readonly TimelineItem[], rows: readonly TimelineRow[]): TimelineItem[] {
  if (!rows.length) return items as TimelineItem[];
  const out = items.slice();
  let lastDay = -1;
  for (let i = out.length - 1; i >= 0; i--)
    if (out[i]!.kind === 'day') {
      lastDay = i;
      break;
    }
  const head = lastDay >= 0 ? (out[lastDay] as Extract<TimelineItem, { kind: 'day' }>) : null;
  const more = groupByDay(rows);
  const first = more[0];
  if (head && first?.kind === 'day' && first.date === head.date) {
    // Same day continues: a new heading object with the combined count, and no second heading.
    out[lastDay] = { ...head, count: head.count + first.count };
    more.shift();
  }
  return out.concat(more);
}

/**
 * One line of what a transaction moved: "-0.5 WETH → +1,200 USDC". `signed` formats a quantity
 * with its sign (qty with `sign`), so the minus is the locale's, as on every other screen.
 */
export function transferSummary(row: TimelineRow, signed: (n: number | null) => string): string {
  if (!row.details.length) return row.status === 0 ? words.timeline.failedNothing : words.timeline.noTransfers;
  return row.details.map((d) => `${signed(d.qty === null ? null : d.type === 'out' ? -d.qty : d.qty)} ${d.symbol ?? '?'}`).join(' → ');
}
