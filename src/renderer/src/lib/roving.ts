/**
 * Roving focus (WAI-ARIA): where a key moves within a list of `length` items from `index`.
 * Each returns -1 when the key is not one of the list's, so the caller leaves the event alone.
 */

/** A vertical list (wallets, table rows): Up/Down stop at the ends; Home/End go to them. */
export function verticalMove(key: string, index: number, length: number): number {
  if (key === 'Home') return 0;
  if (key === 'End') return length - 1;
  if (key !== 'ArrowDown' && key !== 'ArrowUp') return -1;
  return Math.max(0, Math.min(length - 1, index + (key === 'ArrowDown' ? 1 : -1)));
}

/** A tab list: Left/Right wrap around; Home/End go to the ends. */
export function tabListMove(key: string, index: number, length: number): number {
  if (key === 'ArrowRight') return (index + 1) % length;
  if (key === 'ArrowLeft') return (index + length - 1) % length;
  if (key === 'Home') return 0;
  if (key === 'End') return length - 1;
  return -1;
}
