/**
 * A pack's month as a period (the app, the CLI and the core read it the same way): from the
 * month's eve (the opening holdings are those at the end of the day before it starts) to its
 * last day.
 */
const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `2026-10` → { from: '2026-09-30', to: '2026-10-31' }. */
export function monthPeriod(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { from: day(Date.UTC(y, m - 1, 1) - DAY_MS), to: day(Date.UTC(y, m, 1) - DAY_MS) };
}

/** The month a period is, when it is exactly one (its eve to its last day); else null. */
export function monthOf(from: string, to: string): string | null {
  const month = to.slice(0, 7);
  const p = monthPeriod(month);
  return p.from === from && p.to === to ? month : null;
}

/** The `count` whole months before the month of `today` (YYYY-MM-DD), newest first. */
export function recentMonths(today: string, count: number): string[] {
  const [y, m] = today.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(y, m - 2 - i, 1)).toISOString().slice(0, 7));
}
