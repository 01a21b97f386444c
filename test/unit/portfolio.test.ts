import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allocation, withShares } from '../../src/shared/portfolio/allocation.ts';
import { lendingFigures, lendingLegs } from '../../src/shared/portfolio/lending.ts';
import { health, isAtRisk, RISK_MARGIN } from '../../src/shared/portfolio/risk.ts';
import { knownValue, positionTotals, positionValue } from '../../src/shared/portfolio/totals.ts';
import { headroom } from '../../src/shared/headroom.ts';
import { liquiditySnapshot, positionSnapshot, type Position } from '../../src/shared/service/schemas.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { insertSnapshot, latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { execFileSync } from 'node:child_process';
import { tempDir } from '../support/store.ts';

/**
 * The portfolio math the store, the views and the PDF share (src/shared/portfolio), by its
 * properties: the null rule (an unknown member is left out of a sum, and a sum with no known
 * member is unknown, never 0), independence of the order of the terms, and decimal exactness.
 */

// Amounts as whole cents, so the exact sum is known independently of the code under test.
const cents = fc.integer({ min: -10_000_000_00, max: 10_000_000_00 });
const member = fc.option(cents, { nil: null, freq: 3 });
const navs = fc.record({ principal: member, reward: member, unreadable: fc.constantFrom(null, 'principal_nav', 'reward_nav') });
type Navs = { principal: number | null; reward: number | null; unreadable: string | null };

function position(n: Navs): Position {
  // An unreadable member is null with what was sent in _invalid, as the parser leaves it.
  const p = { principal_nav: n.principal === null ? null : n.principal / 100, reward_nav: n.reward === null ? null : n.reward / 100 };
  if (n.unreadable) return { ...p, [n.unreadable]: null, _invalid: { [n.unreadable]: 'NaN' }, underlying: [] } as unknown as Position;
  return { ...p, underlying: [] } as unknown as Position;
}
/** A list and the same items in another order. */
const listAndShuffled = <T>(item: fc.Arbitrary<T>, maxLength: number) =>
  fc.array(item, { maxLength }).chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })));
const known = (n: Navs, m: 'principal' | 'reward') => (n.unreadable === `${m}_nav` ? null : n[m]);
const exact = (xs: Array<number | null>) => {
  const present = xs.filter((x): x is number => x !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / 100 : null; // integers: exact
};

describe('position totals: one null rule (fast-check)', () => {
  it('a sum is the exact decimal sum of its known members, and unknown only when none is known', () => {
    fc.assert(
      fc.property(fc.array(navs, { maxLength: 30 }), (list) => {
        const t = positionTotals(list.map(position));
        const principal = exact(list.map((n) => known(n, 'principal')));
        const reward = exact(list.map((n) => known(n, 'reward')));
        expect(t.principal).toBe(principal);
        expect(t.reward).toBe(reward);
        expect(t.total).toBe(
          principal === null && reward === null ? null : exact([...list.map((n) => known(n, 'principal')), ...list.map((n) => known(n, 'reward'))]),
        );
        expect(t.count).toBe(list.length);
      }),
    );
  });

  it('an unknown member never makes a total 0 or drops a known member', () => {
    fc.assert(
      fc.property(
        fc.array(navs, { maxLength: 20 }),
        fc.array(fc.constant({ principal: null, reward: null, unreadable: null }), { minLength: 1, maxLength: 5 }),
        (list, unknowns) => {
          const with_ = positionTotals([...list, ...unknowns].map(position));
          const without = positionTotals(list.map(position));
          expect(with_.total).toBe(without.total);
          expect(positionTotals(unknowns.map(position)).total).toBeNull();
        },
      ),
    );
  });

  it('does not depend on the order of the positions', () => {
    fc.assert(
      fc.property(listAndShuffled(navs, 30), ([list, shuffled]) => {
        expect(positionTotals(shuffled.map(position))).toEqual(positionTotals(list.map(position)));
      }),
    );
  });

  it('is exact in decimal: 0.1 + 0.2 is 0.3', () => {
    const t = positionTotals([position({ principal: 10, reward: 20, unreadable: null })]);
    expect(t.total).toBe(0.3);
  });

  it("one position's value is unknown when a member was unreadable, else its known members' sum", () => {
    fc.assert(
      fc.property(navs, (n) => {
        const p = position(n);
        if (n.unreadable) expect(positionValue(p)).toBeNull();
        else expect(positionValue(p)).toBe(exact([n.principal, n.reward]));
        expect(knownValue(p)).toBe(exact([known(n, 'principal'), known(n, 'reward')]) ?? 0);
      }),
    );
  });
});

describe('allocation (fast-check)', () => {
  const item = fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), value: cents });
  it('sums each key exactly, lists positive sums only, largest first, whatever the order', () => {
    fc.assert(
      fc.property(listAndShuffled(item, 40), ([list, shuffled]) => {
        const a = allocation(
          list,
          (x) => x.key,
          (x) => x.value / 100,
        );
        const sums = new Map<string, number>();
        for (const x of list) sums.set(x.key, (sums.get(x.key) ?? 0) + x.value);
        expect(new Map(a.map((e) => [e.label, e.value]))).toEqual(new Map([...sums].filter(([, v]) => v > 0).map(([k, v]) => [k, v / 100])));
        expect(a.map((e) => e.value)).toEqual([...a.map((e) => e.value)].sort((x, y) => y - x));
        expect(
          new Map(
            allocation(
              shuffled,
              (x) => x.key,
              (x) => x.value / 100,
            ).map((e) => [e.label, e.value]),
          ),
        ).toEqual(new Map(a.map((e) => [e.label, e.value])));
        const shares = withShares(a);
        if (a.length) expect(shares.reduce((s, e) => s + e.share, 0)).toBeCloseTo(1, 9);
        for (const e of shares) expect(e.share).toBeGreaterThan(0);
      }),
    );
  });
  it('has no share to give when there is nothing', () => {
    expect(withShares([])).toEqual([]);
  });
});

