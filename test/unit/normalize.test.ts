import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toBoolean, toFloat, toInteger, toIsoDatetime, toIsoDatetimeByParsing } from '../../src/shared/service/normalize.ts';

describe('datetime normalisation (DESIGN.md: open points resolved)', () => {
  it.each([
    ['2025-03-14T10:20:30Z', '2025-03-14T10:20:30.000Z'],
    ['2025-03-14T10:20:30', '2025-03-14T10:20:30.000Z'], // no zone = UTC
    ['2025-03-14T12:20:30+02:00', '2025-03-14T10:20:30.000Z'],
    ['2025-03-14T12:20:30+0200', '2025-03-14T10:20:30.000Z'],
    ['2025-03-14 10:20:30', '2025-03-14T10:20:30.000Z'],
    ['2025-03-14', '2025-03-14T00:00:00.000Z'],
    [1741947630, '2025-03-14T10:20:30.000Z'], // Unix seconds
    [1741947630000, '2025-03-14T10:20:30.000Z'], // Unix milliseconds
    ['1741947630', '2025-03-14T10:20:30.000Z'],
    ['1741947630000', '2025-03-14T10:20:30.000Z'],
  ])('%j → %s', (input, expected) => {
    expect(toIsoDatetime(input)).toBe(expected);
  });

  it('reads null, missing and empty as null, and garbage as unreadable', () => {
    expect(toIsoDatetime(null)).toBeNull();
    expect(toIsoDatetime(undefined)).toBeNull();
    expect(toIsoDatetime('')).toBeNull();
    for (const bad of ['yesterday', '2025-13-45T00:00:00Z', '14/03/2025', {}, true, Number.NaN]) {
      expect(toIsoDatetime(bad)).toBeUndefined();
    }
  });
});

describe('datetime normalisation: the fast path for the usual form', () => {
  const two = (n: number) => String(n).padStart(2, '0');
  // Components over their whole two-digit span (months 00-99, days 00-99, hour 24, second 60...),
  // years 0000-9999, leap and not, with and without milliseconds, and a character changed.
  const shaped = fc
    .record({
      year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1900, 2000, 2024, 2025, 2100, 9999)),
      month: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 12 })),
      day: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 28, max: 31 })),
      hour: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(0, 23, 24)),
      minute: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(0, 59, 60)),
      second: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(0, 59, 60)),
      millis: fc.option(fc.integer({ min: 0, max: 999 })),
      change: fc.option(fc.record({ at: fc.nat(), to: fc.constantFrom('z', ' ', '/', '+', '.', 'x', '0', '9', 'T', '-', ':') })),
    })
    .map(({ year, month, day, hour, minute, second, millis, change }) => {
      let s = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}${millis === null ? '' : `.${String(millis).padStart(3, '0')}`}Z`;
      if (change) {
        const i = change.at % s.length;
        s = s.slice(0, i) + change.to + s.slice(i + 1);
      }
      return s;
    });

  it('gives what the full parse gives, for every text of that shape, valid or not', () => {
    fc.assert(
      fc.property(shaped, (s) => {
        expect(toIsoDatetime(s)).toBe(toIsoDatetimeByParsing(s));
      }),
      { numRuns: 20_000 },
    );
  });

  it('leaves the days Date.parse rolls over, and leap days, to the full parse, which gives the same', () => {
    for (const s of [
      '2025-02-29T00:00:00Z',
      '2024-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2000-02-29T12:00:00.250Z',
      '2025-04-31T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T23:59:60Z',
      '0000-01-01T00:00:00Z',
      '2025-03-14T10:20:30z',
    ]) {
      expect(toIsoDatetime(s)).toBe(toIsoDatetimeByParsing(s));
    }
    expect(toIsoDatetime('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(toIsoDatetime('2025-02-29T00:00:00Z')).toBe('2025-03-01T00:00:00.000Z');
  });
});

describe('float normalisation', () => {
  it('accepts numbers and numeric strings, never NaN or Infinity', () => {
    expect(toFloat(1.5)).toBe(1.5);
    expect(toFloat('1.5')).toBe(1.5);
    expect(toFloat(' -2e-3 ')).toBe(-0.002);
    expect(toFloat('.5')).toBe(0.5);
    expect(toFloat(null)).toBeNull();
    expect(toFloat(undefined)).toBeNull();
    expect(toFloat('')).toBeNull();
    for (const bad of ['abc', '1,000.5', '0x10', 'Infinity', 'NaN', Number.NaN, Number.POSITIVE_INFINITY, {}, []]) {
      expect(toFloat(bad)).toBeUndefined();
    }
  });

  it('reads integers and booleans in their plain forms', () => {
    expect(toInteger('42')).toBe(42);
    expect(toInteger(4.2)).toBeUndefined();
    expect(toBoolean('true')).toBe(true);
    expect(toBoolean(0)).toBe(false);
    expect(toBoolean('yes')).toBeUndefined();
  });
});
