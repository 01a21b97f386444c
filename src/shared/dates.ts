/**
 * A calendar date written YYYY-MM-DD (the service's `date` parameter) as milliseconds at
 * 00:00 UTC; null when it is not one, "2025-02-30" included.
 */
export function isoDateToUtcMs(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? null : ms;
}
