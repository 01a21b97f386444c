/**
 * Calendar days in a time zone (an IANA name, or UTC), as the timeline's day headings group its
 * rows: the day an instant falls on, and the first instant of a day. A day that starts at 01:00
 * (summer time beginning at midnight) starts then; a day is 23, 24 or 25 hours long.
 */
export interface ZoneDays {
  /** The day of an instant (ms since the epoch), YYYY-MM-DD. */
  dayOf(ms: number): string;
  /** The first instant (ms) whose day is `day` (YYYY-MM-DD). */
  startOf(day: string): number;
}

const DAY_MS = 86_400_000;

function utcDays(): ZoneDays {
  return {
    dayOf: (ms) => new Date(ms).toISOString().slice(0, 10),
    startOf: (day) => Date.parse(`${day}T00:00:00Z`),
  };
}

export function zoneDays(zone: string): ZoneDays {
  if (zone === 'UTC' || zone === 'Etc/UTC') return utcDays();
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  /** The wall clock at an instant, as the UTC instant that reads the same (so its offset is the difference). */
  const wall = (ms: number) => {
    const p: Record<string, number> = {};
    for (const part of format.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p['year']!, p['month']! - 1, p['day']!, p['hour']!, p['minute']!, p['second']!);
  };
  const dayOf = (ms: number) => new Date(wall(ms)).toISOString().slice(0, 10);
  return {
    dayOf,
    startOf(day) {
      const midnight = Date.parse(`${day}T00:00:00Z`);
      // The offset at the wall clock's midnight, then at the instant that gives (the offset may change between).
      let t = midnight - (wall(midnight) - midnight);
      t = midnight - (wall(t) - t);
      if (dayOf(t) === day && dayOf(t - 1) < day) return t;
      // Midnight does not exist that day (the clocks jumped over it), or an offset with seconds:
      // the first instant of the day, found by halving (a day starts within a day of its UTC midnight).
      let lo = midnight - 2 * DAY_MS;
      let hi = midnight + 2 * DAY_MS;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (dayOf(mid) < day) lo = mid;
        else hi = mid;
      }
      return hi;
    },
  };
}
