import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocation, allocationOfParts, exactByLabel } from '../../src/shared/portfolio/allocation.ts';
import type { UnderlyingRow } from '../../src/shared/portfolio/rows.ts';
import { tokenPart, tokenRows, tokenRowsOfParts } from '../../src/shared/portfolio/tokens.ts';

/**
 * A view of a fund joins what each member's part made ahead (src/main/core/portfolio/view.ts): its
 * token rows and its allocation come from per-member groups and exact sums, so a write to one
 * member of a thousand does the work of one. Joined, they must be exactly what the whole-view
 * functions give over every row (tokenRows: each row its own part; allocation: all rows one part),
 * however the rows fall into parts: the same rows, order, figures (to the last bit) and ties. That
 * exact sums of parts are the decimal sum of every term: test/unit/exact-sums.test.ts.
 */
const amount = fc.oneof(
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 100),
  fc.constantFrom(0, 0.1, 0.2, 0.3, 1e-7, 123456789.12345679, 5e-324, 1000),
);

describe('a fund view joined from its members’ parts', () => {
  it('gives the token rows tokenRows gives over every member’s rows: clashes, unnamed tokens, unknown and unreadable figures', () => {
    const token = fc.record({
      symbol: fc.constantFrom('USDC', 'WETH', 'AAVE', null),
      name: fc.constantFrom('USD Coin', 'Wrapped Ether', null),
      // A few contracts, so that one name on one chain sometimes has two (the rows stay apart).
      cid: fc.constantFrom('0xaaa', '0xbbb', '0xccc', null),
      id: fc.constantFrom('t1', 't2', 't3', 't4'),
      qty: fc.oneof(amount, fc.constant(null)),
      nav: fc.oneof(amount, fc.constant(null)),
      unreadable: fc.constantFrom(null, 'total_qty', 'total_nav'),
      positions: fc.integer({ min: 0, max: 3 }),
    });
    const member = fc.record({
      wallet: fc.constantFrom('0x01', '0x02', '0x03'),
      chain: fc.constantFrom('eth', 'arb', 'op'),
      tokens: fc.array(token, { maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(member, { selector: (m) => `${m.wallet}|${m.chain}`, maxLength: 7 }), (members) => {
        const rowsOf = (m: (typeof members)[number]): UnderlyingRow[] =>
          m.tokens.map((t, i) => ({
            key: `${m.wallet}:${m.chain}:${t.id}-${i}`,
            wallet: m.wallet,
            chain: m.chain,
            group: {
              token_id: `${t.id}-${i}`,
              token_symbol: t.symbol,
              token_name: t.name,
              token_cid: t.cid,
              total_qty: t.qty,
              total_nav: t.nav,
              breakdown: Array.from({ length: t.positions }, () => ({})),
              ...(t.unreadable && { _invalid: { [t.unreadable]: 'x' } }),
            } as never,
          }));
        const whole = tokenRows(members.flatMap(rowsOf));
        const joined = tokenRowsOfParts(members.map((m) => tokenPart(m.chain, rowsOf(m))));
        expect(joined).toEqual(whole);
        // To the bit: toEqual would call 0 and -0 equal.
        expect(joined.map((r) => [Object.is(r.nav, -0), Object.is(r.qty, -0)])).toEqual(whole.map((r) => [Object.is(r.nav, -0), Object.is(r.qty, -0)]));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the allocation allocation gives over every row, however the rows fall into parts, equal sums in the order first met', () => {
    const item = fc.record({ label: fc.constantFrom('lending', 'wallet', 'staked', 'pool'), value: amount });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 40 }), (items, cuts, shuffle) => {
        // The parts hold the same rows in another order (a view's members, not its sorted rows).
        const moved = [...items];
        if (moved.length > 1)
          shuffle.forEach((k, i) => {
            const j = k % moved.length;
            const at = i % moved.length;
            [moved[at], moved[j]] = [moved[j]!, moved[at]!];
          });
        const points = [...new Set(cuts.map((p) => p % (moved.length + 1)))].sort((a, b) => a - b);
        const parts: (typeof items)[] = [];
        let from = 0;
        for (const p of [...points, moved.length]) {
          parts.push(moved.slice(from, p));
          from = p;
        }
        const whole = allocation(
          items,
          (x) => x.label,
          (x) => x.value,
        );
        const joined = allocationOfParts(
          items.map((x) => x.label),
          parts.map((p) =>
            exactByLabel(
              p,
              (x) => x.label,
              (x) => x.value,
            ),
          ),
        );
        expect(joined).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });
});
