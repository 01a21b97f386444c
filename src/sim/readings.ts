/**
 * The datetime and float-value readings the simulator can play (conventions `datetime`,
 * `bad-value`, `bad-field`): how a real service may write its dates, and what a real service
 * may put where a number belongs. Pure functions over the answer the simulator built.
 */

export const DATETIME_READINGS = ['iso-utc', 'no-zone', 'space', 'offset-west', 'offset-east', 'unix-s', 'unix-ms', 'unix-s-string', 'unix-ms-string'] as const;
export type DatetimeReading = (typeof DATETIME_READINGS)[number];

export const BAD_VALUES = ['none', 'nan', 'infinity', 'nan-string', 'huge', 'text'] as const;
export type BadValue = (typeof BAD_VALUES)[number];

/** The zone of each offset reading, in minutes east of UTC. */
const OFFSET_MINUTES: Partial<Record<DatetimeReading, number>> = { 'offset-west': -300, 'offset-east': 120 };

/**
 * The instant a day's snapshot is stamped with. In the offset readings it is a time whose day
 * in UTC and day as written differ, as real services do it: `offset-west` stamps the end of the
 * day in its own zone (D 23:00-05:00, which is D+1 in UTC), `offset-east` stamps 23:00 UTC in its
 * zone (D+1 01:00+02:00, which is D in UTC). Otherwise midnight UTC.
 */
export function snapshotInstant(dayMs: number, reading: DatetimeReading): number {
  if (reading === 'offset-west') return dayMs + 28 * 3_600_000;
  if (reading === 'offset-east') return dayMs + 23 * 3_600_000;
  return dayMs;
}

/** An instant (Unix ms) written as the reading writes it. */
export function renderDatetime(ms: number, reading: DatetimeReading): string | number {
  const utc = new Date(ms).toISOString();
  switch (reading) {
    case 'iso-utc':
      return utc.replace('.000Z', 'Z');
    case 'no-zone':
      return utc.slice(0, 19);
    case 'space':
      return utc.slice(0, 19).replace('T', ' ');
    case 'unix-s':
      return Math.floor(ms / 1000);
    case 'unix-ms':
      return ms;
    case 'unix-s-string':
      return String(Math.floor(ms / 1000));
    case 'unix-ms-string':
      return String(ms);
    default: {
      const minutes = OFFSET_MINUTES[reading]!;
      const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
      const sign = minutes < 0 ? '-' : '+';
      const abs = Math.abs(minutes);
      return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    }
  }
}

const DATETIME_KEYS = new Set(['date', 'unlock_time', 'unlocked_time']);

/** Rewrites every datetime member (ISO UTC as generated) of an answer in the reading, in place. */
export function restyleDatetimes(value: unknown, reading: DatetimeReading): void {
  if (reading === 'iso-utc' || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) restyleDatetimes(v, reading);
    return;
  }
  const o = value as Record<string, unknown>;
  for (const k in o) {
    const v = o[k];
    if (DATETIME_KEYS.has(k) && typeof v === 'string') o[k] = renderDatetime(Date.parse(v), reading);
    else if (v !== null && typeof v === 'object') restyleDatetimes(v, reading);
  }
}

/** Stands in the answer for the bad value until the body is written (JSON.stringify cannot write NaN). */
export const BAD_MARK = '__sim_bad_value__';

/** The JSON text of each bad value, as services really send it. */
const BAD_TEXT: Record<Exclude<BadValue, 'none'>, string> = {
  nan: 'NaN', // bare, as Python's json module writes float('nan')
  infinity: 'Infinity',
  'nan-string': '"NaN"',
  huge: '1e400', // valid JSON, beyond a double: reads as Infinity
  text: '"n/a"',
};

/**
 * Puts the bad value in place of the first member named `field` (depth first, in document
 * order) of the answer. Returns the path replaced (`data[0].positions[0].principal_nav`) or null.
 */
export function markBadValue(data: unknown[], field: string): string | null {
  const visit = (v: unknown, path: string): string | null => {
    if (v === null || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = visit(v[i], `${path}[${i}]`);
        if (found) return found;
      }
      return null;
    }
    const o = v as Record<string, unknown>;
    if (field in o && typeof o[field] === 'number') {
      o[field] = BAD_MARK;
      return `${path}.${field}`;
    }
    for (const k in o) {
      const found = visit(o[k], `${path}.${k}`);
      if (found) return found;
    }
    return null;
  };
  return visit(data, 'data');
}

/** The body text with the mark written as the bad value. */
export function writeBadValue(text: string, bad: BadValue): string {
  return bad === 'none' ? text : text.replace(`"${BAD_MARK}"`, BAD_TEXT[bad]);
}
