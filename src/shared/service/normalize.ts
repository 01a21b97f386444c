/**
 * The service's open points, resolved as DESIGN.md says (client and simulator agree):
 * - datetime: ISO 8601 with or without zone (no zone = UTC), `YYYY-MM-DD HH:MM:SS`,
 *   Unix seconds or milliseconds (number or digit string) → ISO 8601 UTC.
 * - float: a number or a numeric string → number; null or missing → null; never NaN.
 * These return `undefined` for a value they cannot read, so the schema can name its path.
 */

/** Values at or above this are milliseconds: 1e11 s is the year 5138, 1e11 ms is 1973. */
const MILLIS_THRESHOLD = 1e11;

export function toIsoDatetime(value: unknown): string | null | undefined {
  if (typeof value === 'string') {
    const canonical = canonicalUtc(value);
    if (canonical !== undefined) return canonical;
  }
  return toIsoDatetimeByParsing(value);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two decimal digits at i of s, or -1. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * The fast path, for the form a service (and the simulator) writes: YYYY-MM-DDTHH:MM:SSZ or
 * YYYY-MM-DDTHH:MM:SS.sssZ, a valid UTC time. Its ISO form is then the same text (with .000
 * added), which is what parsing it and printing it again gives (a test compares the two), at a
 * fraction of the cost: the full parse of every date was a measurable part of a whale sync's
 * main thread (bench/RESULTS.md, "Whale: sums kept by the writer, no stall at the hand-over").
 * Anything else (another form, a day or time out of range, which Date.parse rolls over) returns
 * undefined: the full parse decides.
 */
function canonicalUtc(s: string): string | undefined {
  const n = s.length;
  if (n !== 20 && n !== 24) return undefined;
  if (s.charCodeAt(n - 1) !== 90 /* Z */ || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') return undefined;
  if (n === 24 && (s[19] !== '.' || twoDigits(s, 20) < 0 || twoDigits(s, 21) < 0)) return undefined;
  const hi = twoDigits(s, 0);
  const lo = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1) return undefined;
  const year = hi * 100 + lo;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  const second = twoDigits(s, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  return n === 24 ? s : `${s.slice(0, 19)}.000Z`;
}

/** The full reading of a datetime (every form DESIGN.md accepts); toIsoDatetime's reference. */
export function toIsoDatetimeByParsing(value: unknown): string | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  let ms: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    ms = value >= MILLIS_THRESHOLD ? value : value * 1000;
  } else if (typeof value === 'string') {
    const s = value.trim();
    if (/^\d+(\.\d+)?$/.test(s)) {
      const n = Number(s);
      ms = n >= MILLIS_THRESHOLD ? n : n * 1000;
    } else {
      const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
      if (!m) return undefined;
      const time = m[2] ?? '00:00:00';
      const zone = m[3] ? (m[3].toUpperCase() === 'Z' ? 'Z' : m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : 'Z';
      ms = Date.parse(`${m[1]}T${time}${zone}`);
    }
  } else {
    return undefined;
  }
  if (!Number.isFinite(ms)) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function toFloat(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const s = value.trim();
    if (s === '') return null;
    // Plain decimal or exponent notation only: no hex, no "Infinity", no thousands separators.
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
    const n = Number(s);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function toInteger(value: unknown): number | null | undefined {
  const n = toFloat(value);
  if (n === null || n === undefined) return n;
  return Number.isSafeInteger(n) ? n : undefined;
}

export function toBoolean(value: unknown): boolean | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 'true' || value === '1') return true;
  if (value === 0 || value === 'false' || value === '0') return false;
  return undefined;
}

/** The calendar day a datetime names as the service wrote it (its own zone), or the UTC day of a Unix time. */
export function writtenDay(value: unknown): string | null {
  const iso = toIsoDatetime(value);
  if (!iso) return null;
  if (typeof value === 'string') {
    const m = /^\s*(\d{4}-\d{2}-\d{2})/.exec(value);
    if (m) return m[1]!;
  }
  return iso.slice(0, 10);
}

/** The UTC calendar day of a datetime. */
export function utcDay(value: unknown): string | null {
  return toIsoDatetime(value)?.slice(0, 10) ?? null;
}

// Real zone offsets run from -12:00 to +14:00: the instants that are some time of day D somewhere.
const EARLIEST_OFFSET_MS = 14 * 3_600_000;
const LATEST_OFFSET_MS = 12 * 3_600_000;

/**
 * Whether a service's snapshot datetime can name the day asked for: its written day is that
 * day, or its instant falls on that day in some real zone. `2025-06-01T23:00:00-05:00` and
 * `2025-06-02T01:00:00+02:00` both can name 2025-06-01; `2025-05-28T00:00:00Z` cannot.
 */
export function namesDay(value: unknown, day: string): boolean {
  if (writtenDay(value) === day) return true;
  const iso = toIsoDatetime(value);
  if (!iso) return false;
  const start = Date.parse(`${day}T00:00:00Z`);
  const t = Date.parse(iso);
  return t >= start - EARLIEST_OFFSET_MS && t < start + 86_400_000 + LATEST_OFFSET_MS;
}

/**
 * Each datetime form `datetimeForm` names, in English words: the service check's readings in the
 * core (the CLI prints them) and on an English screen say them alike.
 */
export const DATETIME_FORM_LABELS: Readonly<Record<string, string>> = {
  'iso-utc': 'ISO 8601, UTC',
  offset: 'ISO 8601 with a zone offset',
  'no-zone': 'ISO 8601 without a zone (read as UTC)',
  space: 'YYYY-MM-DD HH:MM:SS (read as UTC)',
  'date-only': 'a date without a time (read as UTC midnight)',
  'unix-s': 'Unix seconds (number)',
  'unix-ms': 'Unix milliseconds (number)',
  'unix-s-string': 'Unix seconds (string)',
  'unix-ms-string': 'Unix milliseconds (string)',
};

/** How a datetime is written, for the service check: `iso-utc`, `offset`, `no-zone`, `space`, `unix-s`, `unix-ms` (`-string` when quoted). */
export function datetimeForm(value: unknown): string | null {
  if (toIsoDatetime(value) == null) return null;
  if (typeof value === 'number') return value >= MILLIS_THRESHOLD ? 'unix-ms' : 'unix-s';
  const s = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) >= MILLIS_THRESHOLD ? 'unix-ms-string' : 'unix-s-string';
  if (/(Z)$/i.test(s)) return 'iso-utc';
  if (/[+-]\d{2}:?\d{2}$/.test(s)) return /[+-]00:?00$/.test(s) ? 'iso-utc' : 'offset';
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return 'date-only';
  return s.charAt(10) === ' ' ? 'space' : 'no-zone';
}

