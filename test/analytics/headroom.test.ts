import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crossesAt, headroom, stressedHealth, tokenFallToThreshold } from '../../src/shared/headroom.ts';
import { RISK_MARGIN } from '../../src/shared/portfolio/risk.ts';

const ratio = fc.double({ min: 0.05, max: 50, noNaN: true });
const threshold = fc.double({ min: 0.05, max: 0.99, noNaN: true });
const share = fc.double({ min: 0.01, max: 1, noNaN: true });

describe('liquidation headroom (fast-check)', () => {
  it('a collateral fall of exactly the headroom lands on health 1, and the debt rise likewise', () => {
    fc.assert(
      fc.property(ratio, threshold, (r, t) => {
        const h = headroom(r, t)!;
        expect(h.health).toBeCloseTo(r * t, 12);
        if (h.health > 1) {
          expect(r * (1 - h.collateralFall) * t).toBeCloseTo(1, 9);
          expect((r / (1 + h.debtRise)) * t).toBeCloseTo(1, 9);
          expect(h.collateralFall).toBeGreaterThan(0);
          expect(h.collateralFall).toBeLessThan(1);
        } else {
          expect(h.collateralFall).toBe(0);
          expect(h.debtRise).toBe(0);
        }
        expect(h.crossed).toBe(r * t < 1);
        expect(h.atRisk).toBe(r * t < RISK_MARGIN);
      }),
      { numRuns: 2000 },
    );
  });

  it('a position crosses at a fall exactly when its stressed health drops to 1 or below', () => {
    fc.assert(
      fc.property(ratio, threshold, share, fc.double({ min: 0, max: 1, noNaN: true }), (r, t, s, fall) => {
        const h = headroom(r, t)!;
        const stressed = stressedHealth(h, s, fall);
        expect(stressed).toBeCloseTo(r * t * (1 - s * fall), 9);
        // Away from the boundary (float rounding), crossing and stressed health agree.
        if (Math.abs(stressed - 1) > 1e-9 && !h.crossed) expect(crossesAt(h, s, fall)).toBe(stressed < 1);
        if (h.crossed) expect(crossesAt(h, s, fall)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a token that is part of the collateral must fall more; more than 100% means it cannot alone', () => {
    fc.assert(
      fc.property(ratio, threshold, share, (r, t, s) => {
        const h = headroom(r, t)!;
        const f = tokenFallToThreshold(h, s);
        if (h.health <= 1) {
          expect(f).toBe(0);
          return;
        }
        const needed = h.collateralFall / s;
        if (needed > 1) expect(f).toBeNull();
        else expect(f).toBeCloseTo(needed, 12);
        // Monotone: a larger share never needs a larger fall.
        const g = tokenFallToThreshold(h, Math.min(1, s * 1.5));
        if (f !== null && g !== null) expect(g).toBeLessThanOrEqual(f + 1e-12);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses figures that are not a ratio or a threshold', () => {
    for (const [r, t] of [
      [0, 0.8],
      [-1, 0.8],
      [2, 0],
      [Number.NaN, 0.8],
      [2, Number.POSITIVE_INFINITY],
    ])
      expect(headroom(r!, t!)).toBeNull();
  });

  it('known figures: R 2.0 at T 0.825 can lose 39.39% of collateral or gain 65% of debt', () => {
    const h = headroom(2, 0.825)!;
    expect(h.health).toBeCloseTo(1.65, 12);
    expect(h.collateralFall).toBeCloseTo(1 - 1 / 1.65, 12);
    expect(h.debtRise).toBeCloseTo(0.65, 12);
  });
});
