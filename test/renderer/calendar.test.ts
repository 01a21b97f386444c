import { describe, expect, it } from 'vitest';
import { addDays, addMonths, firstWeekday, monthGrid, monthTitle, weekdayLabels } from '../../src/renderer/src/lib/calendar.ts';

describe('the calendar of the as-of picker', () => {
  it('moves by days and months on ISO days, keeping a month-end inside the month it lands in', () => {
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-03-15', -3)).toBe('2024-12-15');
  });

  it("lays a month out in whole weeks from the locale's first weekday", () => {
    expect(firstWeekday('en-US')).toBe(0);
    expect(firstWeekday('de-DE')).toBe(1);
    // November 2026 starts on a Sunday: one leading day from Monday, none from Sunday.
    const monday = monthGrid('2026-11-25', 1).weeks;
    expect(monday[0]).toEqual(['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01']);
    expect(monday.at(-1)!.at(-1)).toBe('2026-12-06');
    const sunday = monthGrid('2026-11-25', 0).weeks;
    expect(sunday[0]![0]).toBe('2026-11-01');
    expect(sunday.every((w) => w.length === 7)).toBe(true);
    expect(sunday.flat().filter((d) => d.startsWith('2026-11'))).toHaveLength(30);
  });

  it('names weekdays and months in the locale', () => {
    expect(weekdayLabels(1, 'de-DE').map((d) => d.long)).toEqual(['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag']);
    expect(weekdayLabels(0, 'en-US')[0]!.short).toBe('Sun');
    expect(monthTitle('2026-11-25', 'de-DE')).toBe('November 2026');
    expect(monthTitle('2026-03-01', 'en-US')).toBe('March 2026');
  });
});
