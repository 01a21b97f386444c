/**
 * Quitting the desktop app waits for the core to close: the jobs in flight are cancelled (the
 * pages they committed stay), the write worker ends, and the cache is closed, before Electron
 * lets the process go. A `void core.close()` in `will-quit` let the process end mid-close.
 */
import type { App } from 'electron';

export function closeBeforeQuit(app: Pick<App, 'on' | 'quit'>, close: () => Promise<void> | undefined): void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('will-quit', (event) => {
    if (state === 'closed') return;
    // Held until the close settles, then asked again (and let through).
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    void Promise.resolve()
      .then(close)
      .catch(() => undefined)
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}
