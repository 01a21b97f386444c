/**
 * A team server's "slow down" (HTTP 429 with Retry-After: main/team/request-limits.ts), waited
 * out by its clients: the browser's screens (renderer api.ts) and the desktop and CLI against a
 * server (team-client/remote.ts). A person's screen or cron job that asked a little too much in
 * one go is answered a moment later, not with an error; one that keeps asking too much is told
 * so once the wait would grow past `patienceMs`.
 */
import { coded } from './core-codes.ts';
import { abortableSleep } from './sleep.ts';

/** The longest a client waits in all for one request before it gives the refusal to its caller. */
export const SLOW_DOWN_PATIENCE_MS = 120_000;
/** A Retry-After past this is read as this: a client never sleeps on one answer for longer. */
const LONGEST_WAIT_MS = 30_000;

/**
 * A Retry-After header as ms to wait: its seconds, or the time to its HTTP date (a proxy's may be
 * one), at least 1 s and at most LONGEST_WAIT_MS; 1 s when absent or unreadable. A larger number
 * never means a shorter wait.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number {
  const v = header?.trim() ?? '';
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : /[a-z]/i.test(v) && Number.isFinite(Date.parse(v)) ? Date.parse(v) - now : 1000;
  return Math.min(LONGEST_WAIT_MS, Math.max(1000, ms));
}

/**
 * `send` again while the answer is 429, waiting what it says each time; the first other answer is
 * returned. Once the waits would pass `patienceMs`, the last 429: as the server sent it when it was
 * the first, else saying how long the client waited (the server's "try again in 1 second" read
 * after two minutes of trying again would mislead). An abort stops the wait at once and rejects,
 * as fetch does.
 */
export async function waitingOutSlowDowns(
  send: () => Promise<Response>,
  o: { signal?: AbortSignal | undefined; patienceMs?: number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
): Promise<Response> {
  const patience = o.patienceMs ?? SLOW_DOWN_PATIENCE_MS;
  const sleep = o.sleep ?? abortableSleep;
  // The waits and the asks' own time, both: a server slow to say "slow down" spends the patience too.
  let waited = 0;
  let tried = false;
  for (;;) {
    const asked = Date.now();
    const res = await send();
    waited += Math.max(0, Date.now() - asked);
    if (res.status !== 429) return res;
    const wait = retryAfterMs(res.headers.get('retry-after'));
    if (waited + wait > patience && !tried) return res;
    // Its body is not read: release it before waiting.
    await res.body?.cancel().catch(() => undefined);
    if (waited + wait > patience) return stillBusy(res, waited);
    tried = true;
    await sleep(wait, o.signal);
    waited += wait;
  }
}

/** The refusal given once a client has waited its patience out: the server's, saying how long it was tried. */
function stillBusy(res: Response, waitedMs: number): Response {
  const error = { kind: 'rate-limited', retryable: true, ...coded('team.stillBusy', { minutes: Math.max(1, Math.round(waitedMs / 60_000)) }) };
  return new Response(JSON.stringify({ ok: false, error }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': res.headers.get('retry-after') ?? '1' },
  });
}
