import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addExact, decimalSum, exactNumber, exactSum, textSum } from '../../src/shared/decimal.ts';
import { navSums, positionTotals, positionTotalsOf } from '../../src/shared/portfolio/totals.ts';

/**
 * Sums kept exact per part and added (src/shared/decimal.ts `ExactSum`; a portfolio member's part,
 * src/main/core/portfolio/parts.ts): the whole rounded once is the very double a decimal sum of
 * every term gives, however the terms are cut into parts, and a portfolio's totals from its
 * members' sums are the totals of all its positions.
 */
const amount = fc.oneof(
  fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 100),
  fc.constantFrom(0.1, 0.2, 0.3, 1e-7, 1.5e-7, 123456789.12345679, -0, 1e21, 5e-324),
);
/** `xs` cut into consecutive parts at the given points (some parts empty). */
const cut = <T>(xs: readonly T[], at: readonly number[]): T[][] => {
  const points = [...new Set(at.map((p) => p % (xs.length + 1)))].sort((a, b) => a - b);
  const out: T[][] = [];
  let from = 0;
  for (const p of [...points, xs.length]) {
    out.push(xs.slice(from, p));
    from = p;
  }
  return out;
};

describe('exact sums of parts', () => {
  it('add up to the decimal sum of every term, however the terms are cut', () => {
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), (xs, at) => {
        const whole = decimalSum(xs);
        expect(exactNumber(addExact(cut(xs, at).map(exactSum)))).toBe(whole);
        expect(addExact(cut(xs, at).map(exactSum)).terms).toBe(xs.length);
      }),
      { numRuns: 400, seed: 40 },
    );
    // Doubles that sum in binary to something else: 0.1 + 0.2 in two parts is 0.3.
    expect(exactNumber(addExact([exactSum([0.1]), exactSum([0.2])]))).toBe(0.3);
  });

  it("give a portfolio's totals from its members' sums: the totals of all its positions", () => {
    const nav = fc.oneof(amount, fc.constant(null));
    const position = fc.record({ principal_nav: nav, reward_nav: nav });
    fc.assert(
      fc.property(fc.array(position, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), (ps, at) => {
        expect(positionTotalsOf(cut(ps, at).map(navSums))).toEqual(positionTotals(ps));
      }),
      { numRuns: 400, seed: 41 },
    );
    // No term known anywhere: unknown, never 0.
    expect(positionTotalsOf([navSums([{ principal_nav: null, reward_nav: null }]), navSums([])])).toEqual({
      total: null,
      principal: null,
      reward: null,
      count: 1,
    });
  });
});

describe('sums without text', () => {
  // Terms of every shape the doubles' way takes or hands back to the text: few and many decimals,
  // either side of 2^50 in units, partial sums that cross it, tiny and exponent-written ones, -0.
  const term = fc.oneof(
    amount,
    fc.tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), fc.integer({ min: 0, max: 18 })).map(([n, k]) => n / 10 ** k),
    fc.tuple(fc.integer({ min: 2 ** 48, max: 2 ** 52 }), fc.integer({ min: 0, max: 6 }), fc.boolean()).map(([n, k, neg]) => ((neg ? -1 : 1) * n) / 10 ** k),
    fc.constantFrom(2 ** 50 - 1, 2 ** 50, -(2 ** 50), 2 ** 53, 0.000001, 1e-15, 1.23e-16, 9007199254740.992, 0.30000000000000004),
  );
  it('are the sums of the decimal texts, to the bit', () => {
    fc.assert(
      fc.property(fc.array(term, { maxLength: 30 }), (xs) => {
        const text = textSum(xs);
        const exact = exactSum(xs);
        expect(exact).toEqual(text);
        expect(Object.is(decimalSum(xs), exactNumber(text))).toBe(true);
      }),
      { numRuns: 3000, seed: 42 },
    );
    expect(Object.is(decimalSum([-0, -0]), 0)).toBe(true);
    expect(decimalSum([0.1, 0.2])).toBe(0.3);
    expect(decimalSum([2 ** 50 - 1, 1, 0.5])).toBe(2 ** 50 + 0.5);
  });
});
