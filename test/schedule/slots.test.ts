import { afterEach, describe, expect, it } from 'vitest';
import { describeCadence, dueSlot, latestSlot, nextSlot } from '../../src/main/core/schedule/slots.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (s: string) => Date.parse(s);

describe('schedule slots', () => {
  const tz = process.env['TZ'];
  afterEach(() => {
    if (tz === undefined) delete process.env['TZ'];
    else process.env['TZ'] = tz;
  });

  it('hourly, daily and weekly, in UTC: the newest slot at or before now, and the next after it', () => {
    const now = at('2026-11-25T17:20:00Z'); // a Wednesday
    expect(iso(latestSlot({ every: 'hour', minute: 5 }, now, 'utc'))).toBe('2026-11-25T17:05:00.000Z');
    expect(iso(latestSlot({ every: 'hour', minute: 30 }, now, 'utc'))).toBe('2026-11-25T16:30:00.000Z');
    expect(iso(latestSlot({ every: 'day', hour: 6, minute: 0 }, now, 'utc'))).toBe('2026-11-25T06:00:00.000Z');
    expect(iso(latestSlot({ every: 'day', hour: 18, minute: 0 }, now, 'utc'))).toBe('2026-11-24T18:00:00.000Z');
    expect(iso(latestSlot({ every: 'week', weekday: 1, hour: 7, minute: 30 }, now, 'utc'))).toBe('2026-11-23T07:30:00.000Z');
    expect(iso(latestSlot({ every: 'week', weekday: 3, hour: 18, minute: 0 }, now, 'utc'))).toBe('2026-11-18T18:00:00.000Z');
    expect(iso(latestSlot({ every: 'week', weekday: 3, hour: 17, minute: 20 }, now, 'utc'))).toBe('2026-11-25T17:20:00.000Z');
    expect(iso(nextSlot({ every: 'week', weekday: 3, hour: 17, minute: 20 }, now, 'utc'))).toBe('2026-12-02T17:20:00.000Z');
    expect(iso(nextSlot({ every: 'day', hour: 6, minute: 0 }, now, 'utc'))).toBe('2026-11-26T06:00:00.000Z');
    expect(iso(nextSlot({ every: 'hour', minute: 5 }, now, 'utc'))).toBe('2026-11-25T18:05:00.000Z');
    // Across a month and a year's end.
    expect(iso(latestSlot({ every: 'day', hour: 23, minute: 0 }, at('2027-01-01T00:30:00Z'), 'utc'))).toBe('2026-12-31T23:00:00.000Z');
  });

  it('in local time, across a daylight-saving change, a daily slot stays at its wall-clock time', () => {
    process.env['TZ'] = 'Europe/Berlin';
    // 29 March 2026: clocks go from 02:00 to 03:00 in Berlin.
    const before = latestSlot({ every: 'day', hour: 9, minute: 0 }, at('2026-03-28T12:00:00Z'), 'local');
    const after = latestSlot({ every: 'day', hour: 9, minute: 0 }, at('2026-03-30T12:00:00Z'), 'local');
    expect(iso(before)).toBe('2026-03-28T08:00:00.000Z'); // 09:00 CET
    expect(iso(after)).toBe('2026-03-30T07:00:00.000Z'); // 09:00 CEST
    expect(describeCadence({ every: 'day', hour: 9, minute: 0 }, 'local')).toBe('every day at 09:00 local time');
  });

  it('a missed run is caught up once: the newest slot, not one per missed slot', () => {
    const cadence = { every: 'day' as const, hour: 6, minute: 0 };
    const created = at('2026-11-01T00:00:00Z');
    // Last run four days ago; the computer slept since: one run, for today's slot.
    const slot = dueSlot(cadence, { nowMs: at('2026-11-25T17:00:00Z'), zone: 'utc', createdMs: created, lastSlotMs: at('2026-11-21T06:00:00Z') });
    expect(iso(slot)).toBe('2026-11-25T06:00:00.000Z');
    // Once recorded, nothing until tomorrow's slot.
    expect(dueSlot(cadence, { nowMs: at('2026-11-25T23:59:00Z'), zone: 'utc', createdMs: created, lastSlotMs: slot })).toBeNull();
    expect(iso(dueSlot(cadence, { nowMs: at('2026-11-26T06:00:00Z'), zone: 'utc', createdMs: created, lastSlotMs: slot }))).toBe('2026-11-26T06:00:00.000Z');
    // A schedule made after today's slot first runs at the next one.
    expect(dueSlot(cadence, { nowMs: at('2026-11-25T17:00:00Z'), zone: 'utc', createdMs: at('2026-11-25T10:00:00Z'), lastSlotMs: null })).toBeNull();
  });
});
