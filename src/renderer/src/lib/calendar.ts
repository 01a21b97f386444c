/**
 * The month calendar's arithmetic, on ISO days (YYYY-MM-DD, UTC): no local time zone can move a
 * day. The first day of the week is the locale's (Intl.Locale's week info where the runtime has
 * it: Sunday in en-US, Monday in de-DE).
 */
const DAY_MS = 86_400_000;
const toMs = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const toIso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function addDays(iso: string, n: number): string {
  return toIso(toMs(iso) + n * DAY_MS);
}

/** The same day n months on, kept inside the month it lands in (31 Jan + 1 month → 28/29 Feb). */
export function addMonths(iso: string, n: number): string {
  const d = new Date(toMs(iso));
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return toIso(target.getTime());
}

/** The locale's first day of the week, 0 Sunday … 6 Saturday. */
export function firstWeekday(locale: string | undefined): number {
  try {
    const l = new Intl.Locale(locale ?? new Intl.DateTimeFormat().resolvedOptions().locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const info = l.getWeekInfo?.() ?? l.weekInfo;
    if (info) return info.firstDay % 7; // Intl counts 1 Monday … 7 Sunday
  } catch {
    // An unknown locale: Monday, ISO 8601's.
  }
  return 1;
}

/** The weeks (seven ISO days each) that show the month of `iso`, from the locale's first weekday. */
export function monthGrid(iso: string, first: number): { weeks: string[][] } {
  const start = `${iso.slice(0, 7)}-01`;
  const back = (new Date(toMs(start)).getUTCDay() - first + 7) % 7;
  let day = addDays(start, -back);
  const weeks: string[][] = [];
  do {
    const week: string[] = [];
    for (let i = 0; i < 7; i++, day = addDays(day, 1)) week.push(day);
    weeks.push(week);
  } while (day.slice(0, 7) === iso.slice(0, 7));
  return { weeks };
}

/** The weekday column heads in the locale, from its first weekday. */
export function weekdayLabels(first: number, locale: string | undefined): Array<{ short: string; long: string }> {
  const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 2000-01-02 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => Date.UTC(2000, 0, 2 + ((first + i) % 7))).map((ms) => ({ short: short.format(ms), long: long.format(ms) }));
}

/** "November 2026", "November 2026" in de-DE, as the locale names a month. */
export function monthTitle(iso: string, locale: string | undefined): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(toMs(iso));
}
