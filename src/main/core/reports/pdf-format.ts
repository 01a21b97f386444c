/**
 * Numbers, amounts, percentages and dates as the PDFs (the portfolio report, the monthly pack)
 * print them, in the user's locale setting: one formatter, made per document from the locale the
 * export job passes in (never a module-level locale: two exports in two locales may run at once).
 *
 * The English report's look is kept: ISO dates (2025-12-31), "$1,234.56", "12.3%", counts as
 * plain digits. Any other locale writes every figure and date as Intl does for it (de-DE:
 * "11.843.120,58 $", "12,3 %", "31.12.2025"). A missing value prints "-", never 0.
 */
import { isSupportedLocale } from '../../../shared/locale.ts';
import { printable } from './pdf-fonts.ts';

export interface PdfFormat {
  /** The locale the figures are written in (a BCP 47 tag Intl accepts). */
  locale: string;
  /** Whether the document is in English: English keeps ISO dates and digit-only counts. */
  english: boolean;
  /** USD with cents; "-" when unknown. */
  usd(v: number | null | undefined): string;
  /** USD with cents and a sign before a positive amount too ("+$5.00"). */
  usdSigned(v: number): string;
  /** USD in compact notation, for a chart's axis ("$1.2M", "1,2 Mio. $"). */
  usdCompact(v: number): string;
  /** A token quantity, up to 6 decimals. */
  qty(v: number | null | undefined): string;
  /** A fraction (0.0123) as a percentage with `digits` decimals ("1.23%", "1,23 %"). */
  percent(fraction: number, digits: number): string;
  /** A plain number with exactly `digits` decimals (a collateral ratio). */
  fixed(v: number, digits: number): string;
  /** A whole count. */
  count(n: number): string;
  /** A calendar day given as YYYY-MM-DD. */
  date(iso: string): string;
  /** Month and day of a YYYY-MM-DD (the year is said elsewhere). */
  monthDay(iso: string): string;
  /** An instant (ISO 8601) to the minute, in UTC, without the zone's name. */
  minute(iso: string): string;
  /** An instant (ISO 8601) to the second, in UTC, without the zone's name. */
  second(iso: string): string;
}

/**
 * The locale a PDF is written in. With none set (null: "the system's" for the screen) a PDF is
 * en-US, not the machine's locale: a file is sent to others and read elsewhere, and the same
 * cache and request must give the same bytes on any computer (a server's or a CI runner's locale
 * must not decide the figures of a report someone else reads).
 */
export function pdfLocale(locale: string | null | undefined): string {
  return locale && isSupportedLocale(locale) ? drawable(locale) : 'en-US';
}

/** An instant to the second, in UTC (the widest date a PDF writes). */
const SECOND: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
};

const drawn = new Map<string, string>();
/**
 * The locale with figures the PDF's fonts can draw (pdf-fonts.ts): Intl writes the figures of
 * some locales in digits no embedded font has (Chakma's `ccp`, a `-u-nu-tamldec` tag), which
 * would print as "?" — every amount and date of the report unreadable. Such a locale keeps its
 * conventions with Latin digits (`-u-nu-latn`); one whose other signs no font has either is en-US.
 */
function drawable(locale: string): string {
  let known = drawn.get(locale);
  if (known === undefined) {
    const latin = new Intl.Locale(locale, { numberingSystem: 'latn' }).toString();
    known = [locale, latin].find(draws) ?? 'en-US';
    drawn.set(locale, known);
  }
  return known;
}
/** Whether every character of the figures a PDF writes in `locale` is printable. */
function draws(locale: string): boolean {
  const usd = { style: 'currency', currency: 'USD' } as const;
  const sample = [
    new Intl.NumberFormat(locale, usd).format(-1234567.89),
    new Intl.NumberFormat(locale, { ...usd, notation: 'compact' }).format(1_200_000),
    new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1 }).format(-0.123),
    new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(9876543.210987),
    new Intl.DateTimeFormat(locale, SECOND).format(Date.UTC(2025, 11, 31, 23, 59, 58)),
  ].join(' ');
  return [...sample].every(printable);
}

export function pdfFormat(setting: string | null | undefined): PdfFormat {
  const locale = pdfLocale(setting);
  const english = new Intl.Locale(locale).language === 'en';
  const usdFmt = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const compactFmt = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });
  const qtyFmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 });
  const countFmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: english ? false : 'auto' });
  const formats = new Map<string, Intl.NumberFormat>();
  const cached = (key: string, options: Intl.NumberFormatOptions) => {
    let f = formats.get(key);
    if (!f) formats.set(key, (f = new Intl.NumberFormat(locale, options)));
    return f;
  };
  const dayFmt = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  const monthDayFmt = new Intl.DateTimeFormat(locale, { month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  const minuteFmt = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  const secondFmt = new Intl.DateTimeFormat(locale, SECOND);
  const day = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined;
  return {
    locale,
    english,
    usd: (v) => (missing(v) ? '-' : usdFmt.format(v)),
    // "+" before a gain; a loss has the locale's own minus.
    usdSigned: (v) => (v > 0 ? `+${usdFmt.format(v)}` : usdFmt.format(v)),
    usdCompact: (v) => compactFmt.format(v),
    qty: (v) => (missing(v) ? '-' : qtyFmt.format(v)),
    // The English text keeps the digits of toFixed, as the report always printed them.
    percent: (fraction, digits) =>
      english
        ? `${(fraction * 100).toFixed(digits)}%`
        : cached(`p${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction),
    fixed: (v, digits) => (english ? v.toFixed(digits) : cached(`f${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v)),
    count: (n) => countFmt.format(n),
    // ISO dates in English: unambiguous on both sides of the Atlantic, and the report's format since it began.
    date: (iso) => (english ? iso.slice(0, 10) : dayFmt.format(day(iso))),
    monthDay: (iso) => (english ? iso.slice(5, 10) : monthDayFmt.format(day(iso))),
    minute: (iso) => (english ? iso.slice(0, 16).replace('T', ' ') : minuteFmt.format(new Date(iso))),
    second: (iso) => (english ? iso.slice(0, 19).replace('T', ' ') : secondFmt.format(new Date(iso))),
  };
}
