/**
 * What the service's `completion_ratio` proves. The spec gives its type (a float in each
 * transaction-history object) and leaves its meaning open; the client reads it as the share of
 * the range asked that the service has indexed (docs/service.md). So only a fraction means
 * anything: exactly 1 says the range is indexed whole, a value in [0, 1) says how much of it
 * is; anything else (above 1, negative) is not a fraction, and proves nothing.
 *
 * "Exactly" allows for float rounding only. The spec states no precision; a service that
 * computes the ratio as a quotient or a sum may send 0.9999999999999999 for 1. The tolerance,
 * 1e-12 of the range, is far below one second of any range the client asks (the widest, from
 * 1970, spans about 1.8e9 s: 1e-12 of it is 2 ms; start_time and end_time count whole seconds),
 * so a ratio it accepts as 1 cannot hide a second of history. A coarser one would: 0.9999 of a
 * three-year range leaves about 2.6 hours unindexed.
 */
export const RATIO_TOLERANCE = 1e-12;

/** Whether a ratio is a fraction (in [0, 1], within the tolerance above 1). */
export function isFraction(ratio: number): boolean {
  return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 + RATIO_TOLERANCE;
}

/** Whether a ratio says the range is indexed whole: 1, within float rounding. */
export function provesWhole(ratio: number | null): boolean {
  return ratio !== null && isFraction(ratio) && ratio >= 1 - RATIO_TOLERANCE;
}

/**
 * What the pages of one range said, combined page by page (the range's `completionRatio`):
 * null while no page has stated a ratio; a value that is not a fraction once any page sent one
 * (the first kept: it stays, whatever later pages say); otherwise the lowest fraction stated.
 * A live service's ratio may change while a range is paged: the range is whole only if every
 * page that stated one said 1. A page without one (a member missing or null) adds nothing.
 */
export function combineRatios(sofar: number | null, page: number | null): number | null {
  if (page === null) return sofar;
  if (sofar !== null && !isFraction(sofar)) return sofar;
  if (!isFraction(page)) return page;
  return sofar === null ? page : Math.min(sofar, page);
}
