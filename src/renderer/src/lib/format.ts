/**
 * Numbers and dates for the user's locale (Intl). Missing values show as "—", never 0.
 * NAV is in USD (docs/service.md); quantities keep up to 6 decimals, as tokens need.
 */
import { visibleText } from '../../../shared/text-safety.ts';
import { isSupportedLocale } from '../../../shared/locale.ts';

let locale: string | undefined;

export function setLocale(l: string | null | undefined): void {
  // A locale the runtime refuses would make every formatter throw: fall back to the default.
  locale = l && isSupportedLocale(l) ? l : undefined;
}

const cache = new Map<string, Intl.NumberFormat>();
function nf(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${locale ?? ''}|${key}`;
  let f = cache.get(k);
  if (!f) cache.set(k, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

export const DASH = '—';
const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || Number.isNaN(v);

export function usd(v: number | null | undefined, options: { compact?: boolean; sign?: boolean } = {}): string {
  if (missing(v)) return DASH;
  const f = nf(`usd${options.compact ? 'c' : ''}${options.sign ? 's' : ''}`, {
    style: 'currency',
    currency: 'USD',
    notation: options.compact ? 'compact' : 'standard',
    maximumFractionDigits: options.compact ? 1 : 2,
    minimumFractionDigits: options.compact ? 0 : 2,
    signDisplay: options.sign ? 'exceptZero' : 'auto',
  });
  return f.format(v);
}

export function qty(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  const abs = Math.abs(v);
  const digits = abs >= 1000 ? 2 : abs >= 1 ? 4 : 6;
  return nf(`q${digits}`, { maximumFractionDigits: digits }).format(v);
}

export function pct(v: number | null | undefined, digits = 2): string {
  if (missing(v)) return DASH;
  // Inputs are percentages (the service's pct_ownership is 0–100).
  return nf(`p${digits}`, { style: 'percent', maximumFractionDigits: digits }).format(v / 100);
}

export function ratio(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  return nf('r', { maximumFractionDigits: 4 }).format(v);
}

export function integer(v: number | null | undefined): string {
  if (missing(v)) return DASH;
  return nf('i', { maximumFractionDigits: 0 }).format(v);
}

export function date(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}

export function dayHeading(iso: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' }).format(new Date(iso));
}

export function time(iso: string | null | undefined): string {
  if (!iso) return DASH;
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(new Date(iso));
}

/** "5 min ago", "3 days ago". */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [['year', 31_536_000], ['month', 2_592_000], ['day', 86_400], ['hour', 3_600], ['minute', 60]];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  return rtf.format(0, 'minute');
}

export function shortAddress(a: string | null | undefined): string {
  if (!a) return DASH;
  return a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

export function label(s: string | null | undefined): string {
  if (!s) return DASH;
  return visibleText(s.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()));
}

/**
 * Text from the service or a label, for display: controls and direction overrides shown as
 * visible escapes (<U+202E>), so they can neither hide nor reorder what sits beside them.
 * Put it in a <bdi> where it sits next to other text.
 */
export function safe(s: string | null | undefined, fallback = ''): string {
  return s ? visibleText(s) : fallback;
}
