/**
 * How much of the team server one person may ask at once (docs/team.md, "Request limits"). The
 * core answers one request at a time on one thread: a script in a loop, or a page asking the
 * fund's whole view over and over, would otherwise hold everyone else's screens behind it. Each
 * person has a bucket of requests that refills at a steady rate, and a bound on the requests of
 * theirs under way at once; over either, the request is refused before anything is read (HTTP
 * 429, with Retry-After), and the clients wait and ask again (team-client/remote.ts, the
 * renderer's api.ts). Per person, not per credential: a person's tokens, sessions and desktops
 * share one allowance, so making more tokens does not buy more.
 *
 * Read against the server's clock (`now`), so a test moves time rather than waiting for it.
 */

export interface RequestLimits {
  /** Requests a person may make in one go before the rate applies (the bucket's size). */
  burst: number;
  /** Requests per second the bucket refills at: what a person may keep asking for ever. */
  perSecond: number;
  /** A person's requests under way at once. */
  concurrent: number;
}

/**
 * The defaults: a screen's first load asks for some tens of answers at once (the renderer's start,
 * measured in test/e2e/team-request-limits.test.ts: about 35 for a walk through every view), well inside the burst; a person working
 * asks a few a second.
 */
export const DEFAULT_REQUEST_LIMITS: RequestLimits = { burst: 240, perSecond: 40, concurrent: 24 };

export type Admission = { ok: true; done(): void } | { ok: false; retryAfterSeconds: number; why: 'rate' | 'concurrent' };

export interface RequestLimiter {
  /** A request of `person` at `now` (ms): admitted (call `done` when it has answered), or refused with when to ask again. */
  admit(person: string, now: number): Admission;
  /** People tracked: one entry each, made at their first request (only a signed-in person's reaches here), so bounded by the people. */
  tracked(): number;
}

export function requestLimiter(limits: RequestLimits = DEFAULT_REQUEST_LIMITS): RequestLimiter {
  if (!(limits.burst >= 1 && limits.perSecond > 0 && limits.concurrent >= 1))
    throw new Error('Request limits need a burst and concurrency of at least 1 and a positive rate.');
  // Keyed by the person's name as the people's table compares it (COLLATE NOCASE).
  const people = new Map<string, { tokens: number; at: number; running: number }>();
  const refill = (b: { tokens: number; at: number }, now: number) => {
    // A clock that steps back (a system's correction, a test's) refills nothing, and the refill
    // goes on from the new time: keeping the highest time seen would refuse a person until the
    // clock caught up with it again (minutes, or a year), while saying "in 1 second".
    const elapsed = Math.max(0, now - b.at) / 1000;
    b.tokens = Math.min(limits.burst, b.tokens + elapsed * limits.perSecond);
    b.at = now;
  };
  return {
    admit(person, now) {
      const key = person.toLowerCase();
      let b = people.get(key);
      if (!b) people.set(key, (b = { tokens: limits.burst, at: now, running: 0 }));
      else refill(b, now);
      if (b.running >= limits.concurrent) return { ok: false, retryAfterSeconds: 1, why: 'concurrent' };
      if (b.tokens < 1) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / limits.perSecond)), why: 'rate' };
      b.tokens -= 1;
      b.running += 1;
      let finished = false;
      const bucket = b;
      return {
        ok: true,
        done: () => {
          if (finished) return;
          finished = true;
          bucket.running -= 1;
        },
      };
    },
    tracked: () => people.size,
  };
}
