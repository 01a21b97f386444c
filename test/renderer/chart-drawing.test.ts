import { describe, expect, it } from 'vitest';
import { navLines } from '../../src/renderer/src/lib/nav-lines.ts';
import { dateStep } from '../../src/renderer/src/lib/date-ticks.ts';
import { CHAIN_COLOURS, sliceColourIndexes } from '../../src/renderer/src/lib/slice-colours.ts';

describe('the NAV chart draws coinciding lines as one', () => {
  const at = (total: number | null, principal: number | null) => ({ total, principal });

  it('one line when principal equals total at every date (no rewards)', () => {
    expect(navLines([at(100, 100), at(120, 120), at(null, null)], 180, 2)).toBe('equal');
  });

  it('one line when they are never further apart than the lines are wide', () => {
    // 3.0M to 3.9M over 180 px: 2 px is 10,000 $; rewards of at most 2,000 $ cannot be seen apart.
    expect(navLines([at(3_000_000, 2_998_000), at(3_900_000, 3_899_500)], 180, 2)).toBe('overlap');
    expect(navLines([at(3_000_000, 2_980_000), at(3_900_000, 3_899_500)], 180, 2)).toBe('apart');
  });

  it('two lines when one of them is unknown at a date', () => {
    expect(navLines([at(100, 100), at(120, null)], 180, 2)).toBe('apart');
  });
});

describe('a chain keeps its colour in every scope', () => {
  it('a known chain has its own colour, whatever else is shown and in whatever order', () => {
    const all = sliceColourIndexes(['eth', 'arb', 'op'], 8, CHAIN_COLOURS);
    const other = sliceColourIndexes(['arb', 'eth'], 8, CHAIN_COLOURS);
    const alone = sliceColourIndexes(['arb'], 8, CHAIN_COLOURS);
    expect(all[1]).toBe(other[0]);
    expect(other[0]).toBe(alone[0]);
    expect(all[0]).toBe(other[1]);
    expect(new Set(all).size).toBe(3);
  });

  it('an unknown chain gets a colour from its id, never one a shown chain has', () => {
    const a = sliceColourIndexes(['zk', 'eth'], 8, CHAIN_COLOURS);
    const b = sliceColourIndexes(['eth', 'zk', 'arb'], 8, CHAIN_COLOURS);
    expect(a[0]).toBe(b[1]);
    const many = sliceColourIndexes(['eth', 'arb', 'op', 'base', 'matic', 'bsc', 'zk', 'scroll'], 8, CHAIN_COLOURS);
    expect(new Set(many).size).toBe(8);
  });
});

describe('the date axis fits its labels in the room it has (issue 39: NAV chart labels overlapped at 1024)', () => {
  it('as many ticks as fit side by side, at most the count asked for, never fewer than the two ends', () => {
    // A year of dates, labels 90 px wide: a wide chart takes the 8 asked for (a step of 56 days: 7 ticks).
    expect(dateStep(364, 1200, 90, 8)).toBe(56);
    // 550 px (1024 with the sidebar open): 5 labels fit, so a step of 91 days (5 ticks).
    const narrow = dateStep(364, 550, 90, 8);
    expect(narrow).toBe(91);
    expect((Math.floor(364 / narrow) + 1) * (90 + 16)).toBeLessThanOrEqual(550);
    // Longer labels (another locale) take fewer.
    expect(dateStep(364, 550, 130, 8)).toBe(182);
    // No room at all: still the two ends.
    expect(dateStep(364, 100, 90, 8)).toBe(364);
    // A month: days a week apart, whatever the room.
    expect(dateStep(30, 1200, 90, 8)).toBe(7);
  });
});
