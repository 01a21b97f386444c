/**
 * A wait that a signal can end early: resolved after `ms`, or rejected at once when `signal` is
 * aborted (before or during the wait) with `reason()` — the signal's own reason when none is
 * given. The service client's retries (core/service/http.ts) and the clients of a team server
 * waiting out a slow down (slow-down.ts) wait with it.
 */
export function abortableSleep(ms: number, signal?: AbortSignal, reason: () => unknown = () => signal!.reason): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(reason());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(reason());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
