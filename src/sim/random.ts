import { hash } from 'node:crypto';

/**
 * Deterministic randomness: every value the simulator invents is a pure function of
 * (seed, what it is for), so any page of any wallet can be produced on demand, in any
 * order, without remembering earlier ones.
 */

/** A 32-bit hash of the parts (FNV-1a over their text), the seed of a generator. */
export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x1f; // separator, so ("ab","c") differs from ("a","bc")
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast generator of floats in [0, 1). */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;
  constructor(...parts: Array<string | number>) {
    this.next = generator(hash32(...parts));
  }
  float(): number {
    return this.next();
  }
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [value, w] of items) {
      r -= w;
      if (r < 0) return value;
    }
    return items[items.length - 1]![0];
  }
}

/** Hex digest of the parts, for addresses and hashes that look real. */
export function hexOf(length: number, ...parts: Array<string | number>): string {
  let out = '';
  let counter = 0;
  while (out.length < length) {
    // One digest of the joined text (what an incremental hash of the two parts gives).
    out += hash('sha256', parts.join('\u0000') + String(counter++), 'hex');
  }
  return out.slice(0, length);
}

/** Smooth deterministic noise in [-1, 1] over a real axis (sum of phased sines). */
export function wave(x: number, key: number): number {
  const p1 = ((key % 997) / 997) * Math.PI * 2;
  const p2 = ((key % 883) / 883) * Math.PI * 2;
  const p3 = ((key % 769) / 769) * Math.PI * 2;
  return 0.55 * Math.sin(x / 53 + p1) + 0.3 * Math.sin(x / 17 + p2) + 0.15 * Math.sin(x / 5.3 + p3);
}

/** Rounds to a number of significant-looking decimals, as amounts appear on chain explorers. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
