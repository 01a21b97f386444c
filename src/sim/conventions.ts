/**
 * The readings the simulator can give the spec's open points (service-spec.md 2.7 and 4.6).
 * The default is the reading the client was first written for; every other value is a
 * reading a real service could plausibly have, played so the client can be tested against
 * it (`sim --convention page-base=0 --convention time-unit=ms`, or `conventions` in process).
 *
 * Each key is a `key=value` pair on the command line. Keep keys and values lowercase and
 * stable: tests and docs/service.md name them.
 */

import { BAD_VALUES, type BadValue, DATETIME_READINGS, type DatetimeReading } from './readings.ts';

export interface Conventions {
  /** `page` of the first page. */
  pageBase: 0 | 1;
  /**
   * The largest page the service really serves for transactions: a larger `pageSize` is
   * silently cut to this. `null`: the spec reading (at most 1000; more is a 400).
   */
  pageSizeCap: number | null;
  /** The largest `pageSize` accepted (transactions and logs): more is refused with a 400. */
  pageSizeMax: number;
  /** Unit of `start_time` / `end_time`. */
  timeUnit: 's' | 'ms';
  /**
   * Which bounds of [start_time, end_time] include a transaction at exactly that time:
   * `inclusive` both, `half-open` start only, `exclusive` neither.
   */
  bounds: 'inclusive' | 'half-open' | 'exclusive';
  /** Order of the transaction rows (stable across requests in every reading). */
  order: 'newest-first' | 'oldest-first' | 'unordered';
  /** A page past the end: empty, or the last page again. */
  pastEnd: 'empty' | 'repeat-last';
  /** Meaning of the logs response's `total`: the number of logs, or of pages. */
  logsTotal: 'logs' | 'pages';
  /** `log_index`: the log's index in the transaction, or restarting at 0 on every page. */
  logIndex: 'global' | 'per-page';
  /** The largest logs page served (a larger `pageSize` is cut silently); `null`: the spec reading (1000). */
  logsPageCap: number | null;
  /** How datetimes are written (snapshot `date`, transaction and logs `date`, unlock times): see readings.ts. */
  datetime: DatetimeReading;
  /** A bad value in place of one float member of each position response (`none`: every value readable). */
  badValue: BadValue;
  /** Which member gets the bad value: the first one of that name in the response, depth first. */
  badField: string;
  /** Readings no client can page or range correctly; it must say so rather than end "ok". */
  timeRange: 'honoured' | 'ignored';
  paging: 'honoured' | 'ignored';
}

export const DEFAULT_CONVENTIONS: Readonly<Conventions> = Object.freeze({
  pageBase: 1,
  pageSizeCap: null,
  pageSizeMax: 1000,
  timeUnit: 's',
  bounds: 'inclusive',
  order: 'newest-first',
  pastEnd: 'empty',
  logsTotal: 'logs',
  logIndex: 'global',
  logsPageCap: null,
  datetime: 'iso-utc',
  badValue: 'none',
  badField: 'principal_nav',
  timeRange: 'honoured',
  paging: 'honoured',
});

type Parser = (value: string) => Partial<Conventions>;

const oneOf =
  <K extends keyof Conventions>(key: K, values: ReadonlyArray<Conventions[K]>): Parser =>
  (v) => {
    const found = values.find((x) => String(x) === v);
    if (found === undefined) throw new Error(`expected one of ${values.join(', ')}`);
    return { [key]: found } as Partial<Conventions>;
  };

const cap =
  (key: 'pageSizeCap' | 'logsPageCap'): Parser =>
  (v) => {
    if (v === 'none') return { [key]: null };
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > 1000) throw new Error('expected an integer from 1 to 1000, or none');
    return { [key]: n };
  };

