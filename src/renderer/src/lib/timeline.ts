import type { TimelineRow } from '../../../shared/model.ts';

/** The timeline as the list shows it: a heading for each day, then that day's transactions. */
export type TimelineItem = { kind: 'day'; key: string; date: string; count: number } | { kind: 'txn'; key: string; row: TimelineRow };

export function groupByDay(rows: readonly TimelineRow[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let current: { kind: 'day'; key: string; date: string; count: number } | null = null;
  for (const row of rows) {
    const day = row.date?.slice(0, 10) ?? 'unknown';
    if (!current || current.date !== day) {
      current = { kind: 'day', key: `day-${day}`, date: day, count: 0 };
      items.push(current);
    }
    current.count++;
    items.push({ kind: 'txn', key: `txn-${row.id}`, row });
  }
  return items;
}

/** One line of what a transaction moved: "−0.5 WETH → +1,200 USDC". */
export function transferSummary(row: TimelineRow, fmt: (n: number | null) => string): string {
  if (!row.details.length) return row.status === 0 ? 'failed — nothing moved' : 'no transfers';
  return row.details.map((d) => `${d.type === 'out' ? '−' : '+'}${fmt(d.qty)} ${d.symbol ?? '?'}`).join(' → ');
}
