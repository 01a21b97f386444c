/**
 * A team server's "slow down" (HTTP 429 with Retry-After: main/team/request-limits.ts), waited
 * out by its clients: the browser's screens (renderer api.ts) and the desktop and CLI against a
 * server (team-client/remote.ts). A person's screen or cron job that asked a little too much in
 * one go is answered a moment later, not with an error; one that keeps asking too much is told
 * so once the wait would grow past `patienceMs`.
 */

/** The longest a client waits in all for one request before it gives the refusal to its caller. */
export const SLOW_DOWN_PATIENCE_MS = 120_000;
/** A Retry-After past this is read as this: a client never sleeps on one answer for longer. */
const LONGEST_WAIT_MS = 30_000;

/** Seconds of a Retry-After header (a number of seconds; an HTTP date is not sent by the team server), as ms; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null): number {
  const seconds = header !== null && /^\d{1,6}$/.test(header.trim()) ? Number(header.trim()) : 1;
  return Math.min(LONGEST_WAIT_MS, Math.max(1, seconds) * 1000);
}

/**
 * `send` again while the answer is 429, waiting what it says each time; the first other answer
 * (or the last 429, once the waits would pass `patienceMs`) is returned. An abort stops the wait
 * at once and rejects, as fetch does.
 */
export async function waitingOutSlowDowns(
  send: () => Promise<Response>,
  o: { signal?: AbortSignal | undefined; patienceMs?: number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
): Promise<Response> {
  const patience = o.patienceMs ?? SLOW_DOWN_PATIENCE_MS;
  const sleep = o.sleep ?? abortableSleep;
  let waited = 0;
  for (;;) {
    const res = await send();
    if (res.status !== 429) return res;
    const wait = retryAfterMs(res.headers.get('retry-after'));
    if (waited + wait > patience) return res;
    // Its body is not read: release it before waiting.
    await res.body?.cancel().catch(() => undefined);
    await sleep(wait, o.signal);
    waited += wait;
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
