/**
 * The scroll range of a list taller than a browser lays out (components/VirtualRows.svelte).
 * Chromium lays out no box taller than ~33.5 M px (its layout units are 1/64 px in 31 bits), so
 * ~930,000 rows of 36 px were as far as the timeline scrolled. Past `max` the list's box stays
 * `max` high and its scroll position stands for a place in the list in proportion (as long-list
 * libraries do: a scale between the box and the list), while the rows in view are drawn relative
 * to the box's own position, so that:
 *
 * - a jump of the box (the scrollbar's thumb dragged, or more than two views at once) goes to the
 *   place in the list in proportion, and the box's ends are the list's ends (the thumb at the
 *   bottom shows the last row whole);
 * - a small move (a wheel notch, a touchpad, a key, the track clicked: up to two views) moves the
 *   list by as much, row by row, never by the scale's thousands of rows;
 * - once the box stops, its position is set again to the list's in proportion (`scrollTopFor`),
 *   so the thumb says where the list is. It keeps a runway from the box's ends while the list is
 *   not at its own, so a wheel notch near an end moves the list rather than stopping at the box's.
 *
 * All in px: `total` the list's height (rows × row height), `max` the tallest box, `view` the
 * visible height. A list that fits is its own box: offsets and scroll positions are the same.
 */
export interface Span {
  /** The whole list's height, px. */
  total: number;
  /** The tallest the box may be, px. */
  max: number;
  /** The visible height, px. */
  view: number;
}

/** The box's height: the list's, or `max` for a list taller. */
export function boxHeight(s: Span): number {
  return Math.min(s.total, s.max);
}

/** List px per box px as the box is scrolled end to end: 1 for a list that fits. */
export function scaleOf(s: Span): number {
  const box = boxHeight(s);
  if (s.total <= s.max || box <= s.view) return 1;
  return (s.total - s.view) / (box - s.view);
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
/** The furthest the list scrolls (its last row at the bottom of the view), and the box. */
const listEnd = (s: Span) => Math.max(0, s.total - s.view);
const boxEnd = (s: Span) => Math.max(0, boxHeight(s) - s.view);
/** Box px kept from each end while the list is not at its own: a few views, or a quarter of the box. */
export function runwayOf(s: Span): number {
  return Math.floor(Math.min(4 * s.view, boxEnd(s) / 4));
}

/** The place in the list a box scrolled to `top` stands for, in proportion (the ends to the ends). */
export function offsetFor(s: Span, top: number): number {
  const k = scaleOf(s);
  if (k === 1) return clamp(top, 0, listEnd(s));
  const t = clamp(top, 0, boxEnd(s));
  return t >= boxEnd(s) ? listEnd(s) : clamp(Math.round(t * k), 0, listEnd(s));
}

/** The box's scroll position for the list at `offset`: in proportion, its ends only at the list's. */
export function scrollTopFor(s: Span, offset: number): number {
  const k = scaleOf(s);
  if (k === 1) return clamp(offset, 0, boxEnd(s));
  if (offset <= 0) return 0;
  if (offset >= listEnd(s)) return boxEnd(s);
  const runway = runwayOf(s);
  return clamp(Math.round(offset / k), runway, boxEnd(s) - runway);
}

/**
 * Where the list is after its box scrolled from `from` to `to` with the list at `offset`: a jump
 * (the thumb dragged, or more than two views) in proportion, a small move by as much.
 */
export function follow(s: Span, move: { offset: number; from: number; to: number; dragging: boolean }): number {
  if (scaleOf(s) === 1) return clamp(move.to, 0, listEnd(s));
  const by = move.to - move.from;
  if (move.dragging || Math.abs(by) > 2 * s.view) return offsetFor(s, move.to);
  return clamp(move.offset + by, 0, listEnd(s));
}

/**
 * Whether the box stopped at one of its ends while the list did not (a move the box could not
 * make whole): its position must be set again at once, or the next notch would not move it.
 */
export function stuckAtEnd(s: Span, offset: number, top: number): boolean {
  if (scaleOf(s) === 1) return false;
  return (top <= 0 && offset > 0) || (top >= boxEnd(s) && offset < listEnd(s));
}