describe('lending legs and risk (fast-check)', () => {
  const leg = fc.record({
    kind: fc.constantFrom('supply', 'borrow', 'reward'),
    nav: fc.option(cents, { nil: null, freq: 4 }),
  });
  const lendingPosition = (legs: Array<{ kind: string; nav: number | null }>, ratio: number | null, threshold: number | null) =>
    ({
      principal_nav: 0,
      reward_nav: 0,
      underlying: legs.map((l, i) => ({
        internal_id: `t${i}`,
        name: null,
        symbol: null,
        qty: l.kind === 'borrow' ? -1 : 1,
        nav: l.nav === null ? null : (l.kind === 'borrow' ? -Math.abs(l.nav) : Math.abs(l.nav)) / 100,
        details: {
          type: l.kind,
          is_reward: l.kind === 'reward',
          ...(i === 0 && l.kind !== 'reward' && ratio !== null && { collateral_debt_ratio: ratio }),
          ...(i === 0 && l.kind !== 'reward' && threshold !== null && { liq_threshold: threshold }),
        },
      })),
    }) as unknown as Position;

  it('a collateral or debt value is unknown when one of its legs is, and exact otherwise', () => {
    fc.assert(
      fc.property(fc.array(leg, { maxLength: 8 }), (legs) => {
        const l = lendingLegs(lendingPosition(legs, null, null));
        const of = (kind: string) => legs.filter((x) => x.kind === kind);
        const sum = (xs: typeof legs) => (xs.some((x) => x.nav === null) ? null : xs.reduce((s, x) => s + Math.abs(x.nav!), 0) / 100);
        expect(l.collateralNav).toBe(sum(of('supply')));
        expect(l.debtNav).toBe(sum(of('borrow')));
        expect(l.collateral.length + l.debt.length).toBe(legs.filter((x) => x.kind !== 'reward').length);
      }),
    );
  });

  it('health and at-risk agree with the headroom the Risk view shows', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 10, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (ratio, threshold) => {
        expect(health(ratio, threshold)).toBe(headroom(ratio, threshold)!.health);
        expect(isAtRisk(ratio, threshold)).toBe(headroom(ratio, threshold)!.atRisk);
        const p = lendingPosition([{ kind: 'supply', nav: 100 }], ratio, threshold);
        expect(lendingFigures(p)).toEqual({ ratio, liqThreshold: threshold });
      }),
    );
    expect(isAtRisk(null, 0.8)).toBe(false);
    expect(health(1.2, null)).toBeNull();
    expect(isAtRisk(1, RISK_MARGIN - 0.01)).toBe(true);
  });
});