/**
 * JSON as many services really write it: Python's encoder and others emit bare `NaN`,
 * `Infinity` and `-Infinity`, which JSON.parse refuses. Outside strings these become the
 * strings "NaN", "Infinity", "-Infinity", so the value parser can flag that one field
 * instead of the whole body failing. Returns undefined when the text is still not JSON.
 */
export function parseJsonLenient(text: string): unknown {
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    const rest = c === 78 /* N */ ? 'NaN' : c === 73 /* I */ ? 'Infinity' : c === 45 /* - */ && text.charCodeAt(i + 1) === 73 ? '-Infinity' : null;
    if (rest && text.startsWith(rest, i)) {
      out += `${text.slice(last, i)}"${rest}"`;
      i += rest.length - 1;
      last = i + 1;
    }
  }
  try {
    return JSON.parse(out + text.slice(last));
  } catch {
    return undefined;
  }
}

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`, counting `[` and `{`
 * outside strings (as JSON.parse reads them; a text that is not JSON fails its parse anyway).
 * One pass, strings skipped with indexOf: cheaper than JSON.parse of the same text (`npm run
 * bench -- body-sizes`; bench/RESULTS.md, "How large a service's bodies get"). Checked before
 * a body is parsed, since the walks of a parsed value are recursive and a deep enough body
 * overflows the stack.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // To the quote that ends the string: one behind an even run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let b = end - 1;
        while (text.charCodeAt(b) === 92 /* \ */) b--;
        i = end;
        if ((end - 1 - b) % 2 === 0) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
