/**
 * Numbers and dates for the user's locale (Intl). Missing values show as "—", never 0.
 * NAV is in USD (docs/service.md); quantities keep up to 6 decimals, as tokens need.
 */

import { displayName } from '../../../shared/display-names.ts';
import { chainName } from '../../../shared/chain-names.ts';

import { visibleText } from '../../../shared/text-safety.ts';
import { isSupportedLocale } from '../../../shared/locale.ts';
import type { PickOption, Settings } from '../../../shared/contract.ts';

let locale: string | undefined;

/** The locale numbers and dates are formatted in (undefined: the system's); charts are given it too. */
export function currentLocale(): string | undefined {
  return locale;
}

export function setLocale(l: string | null | undefined): void {
  // A locale the runtime refuses would make every formatter throw: fall back to the default.
  locale = l && isSupportedLocale(l) ? l : undefined;
  cache.clear();
  dateCache.clear();
}

/**
 * Transaction times: UTC (as the service gives them) or the computer's time zone. Dates
 * (as-of dates, snapshot dates) are calendar days of the service, always UTC.
 */
let zone: Settings['timeZone'] = 'utc';
export function setTimeZone(z: Settings['timeZone']): void {
  zone = z;
  dateCache.clear();
}
const tz = () => (zone === 'utc' ? 'UTC' : undefined);

