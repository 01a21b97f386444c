/**
 * Whether the NAV chart can show principal and total as two lines. They are one line when
 * principal equals total at every date (no rewards), or when they are never further apart
 * than the lines are wide (rewards far smaller than the moves on the axis): two legend entries
 * for what the eye sees as one line would say there is a second line to find. Rewards have a
 * chart of their own below, so nothing is hidden.
 */
export type NavLines = 'apart' | 'equal' | 'overlap';

/** `plotHeightPx`: the plot's height; `lineWidthPx`: how wide the lines are drawn. */
export function navLines(points: ReadonlyArray<{ total: number | null; principal: number | null }>, plotHeightPx: number, lineWidthPx: number): NavLines {
  let diff = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    // A date where one is known and the other is not has two different things to show.
    if ((p.total === null) !== (p.principal === null)) return 'apart';
    if (p.total === null || p.principal === null) continue;
    diff = Math.max(diff, Math.abs(p.total - p.principal));
    lo = Math.min(lo, p.total, p.principal);
    hi = Math.max(hi, p.total, p.principal);
  }
  if (diff === 0) return 'equal';
  // The axis spans at least the data's range, so a pixel is worth at least (hi − lo) / height.
  return plotHeightPx > 0 && diff < (lineWidthPx * (hi - lo)) / plotHeightPx ? 'overlap' : 'apart';
}
