/**
 * Numbers as decimal text, exactly: the one formatter the CSV exports call for every number,
 * and sums that add the decimals the service sent rather than their binary approximations
 * (0.1 + 0.2 is 0.3 here, not 0.30000000000000004).
 */

const EXPONENT = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * The shortest text that reads back as the same double, in plain decimal notation (never an
 * exponent, which some tools misread): 1e+30 → 1000000000000000000000000000000, 1.5e-7 →
 * 0.00000015. Only numbers that String() writes with an exponent (|n| ≥ 1e21 or < 1e-6) do any
 * work beyond String().
 */
export function plainDecimal(n: number): string {
  const s = String(n);
  if (s.indexOf('e') < 0) return s;
  const m = EXPONENT.exec(s);
  if (!m) return s; // NaN and Infinity have no e; kept for completeness
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const point = 1 + Number(m[4]); // digits before the decimal point
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The exact sum of finite numbers, as their decimal texts add up, rounded once to a double. */
export function decimalSum(values: readonly number[]): number {
  const fast = smallSum(values);
  return fast ? fast.units / POW10[fast.scale]! : exactNumber(textSum(values));
}

/** 10^k, each exact as a double. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
/** A term's digits, and their partial sums, are kept below this: there a double holds every integer exactly and v × 10^k errs by under ¼. */
const UNITS_BELOW = 2 ** 50;

/**
 * The exact sum as exactSum has it (units × 10^-scale), in doubles instead of text and BigInt,
 * when every term has at most 15 decimals and every figure stays below 2^50; null otherwise (then
 * the text does it). Most sums here are of money and quantities, and this is the time they took.
 *
 * Why it is the same sum: a term v with a k-decimal text (String's shortest) is D / 10^k rounded,
 * D an integer under 2^50, so v × 10^k computed in doubles is within ¼ of D: Math.round finds D,
 * and D / 10^k (both exact, divided with one rounding) reads back as v. No smaller k reads back
 * (or the text would have fewer digits), and at the first k that does, D is the only integer
 * that does (two would need a step of v's of 10^-k or more: v × 10^k ≥ 2^52). Terms brought to
 * the largest scale and added stay exact integers below 2^53, and units / 10^scale is the double
 * nearest the exact quotient, as Number() of its text is. Test: test/unit/exact-sums.test.ts.
 */
function smallSum(values: readonly number[]): { units: number; scale: number } | null {
  let units = 0; // +0: a sum of -0 terms is 0, as the text's is
  let scale = 0;
  for (const v of values) {
    let k = 0;
    let d = Math.round(v);
    while (d / POW10[k]! !== v) {
      if (++k > 15) return null;
      d = Math.round(v * POW10[k]!);
    }
    if (!(Math.abs(d) < UNITS_BELOW)) return null; // NaN and Infinity too
    if (k > scale) {
      units *= POW10[k - scale]!;
      scale = k;
    } else d *= POW10[scale - k]!;
    units += d;
    if (!(Math.abs(units) < UNITS_BELOW && Math.abs(d) < UNITS_BELOW)) return null;
  }
  return { units, scale };
}

/**
 * A sum kept exact, not yet rounded: `units` × 10^-`scale`, over `terms` numbers. Sums of parts
 * (a portfolio member's, src/main/core/portfolio/parts.ts) are added exactly and rounded once, so
 * the whole is the double `decimalSum` of every term would give, whatever the parts.
 */
export interface ExactSum {
  units: bigint;
  scale: number;
  terms: number;
}

/** The exact sum of finite numbers, unrounded. */
export function exactSum(values: readonly number[]): ExactSum {
  const fast = smallSum(values);
  return fast ? { units: BigInt(fast.units), scale: fast.scale, terms: values.length } : textSum(values);
}

/**
 * The exact sum by the terms' decimal texts, in BigInt: what every exact sum here means, made this
 * way where the doubles' way (smallSum) cannot make it, and the reference its test checks it by.
 */
export function textSum(values: readonly number[]): ExactSum {
  let scale = 0;
  const parts: Array<[string, string, boolean]> = [];
  for (const v of values) {
    const text = plainDecimal(v);
    const negative = text.startsWith('-');
    const [int = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
    if (frac.length > scale) scale = frac.length;
    parts.push([int, frac, negative]);
  }
  let units = 0n;
  for (const [int, frac, negative] of parts) {
    const u = BigInt(int + frac.padEnd(scale, '0'));
    units += negative ? -u : u;
  }
  return { units, scale, terms: values.length };
}

/** Exact sums added, unrounded (at the largest scale among them, as one sum of all their terms). */
export function addExact(sums: readonly ExactSum[]): ExactSum {
  const scale = sums.reduce((s, x) => Math.max(s, x.scale), 0);
  let units = 0n;
  let terms = 0;
  for (const x of sums) {
    units += x.scale === scale ? x.units : x.units * 10n ** BigInt(scale - x.scale);
    terms += x.terms;
  }
  return { units, scale, terms };
}

/** An exact sum rounded once to a double (0 for no terms). */
export function exactNumber({ units, scale }: ExactSum): number {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return Number((negative ? '-' : '') + text);
}

/** Sum of the present terms; null when none is present ("—", never 0 by accident). */
export function decimalSumOrNull(values: ReadonlyArray<number | null | undefined>): number | null {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return present.length ? decimalSum(present) : null;
}