/** `key=value` on the command line → the field it sets. */
export const CONVENTION_KEYS: Record<string, { field: keyof Conventions; parse: Parser; values: string }> = {
  'page-base': { field: 'pageBase', parse: (v) => oneOf('pageBase', [0, 1])(v), values: '0 | 1' },
  'page-size-cap': { field: 'pageSizeCap', parse: cap('pageSizeCap'), values: '1..1000 | none' },
  'page-size-max': {
    field: 'pageSizeMax',
    parse: (v) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < 1 || n > 1000) throw new Error('expected an integer from 1 to 1000');
      return { pageSizeMax: n };
    },
    values: '1..1000',
  },
  'time-unit': { field: 'timeUnit', parse: oneOf('timeUnit', ['s', 'ms']), values: 's | ms' },
  bounds: { field: 'bounds', parse: oneOf('bounds', ['inclusive', 'half-open', 'exclusive']), values: 'inclusive | half-open | exclusive' },
  order: { field: 'order', parse: oneOf('order', ['newest-first', 'oldest-first', 'unordered']), values: 'newest-first | oldest-first | unordered' },
  'past-end': { field: 'pastEnd', parse: oneOf('pastEnd', ['empty', 'repeat-last']), values: 'empty | repeat-last' },
  'logs-total': { field: 'logsTotal', parse: oneOf('logsTotal', ['logs', 'pages']), values: 'logs | pages' },
  'log-index': { field: 'logIndex', parse: oneOf('logIndex', ['global', 'per-page']), values: 'global | per-page' },
  'logs-page-cap': { field: 'logsPageCap', parse: cap('logsPageCap'), values: '1..1000 | none' },
  datetime: { field: 'datetime', parse: oneOf('datetime', DATETIME_READINGS), values: DATETIME_READINGS.join(' | ') },
  'bad-value': { field: 'badValue', parse: oneOf('badValue', BAD_VALUES), values: BAD_VALUES.join(' | ') },
  'bad-field': {
    field: 'badField',
    parse: (v) => {
      if (!/^[a-z_]{1,40}$/.test(v)) throw new Error('expected a member name such as principal_nav, nav, qty, total_nav, exchange_rate');
      return { badField: v };
    },
    values: 'a float member name (default principal_nav)',
  },
  'time-range': { field: 'timeRange', parse: oneOf('timeRange', ['honoured', 'ignored']), values: 'honoured | ignored' },
  paging: { field: 'paging', parse: oneOf('paging', ['honoured', 'ignored']), values: 'honoured | ignored' },
};

/** Parses `key=value` pairs over the defaults; throws naming the bad pair. */
export function parseConventions(pairs: readonly string[], base: Readonly<Conventions> = DEFAULT_CONVENTIONS): Conventions {
  const out: Conventions = { ...base };
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    const spec = CONVENTION_KEYS[key];
    if (!spec) throw new Error(`unknown convention '${key}'; conventions: ${Object.keys(CONVENTION_KEYS).join(', ')}`);
    try {
      Object.assign(out, spec.parse(value));
    } catch (err) {
      throw new Error(`convention ${key}=${value}: ${(err as Error).message}`, { cause: err });
    }
  }
  return out;
}

/** The pairs that differ from the defaults (`key=value ...`), for logs and test names. */
export function describeConventions(c: Readonly<Conventions>): string {
  const parts: string[] = [];
  for (const [key, spec] of Object.entries(CONVENTION_KEYS)) {
    if (c[spec.field] !== DEFAULT_CONVENTIONS[spec.field]) parts.push(`${key}=${String(c[spec.field] ?? 'none')}`);
  }
  return parts.join(' ') || 'defaults';
}

/** Rows of a range as the reading orders them; `unordered` is a fixed shuffle (stable paging). */
export function orderIndexes(c: Readonly<Conventions>, from: number, to: number): (k: number) => number {
  const n = to - from;
  if (c.order === 'oldest-first') return (k) => from + k;
  if (c.order === 'newest-first') return (k) => to - 1 - k;
  // A bijection on [0, n): stride coprime with n, so every row appears exactly once.
  let stride = Math.max(1, Math.floor(n * 0.618));
  while (gcd(stride, n) !== 1) stride++;
  return (k) => from + ((k * stride + 7) % n);
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The inclusive range of whole Unix seconds that [start, end] in the reading's unit and bounds selects. */
export function secondsSelected(c: Readonly<Conventions>, start: number, end: number): [number, number] {
  if (c.timeRange === 'ignored') return [0, Number.MAX_SAFE_INTEGER];
  const lo = c.bounds === 'exclusive' ? start + 1 : start;
  const hi = c.bounds === 'inclusive' ? end : end - 1;
  if (c.timeUnit === 's') return [lo, hi];
  return [Math.ceil(lo / 1000), Math.floor(hi / 1000)];
}

/** Offset of the first row of `page` (0-based row index), honouring a page past the end. */
export function pageOffset(c: Readonly<Conventions>, page: number, size: number, count: number): number {
  if (c.paging === 'ignored') return 0;
  const offset = (page - c.pageBase) * size;
  if (offset >= count && count > 0 && c.pastEnd === 'repeat-last') return Math.floor((count - 1) / size) * size;
  return offset;
}