describe('the PDF report keeps the null rule', () => {
  it('a summary with no known value says "-", not $0.00 (the store says unknown too)', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'cache.sqlite'));
    const wallet = '0x' + 'ab'.repeat(20);
    addWallet(db, { address: wallet, chains: ['eth'] });
    const body = JSON.stringify({
      status: 'OK',
      message: 'ok',
      data: [{ wallet_id: wallet, date: '2025-06-01T00:00:00Z', positions: [{ name: 'Unpriced', principal_nav: null, reward_nav: null, underlying: [] }] }],
    });
    const data = [positionSnapshot.parse(JSON.parse(body).data[0])];
    const response = {
      endpoint: 'allPositions' as const,
      data,
      message: 'ok',
      requestId: 'r1',
      total: null,
      body,
      url: '',
      fetchedAt: '2025-06-02T00:00:00.000Z',
      attempts: 1,
    };
    insertSnapshot(db, { endpoint: 'allPositions', wallet, chain: 'eth', requestedDate: '2025-06-01', response });
    expect(latestSnapshot(db, 'allPositions', wallet, 'eth', '2025-06-01')!.totalNav).toBeNull();
    const model = buildReportModel(db, { date: '2025-06-01' });
    expect(model.totals).toEqual({ total: null, principal: null, reward: null, count: 1 });
    const path = join(dir, 'r.pdf');
    await writeAtomically(path, (out) => exportPdf(db, { date: '2025-06-01' }, out));
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/Total NAV\s+Principal\s+Rewards\s+-\s+-\s+-/);
    expect(text).toMatch(/Total -/);
    expect(text).not.toContain('$0.00');
    db.close();
  });
});

describe('the PDF report: a pool figure the service did not send reads "-"', () => {
  it('ownership and slippage unknown are "-", not 0', async () => {
    const dir = tempDir();
    const db = openDatabase(join(dir, 'cache.sqlite'));
    const wallet = '0x' + 'cd'.repeat(20);
    addWallet(db, { address: wallet, chains: ['eth'] });
    const put = (endpoint: 'allPositions' | 'liquidityAnalysis', positions: unknown[]) => {
      const body = JSON.stringify({ status: 'OK', message: 'ok', data: [{ wallet_id: wallet, date: '2025-06-01T00:00:00Z', positions }] });
      const schema = endpoint === 'allPositions' ? positionSnapshot : liquiditySnapshot;
      const data = [schema.parse(JSON.parse(body).data[0])];
      const response = { endpoint, data, message: 'ok', requestId: 'r', total: null, body, url: '', fetchedAt: '2025-06-02T00:00:00.000Z', attempts: 1 };
      insertSnapshot(db, { endpoint, wallet, chain: 'eth', requestedDate: '2025-06-01', response } as Parameters<typeof insertSnapshot>[1]);
    };
    put('allPositions', [{ name: 'Pool', principal_nav: 10, reward_nav: 0, underlying: [] }]);
    const leg = (slippage: number | null) => ({ internal_id: 'a', name: null, symbol: 'A', qty: 1, nav: 1, pct_ownership: null, details: { slippage } });
    put('liquidityAnalysis', [
      { principal_token_name: 'Unknown pool', principal_qty: 1, principal_pct_ownership: null, underlying: [leg(null)] },
      { principal_token_name: 'Known pool', principal_qty: 1, principal_pct_ownership: 0.5, underlying: [leg(0.012), leg(0.003)] },
    ]);
    const pools = buildReportModel(db, { date: '2025-06-01' }).pools;
    expect(pools.map((p) => [p.name, p.ownershipPct, p.maxSlippage])).toEqual([
      ['Unknown pool', null, null],
      ['Known pool', 0.5, 0.012],
    ]);
    const path = join(dir, 'r.pdf');
    await writeAtomically(path, (out) => exportPdf(db, { date: '2025-06-01' }, out));
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/Unknown pool\s+eth\s+1\s+-\s+-\n/);
    expect(text).toMatch(/Known pool\s+eth\s+1\s+0\.5000%\s+1\.200%\n/);
    db.close();
  });
});
