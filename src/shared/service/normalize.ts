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
