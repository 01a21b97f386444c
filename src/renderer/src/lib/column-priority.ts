/**
 * Columns give way by priority when a table does not fit its box: the box gets `hide-p3`, then
 * `hide-p2`, then `hide-p1` until the table fits (the view's CSS hides cells of class p3, p2,
 * p1 under them). Measured, not guessed from the window's width: the same table is wider in the
 * all-wallets scope (a Wallet column, twins told apart), with long names or in another locale,
 * and a figure must never be cut off. The least important columns go first; what is left of a
 * table that still does not fit scrolls sideways inside its box.
 */
const LEVELS = ['hide-p3', 'hide-p2', 'hide-p1'] as const;

export function columnPriority(node: HTMLElement): { destroy(): void } {
  let frame = 0;
  const fits = () => node.scrollWidth <= node.clientWidth + 1;
  const fit = () => {
    frame = 0;
    node.classList.remove(...LEVELS);
    for (const level of LEVELS) {
      if (fits()) break;
      node.classList.add(level);
    }
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(fit);
  };
  // The box's width (window, sidebar) and the table's content (rows, scope, filter) both move it.
  const resized = new ResizeObserver(schedule);
  resized.observe(node);
  const changed = new MutationObserver(schedule);
  changed.observe(node, { childList: true, subtree: true, characterData: true });
  fit();
  return {
    destroy() {
      resized.disconnect();
      changed.disconnect();
      cancelAnimationFrame(frame);
    },
  };
}
