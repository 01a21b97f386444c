import { describe, expect, it } from 'vitest';
import { completeMembersAt, hasCompleteDate, insertSnapshots } from '../../src/main/core/positions/store/snapshots.ts';
import type { SnapshotEndpoint } from '../../src/shared/model.ts';
import { snapshot } from '../spam/support.ts';
import { createDB } from '../support/store.ts';

/**
 * The as-of badge's count of wallet chains with all three views cached at a date
 * (`positions.coverage`) is one statement over the scope (`completeMembersAt`), asked at every
 * screen's load: a call per member took ~0.4 s at 1,000 wallets × 6 chains, the statement 30 ms
 * (bench/RESULTS.md). It counts what `hasCompleteDate` says of each member, in every case: the
 * three views at the date, two of them, a view the service answered for another day (asked for
 * the date), views of another date only, nothing.
 */
const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const C = '0x' + 'c'.repeat(40);
const DATE = '2026-10-31';
const ENDPOINTS: SnapshotEndpoint[] = ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'];

describe('wallet chains with all three views at a date', () => {
  it('are counted in one statement as hasCompleteDate says of each', () => {
    const db = createDB();
    const file = (wallet: string, chain: string, endpoints: SnapshotEndpoint[], day: string, asked = day) =>
      insertSnapshots(
        db,
        endpoints.map((e) => ({ ...snapshot(e, wallet, chain, day, []), requestedDate: asked })),
      );
    file(A, 'eth', ENDPOINTS, DATE);
    file(A, 'arb', ENDPOINTS.slice(0, 2), DATE);
    // Asked for the date, answered for the day before (a date with no block yet): cached for the date.
    file(B, 'eth', ENDPOINTS, '2026-10-30', DATE);
    file(C, 'eth', ENDPOINTS, '2026-10-30');
    file(C, 'arb', ENDPOINTS.slice(0, 1), DATE);
    file(C, 'arb', ENDPOINTS.slice(1), '2026-10-30', DATE);
    const members = [A, B, C].flatMap((w) => ['eth', 'arb'].map((c) => [w, c] as const));
    const each = members.map(([w, c]) => hasCompleteDate(db, w, c, DATE));
    expect(each).toEqual([true, false, true, false, false, true]);
    expect(completeMembersAt(db, members, DATE)).toBe(3);
    for (const [i, m] of members.entries()) expect(completeMembersAt(db, [m], DATE), m.join(' ')).toBe(each[i] ? 1 : 0);
    expect(completeMembersAt(db, [], DATE)).toBe(0);
    expect(completeMembersAt(db, members, '2026-10-30')).toBe(members.filter(([w, c]) => hasCompleteDate(db, w, c, '2026-10-30')).length);
  });
});