/** The chosen zone's abbreviation at an instant, in the locale: "MEZ" or "MESZ", "GMT+1", "UTC". */
function zoneAbbr(d: Date): string {
  return (
    df('zoneAbbr', { timeZone: tz(), timeZoneName: 'short' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value ?? ''
  );
}
/** The chosen zone's offset from UTC at an instant, in minutes ("GMT+01:00" is 60). */
function zoneOffset(d: Date): number {
  const v = df('zoneOffset', { timeZone: tz(), timeZoneName: 'longOffset' })
    .formatToParts(d)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /([+-])(\d{2}):?(\d{2})?/.exec(v ?? '');
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

/**
 * The time zone the timeline's header names ("UTC", "MEZ", "GMT+1"): in local time the zone's
 * standard time (the smaller of its offsets in the year), not the one of today, so it does not
 * change with the season; a row in the zone's other offset (summer time) says its own
 * (`timelineTime`), so no row's time is read an hour off (issue 39, item 4).
 */
let headerZone: { key: string; label: string } | null = null;
export function timeZoneLabel(): string {
  if (zone === 'utc') return 'UTC';
  const key = `${locale ?? ''}|${zone}`;
  if (headerZone?.key !== key) {
    const year = new Date().getFullYear();
    const jan = new Date(Date.UTC(year, 0, 1));
    const jul = new Date(Date.UTC(year, 6, 1));
    headerZone = { key, label: zoneAbbr(zoneOffset(jan) <= zoneOffset(jul) ? jan : jul) || 'local' };
  }
  return headerZone.label;
}

/** The time zone the times are in, by name: "UTC", or the computer's ("Europe/Berlin"). */
export function timeZoneName(): string {
  return zone === 'utc' ? 'UTC' : (Intl.DateTimeFormat().resolvedOptions().timeZone ?? timeZoneLabel());
}

/** Whether the local zone has more than one offset in the year (summer time): rows may then carry their own abbreviation. */
export function zoneVaries(): boolean {
  if (zone === 'utc') return false;
  const year = new Date().getFullYear();
  return zoneOffset(new Date(Date.UTC(year, 0, 1))) !== zoneOffset(new Date(Date.UTC(year, 6, 1)));
}

/** A timeline row's time of day, and its zone's abbreviation when it is not the header's (`timeZoneLabel`), else null. */
export function timelineTime(iso: string | null | undefined): { time: string; zone: string | null } {
  if (!iso || zone === 'utc') return { time: time(iso), zone: null };
  const own = zoneAbbr(new Date(iso));
  return { time: time(iso), zone: own && own !== timeZoneLabel() ? own : null };
}

const cache = new Map<string, Intl.NumberFormat>();
function nf(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${locale ?? ''}|${key}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

// Making a DateTimeFormat costs about as much as laying out a timeline row (tens of µs): one
// per call made a fast scroll through the timeline spend a third of its frames building them.
// Kept per locale and time zone; `undefined` (the computer's zone) is resolved when first made.
const dateCache = new Map<string, Intl.DateTimeFormat>();
function df(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const k = `${locale ?? ''}|${options.timeZone ?? ''}|${key}`;
  let f = dateCache.get(k);
  if (!f) dateCache.set(k, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

export const DASH = '—';
const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || Number.isNaN(v);

export function usd(v: number | null | undefined, options: { compact?: boolean; sign?: boolean; digits?: [number, number] } = {}): string {
  if (missing(v)) return DASH;
  // `digits`: the fraction digits, [min, max], an axis's ticks need (tickLabels).
  const [min, max] = options.digits ?? (options.compact ? [0, 1] : [2, 2]);
  const f = nf(`usd${options.compact ? 'c' : ''}${options.sign ? 's' : ''}${min}-${max}`, {
    style: 'currency',
    currency: 'USD',
    notation: options.compact ? 'compact' : 'standard',
    maximumFractionDigits: max,
    minimumFractionDigits: min,
    signDisplay: options.sign ? 'exceptZero' : 'auto',
  });
  return f.format(v);
}

/**
 * A price in USD: cents for a price of 1 or more; a smaller one to four significant digits
 * ($0.00001234), which cents would round to $0.00.
 */
export function price(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  const a = Math.abs(v);
  if (a >= 1 || a === 0) return usd(v);
  return usd(v, { digits: [2, Math.min(12, Math.max(2, 3 - Math.floor(Math.log10(a))))] });
}

/** The unit compact notation gives a sum of money ("M", "Mio.", "K"; "" for none), so ticks in one unit can share their decimals. */
export function compactUnit(v: number): string {
  return (
    nf('usdc0-1', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1, minimumFractionDigits: 0 })
      .formatToParts(v)
      .find((p) => p.type === 'compact')?.value ?? ''
  );
}

/**
 * A token quantity. `sign`: "+" before a positive one too (a flow in, a change), the sign the
 * locale writes: every signed figure on screen comes from here or `usd`, never a hand-written
 * "−" or "+" (issue 39: "−" in the timeline, "-" in the monthly pack).
 */
export function qty(v: number | null | undefined, options: { sign?: boolean } = {}): string {
  if (missing(v)) return DASH;
  const digits = qtyDigits(v);
  return nf(`q${digits}${options.sign ? 's' : ''}`, { maximumFractionDigits: digits, signDisplay: options.sign ? 'exceptZero' : 'auto' }).format(v);
}

/**
 * A quantity given as exact decimal digits (an event log's integer in token units, which a double
 * would round): in the locale, every digit kept (Intl formats a numeric string without a float).
 */
export function exactQty(digits: string): string {
  return nf('qexact', { maximumFractionDigits: 100 }).format(digits as Intl.StringNumericLiteral);
}

/** The fraction digits `qty` gives a quantity: fewer the larger it is. */
export function qtyDigits(v: number): number {
  const abs = Math.abs(v);
  return abs >= 1000 ? 2 : abs >= 1 ? 4 : 6;
}

/**
 * Quantities of one row that add up (a roll-forward: opening + inflow − outflow + remainder =
 * closing) at one precision, the finest any of them needs, every figure with as many digits: so
 * the row can be footed by eye (issue 39: "2,076.32 + 0.113887 + 0.750529 = 2,077.18").
 */
export function qtyRow(values: ReadonlyArray<number | null | undefined>): (v: number | null | undefined, options?: { sign?: boolean }) => string {
  const digits = Math.max(0, ...values.filter((v): v is number => !missing(v) && v !== 0).map(qtyDigits));
  return (v, options = {}) =>
    missing(v)
      ? DASH
      : v === 0
        ? nf('q0', { maximumFractionDigits: 0 }).format(0)
        : nf(`qf${digits}${options.sign ? 's' : ''}`, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
            signDisplay: options.sign ? 'exceptZero' : 'auto',
          }).format(v);
}

/**
 * A fraction (0.449) as a percentage in the locale ("44.9%", "44,9 %"), with `min` to `max`
 * fraction digits. A value that is not zero never reads "0 %" and one that is not the whole
 * never reads "100 %": they show as "<0.1%" and ">99.9%" at the precision shown.
 */
function percent(v: number, min: number, max: number): string {
  const f = nf(`p${min}-${max}`, { style: 'percent', minimumFractionDigits: min, maximumFractionDigits: max });
  // The smallest step shown, as a fraction: 0.001 for one digit of a percentage.
  const step = 10 ** -(max + 2);
  if (v > 0 && v < step / 2) return `<${f.format(step)}`;
  if (v < 0 && v > -step / 2) return `>${f.format(-step)}`;
  if (v < 1 && v > 1 - step / 2) return `>${f.format(1 - step)}`;
  return f.format(v);
}

/** A percentage given as 0–100 (the service's pct_ownership), up to `digits` fraction digits. */
export function pct(v: number | null | undefined, digits = 2): string {
  if (missing(v)) return DASH;
  return percent(v / 100, 0, digits);
}

/** Items joined as the locale's language joins a list: "May 1 and May 8", "1. Mai und 8. Mai". */
export function andList(items: readonly string[]): string {
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(items);
}

/** A move given as 0–100, signed, with 2 fraction digits: "+5.19%", "+5,19 %", "-0.40%" (an alert rule's NAV move). */
export function signedPct(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  return nf('pcts', { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v / 100);
}

/** A share given as a fraction (0.449), with exactly `digits` fraction digits: "44.9%", "44,9 %". */
export function share(v: number | null | undefined, digits = 1): string {
  if (missing(v)) return DASH;
  return percent(v, digits, digits);
}

/**
 * A ratio or factor (collateral/debt 2.201, a threshold 0.825, health 1.084): up to 4 fraction
 * digits, or exactly `digits` where a column must line up ("2.2010", "2,2010").
 */
export function ratio(v: number | null | undefined, digits?: number): string {
  if (missing(v)) return DASH;
  if (digits === undefined) return nf('r', { maximumFractionDigits: 4 }).format(v);
  return nf(`r${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
}

/** A health factor, one precision on every screen (issue 39: two decimals in Positions, three in Risk). */
export function healthFigure(v: number | null | undefined): string {
  return ratio(v, 3);
}

/** A figure someone typed (an alert rule's threshold), every digit of it, in the locale: "1,085312". */
export function asTyped(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  return nf('t', { maximumFractionDigits: 12 }).format(v);
}

/** A plain number with `min` to `max` fraction digits (axis ticks of ratios). */
export function decimal(v: number | null | undefined, min: number, max: number): string {
  if (missing(v)) return DASH;
  return nf(`d${min}-${max}`, { minimumFractionDigits: min, maximumFractionDigits: max }).format(v);
}

/**
 * Labels for an axis's ticks: the fewest fraction digits at which every label is exact (more
 * digits would not change it) and no two labels are the same, so a narrow range reads
 * "$4.05M, $4.1M, $4.15M", never "$4.1M, $4.1M, $4M". `format(v, min, max)` formats one tick
 * with min to max fraction digits; `pad` gives every label the same number of digits ("1.0, 1.5").
 */
export function tickLabels(values: readonly number[], format: (v: number, min: number, max: number) => string, pad = false): string[] {
  const MAX = 8;
  for (let d = 0; d <= MAX; d++) {
    const labels = values.map((v) => format(v, 0, d));
    const exact = values.every((v, i) => format(v, 0, d + 3) === labels[i]);
    if (exact && new Set(labels).size === labels.length) return pad ? values.map((v) => format(v, d, d)) : labels;
  }
  return values.map((v) => format(v, pad ? MAX : 0, MAX));
}

export function integer(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  return nf('i', { maximumFractionDigits: 0 }).format(v);
}

/**
 * A file's size in the locale: "812 kB", "2.4 GB" (decimal units; one decimal below 10), in the
 * unit `scale` would take: a part of a whole reads in the whole's unit ("0.6 of 2.4 GB", not "600 MB").
 */
export function fileSize(bytes: number, scale = bytes): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let i = 0;
  while (scale >= 1000 ** (i + 1) && i < units.length - 1) i++;
  const unit = units[i]!;
  const v = bytes / 1000 ** i;
  const digits = scale / 1000 ** i < 10 && i > 0 ? 1 : 0;
  return nf(`size-${unit}-${digits}`, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: digits, minimumFractionDigits: digits }).format(v);
}

export function date(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return df('date', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}

export function dayHeading(iso: string): string {
  return df('day', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  return df('dateTime', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: tz(),
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** A month (YYYY-MM) as the locale names it: "October 2026", "Oktober 2026". */
export function monthName(ym: string): string {
  const [y, m] = ym.split('-').map(Number);
  return df('month', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y!, m! - 1, 1));
}

/** A wall-clock time of day (a schedule's), in the locale's notation: "06:00", "6:00 AM". */
export function wallClock(hour: number, minute: number): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, hour, minute));
}

/** A weekday's name in the locale, 0 being Sunday (as Date.getDay). */
export function weekdayName(day: number): string {
  // 2 January 2000 was a Sunday.
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 2 + day));
}

export function time(iso: string | null | undefined): string {
  if (!iso) return DASH;
  return df('time', { hour: '2-digit', minute: '2-digit', timeZone: tz() }).format(new Date(iso));
}

/** The calendar day of a transaction in the chosen time zone, YYYY-MM-DD (for day headings). */
export function dayOf(iso: string | null | undefined): string {
  if (!iso) return 'unknown';
  if (zone === 'utc') return iso.slice(0, 10);
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Date fields follow the locale: "23.11.2026" in de-DE, "11/23/2026" in en-US. The pattern
 * is read from Intl, so every locale gets its own order and separators.
 */
export function datePattern(
  // The letters for year, month and day, in the UI's language ("TT.MM.JJJJ" in German): words.dateField.letters.
  letters: { year: string; month: string; day: string } = { year: 'YYYY', month: 'MM', day: 'DD' },
): { order: Array<'year' | 'month' | 'day'>; placeholder: string } {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).formatToParts(
    new Date(Date.UTC(2026, 10, 23)),
  );
  const order: Array<'year' | 'month' | 'day'> = [];
  let placeholder = '';
  for (const p of parts) {
    if (p.type === 'year' || p.type === 'month' || p.type === 'day') {
      order.push(p.type);
      placeholder += letters[p.type];
    } else placeholder += p.value;
  }
  return { order, placeholder };
}

/** A date as a date field shows it, in the locale's numeric form. */
export function dateField(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

/**
 * Reads what was typed in a date field: the locale's numeric form, or ISO YYYY-MM-DD.
 * Returns YYYY-MM-DD, or null when it is not a real calendar date.
 */
export function parseDateField(text: string): string | null {
  const t = text.trim();
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else {
    const nums = t.match(/\d+/g);
    if (!nums || nums.length !== 3 || /[^\d\s./\-年月日]/.test(t.replace(/\u200f|\u200e/g, ''))) return null;
    const { order } = datePattern();
    const at = (k: 'year' | 'month' | 'day') => Number(nums[order.indexOf(k)]);
    [y, m, d] = [at('year'), at('month'), at('day')];
    if (String(nums[order.indexOf('year')]).length !== 4) return null;
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** "5 min ago", "3 days ago". */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  return rtf.format(0, 'minute');
}

/** An EVM address as typed or stored (either case): shown short, where other values are shown as they are. */
export const isEvmAddress = (s: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(s);

export function shortAddress(a: string | null | undefined): string {
  if (!a) return DASH;
  return a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

/**
 * A chain as people read it: its display name from the catalogue ("Ethereum" for eth), an id
 * the app does not know as itself. Every screen names a chain so (issue 39: "eth", "Eth" and
 * "Ethereum" for one chain); ids stay in addresses, CSV id columns and JSON.
 */
export function chain(id: string | null | undefined): string {
  return chainName(id) ?? safe(id, DASH);
}

/** Chains as a picker's options (ListPicker), each once, in the order given, named as every screen names them. */
export function chainOptions(ids: Iterable<string>): PickOption[] {
  return [...new Set(ids)].map((c) => ({ value: c, label: chain(c) }));
}

/** A service identifier as people read it; the PDF report uses the same rule. */
export function label(s: string | null | undefined): string {
  return visibleText(displayName(s, DASH));
}

/**
 * Text from the service or a label, for display: controls and direction overrides shown as
 * visible escapes (<U+202E>), so they can neither hide nor reorder what sits beside them.
 * Put it in a <bdi> where it sits next to other text.
 */
export function safe(s: string | null | undefined, fallback = ''): string {
  return s ? visibleText(s) : fallback;
}
