/**
 * Whether a locale tag is one this runtime's Intl accepts and supports: "en_US" or
 * "xx-invalid-!!" make every Intl formatter throw, so they are refused when set and
 * ignored when found stored, instead of taking every view down.
 */
export function isSupportedLocale(tag: string): boolean {
  try {
    return (
      Intl.getCanonicalLocales(tag).length === 1 &&
      Intl.NumberFormat.supportedLocalesOf(tag).length === 1 &&
      Intl.DateTimeFormat.supportedLocalesOf(tag).length === 1
    );
  } catch {
    return false;
  }
}
