/**
 * Value by a dimension (asset type, protocol, chain), largest first, and each entry's share of
 * the whole. Only positive sums are listed (net debt is not a slice of the portfolio). Sums are
 * exact in decimal, so the order of the positions does not matter.
 */
import { decimalSum } from '../decimal.ts';

export interface AllocationEntry {
  label: string;
  value: number;
}

export function allocation<T>(items: readonly T[], key: (item: T) => string, value: (item: T) => number): AllocationEntry[] {
  const terms = new Map<string, number[]>();
  for (const item of items) {
    const k = key(item);
    const list = terms.get(k);
    if (list) list.push(value(item));
    else terms.set(k, [value(item)]);
  }
  return [...terms.entries()]
    .map(([label, values]) => ({ label, value: decimalSum(values) }))
    .filter((x) => x.value > 0)
    .sort((a, b) => b.value - a.value);
}

/** Each entry's share (0..1) of the entries' sum; 0 each when there is nothing to share. */
export function withShares<E extends AllocationEntry>(entries: readonly E[]): Array<E & { share: number }> {
  const whole = decimalSum(entries.map((x) => x.value));
  return entries.map((x) => ({ ...x, share: whole ? x.value / whole : 0 }));
}
