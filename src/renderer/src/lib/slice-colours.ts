/**
 * Which palette colour each slice of the allocation by chain gets: one from the chain id, not
 * from the slice's rank, so "arb" is the same colour in every scope and on every date. Known
 * chains have a colour of their own; any other id starts at a colour from a hash of its text
 * and, if a slice of the same chart already has it, takes the next free one (ids taken in a
 * fixed order, so the outcome does not depend on the values).
 */

/** Palette indexes (0-based, of --chart-1 … --chart-8) of the chains the app knows (chain-names.ts). */
export const CHAIN_COLOURS: Readonly<Record<string, number>> = { eth: 0, arb: 5, op: 4, base: 1, matic: 3, bsc: 7 };

/** FNV-1a of the key's UTF-16 code units: stable across runs and machines. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The palette index of each key, in the order given; `fixed` pins some keys (CHAIN_COLOURS). */
export function sliceColourIndexes(keys: readonly string[], size: number, fixed: Readonly<Record<string, number>> = {}): number[] {
  const taken = new Set<number>();
  const chosen = new Map<string, number>();
  const own = (k: string) => Object.hasOwn(fixed, k);
  for (const k of keys) if (own(k)) taken.add(fixed[k]! % size);
  for (const k of keys) if (own(k)) chosen.set(k, fixed[k]! % size);
  for (const k of [...new Set(keys)].filter((k) => !own(k)).sort()) {
    let i = hash(k) % size;
    // Past `size` slices a colour is shared: the first free one is kept when there is one.
    for (let n = 0; n < size && taken.has(i); n++) i = (i + 1) % size;
    taken.add(i);
    chosen.set(k, i);
  }
  return keys.map((k) => chosen.get(k)!);
}
