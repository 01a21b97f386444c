/**
 * How the service's identifiers (protocol ids, asset types, action types) read on screen and
 * in reports: one rule for the app and the PDF, so "uniswap_v3" is "Uniswap v3" in both.
 */
export function displayName(s: string | null | undefined, missing = '—'): string {
  if (!s) return missing;
  return s.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}
