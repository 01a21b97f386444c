/** The ticks of a date axis (chart.ts), apart from Chart.js and the page: tested in Node. */

/** Tick steps of a date axis, in days. */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364, 728, 1456];

/** Room between two date labels, in px. */
const LABEL_GAP_PX = 16;

/**
 * The tick step, in days, for `days` of dates on an axis `widthPx` wide whose labels are
 * `labelPx` wide: the smallest step of DAY_STEPS whose ticks (at most `maxTicks`) all fit side by
 * side with a gap. A fixed count overlapped the labels on a narrow chart (1024 px with the
 * sidebar open; longer labels in another locale).
 */
export function dateStep(days: number, widthPx: number, labelPx: number, maxTicks: number): number {
  const fit = Math.max(2, Math.min(maxTicks, Math.floor(widthPx / (labelPx + LABEL_GAP_PX))));
  return DAY_STEPS.find((s) => days / s <= fit - 1) ?? Math.ceil(days / (fit - 1));
}
