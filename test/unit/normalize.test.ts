import { describe, expect, it } from 'vitest';
import { toBoolean, toFloat, toInteger, toIsoDatetime } from '../../src/shared/service/normalize.ts';

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
