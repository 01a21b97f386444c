/**
 * Value by a dimension (asset type, protocol, chain), largest first, and each entry's share of
 * the whole. Only positive sums are listed (net debt is not a slice of the portfolio). Sums are
 * exact in decimal, so the order of the positions does not matter.
 */
import { addExact, decimalSum, exactNumber, exactSum, type ExactSum } from '../decimal.ts';

export interface AllocationEntry {
  label: string;
  value: number;
}

export function allocation<T>(items: readonly T[], key: (item: T) => string, value: (item: T) => number): AllocationEntry[] {
  return allocationOfParts(items.map(key), [exactByLabel(items, key, value)]);
}

/** A part's values summed exactly by label, unrounded: what `allocationOfParts` adds up. */
export function exactByLabel<T>(items: readonly T[], key: (item: T) => string, value: (item: T, index: number) => number): Map<string, ExactSum> {
  const terms = new Map<string, number[]>();
  items.forEach((item, i) => {
    const k = key(item);
    const list = terms.get(k);
    if (list) list.push(value(item, i));
    else terms.set(k, [value(item, i)]);
  });
  return new Map([...terms].map(([label, values]) => [label, exactSum(values)]));
}

/**
 * `allocation` over every item of some parts, from each part's sums by label (exactByLabel): the
 * same entries in the same order, each label's sums added exactly and rounded once. `order` gives
 * the labels as `allocation` would meet them among the items (its order for equal sums); a view
 * of a fund keeps its members' sums, so a write to one member sums that member again, not all.
 */
export function allocationOfParts(order: Iterable<string>, parts: ReadonlyArray<ReadonlyMap<string, ExactSum>>): AllocationEntry[] {
  const sums = new Map<string, ExactSum[]>();
  for (const label of order) if (!sums.has(label)) sums.set(label, []);
  for (const part of parts)
    for (const [label, sum] of part) {
      const list = sums.get(label);
      if (list) list.push(sum);
      else sums.set(label, [sum]);
    }
  return [...sums.entries()]
    .map(([label, s]) => ({ label, value: exactNumber(addExact(s)) }))
    .filter((x) => x.value > 0)
    .sort((a, b) => b.value - a.value);
}

/** Each entry's share (0..1) of the entries' sum; 0 each when there is nothing to share. */
export function withShares<E extends AllocationEntry>(entries: readonly E[]): Array<E & { share: number }> {
  const whole = decimalSum(entries.map((x) => x.value));
  return entries.map((x) => ({ ...x, share: whole ? x.value / whole : 0 }));
}
