/**
 * Each person's allowance on a team server (team/request-limits.ts, docs/team.md "Request
 * limits"): the bucket and the bound on requests under way, read against a clock the test moves;
 * over HTTP, a person over their allowance is refused with 429 and Retry-After before anything is
 * read, while another person is not; a person's tokens share their allowance; and the CLI's
 * client (team-client/remote.ts, as `folioscope --server` runs it) waits a refusal out and goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLimiter } from '../../src/main/team/request-limits.ts';
import { remoteCore } from '../../src/main/team-client/remote.ts';
import { retryAfterMs, waitingOutSlowDowns } from '../../src/shared/slow-down.ts';
import { useSimulator } from '../support/sim.ts';
import { startTeam, type Team } from '../support/team-http.ts';

describe('the limiter', () => {
  it('gives each person a burst, then their rate, read against the clock it is given', () => {
    const l = requestLimiter({ burst: 3, perSecond: 2, concurrent: 10 });
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) expect(l.admit('vic', t).ok).toBe(true);
    const refused = l.admit('vic', t);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 1, why: 'rate' });
    // Another person has their own allowance; the same person in another spelling has the same.
    expect(l.admit('pia', t).ok).toBe(true);
    expect(l.admit('VIC', t).ok).toBe(false);
    // Half a second refills one request (2 a second), not two.
    expect(l.admit('vic', t + 500).ok).toBe(true);
    expect(l.admit('vic', t + 500).ok).toBe(false);
    // A clock stepped back refills nothing then, and refills from the new time on: half a second
    // later, one more (not only once the clock has caught up with the time seen before).
    const back = t - 600_000;
    expect(l.admit('vic', back).ok).toBe(false);
    expect(l.admit('vic', back + 500).ok).toBe(true);
    expect(l.admit('vic', back + 500).ok).toBe(false);
    // A long pause refills the burst, no more.
    for (let i = 0; i < 3; i++) expect(l.admit('vic', t + 3_600_000).ok).toBe(true);
    expect(l.admit('vic', t + 3_600_000).ok).toBe(false);
    expect(l.tracked()).toBe(2);
  });

  it('bounds a person’s requests under way, each freed once when it answers', () => {
    const l = requestLimiter({ burst: 100, perSecond: 100, concurrent: 2 });
    const a = l.admit('vic', 0);
    const b = l.admit('vic', 0);
    expect(a.ok && b.ok).toBe(true);
    expect(l.admit('vic', 0)).toEqual({ ok: false, retryAfterSeconds: 1, why: 'concurrent' });
    if (a.ok) {
      a.done();
      a.done();
    }
    expect(l.admit('vic', 0).ok).toBe(true);
    expect(l.admit('vic', 0).ok).toBe(false);
  });

  it('refuses limits that would refuse everything', () => {
    expect(() => requestLimiter({ burst: 0, perSecond: 1, concurrent: 1 })).toThrow(/at least 1/);
    expect(() => requestLimiter({ burst: 1, perSecond: 0, concurrent: 1 })).toThrow(/positive rate/);
    expect(() => requestLimiter({ burst: 1, perSecond: 1, concurrent: 0 })).toThrow(/at least 1/);
  });
});

describe('waiting out a slow down', () => {
  it('reads Retry-After in seconds, bounded, and asks again until answered or its patience is spent', async () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(1000); // long past
    expect(retryAfterMs('999999')).toBe(30_000);
    // A larger number never a shorter wait; an HTTP date (a proxy's) is the time to it.
    expect(retryAfterMs('1000000000')).toBe(30_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('0')).toBe(1000);
    expect(retryAfterMs('-5')).toBe(1000);
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    let n = 0;
    const answers = () => Promise.resolve(new Response('{}', { status: ++n < 3 ? 429 : 200, headers: { 'Retry-After': '2' } }));
    expect((await waitingOutSlowDowns(answers, { sleep })).status).toBe(200);
    expect(slept).toEqual([2000, 2000]);
    // Out of patience: the last refusal is the answer, saying how long it was tried (not the
    // server's "try again in 5 seconds", after two minutes of trying again).
    const always = () => Promise.resolve(new Response('{"ok":false}', { status: 429, headers: { 'Retry-After': '5' } }));
    slept.length = 0;
    const gaveUp = await waitingOutSlowDowns(always, { sleep, patienceMs: 12_000 });
    expect(slept).toEqual([5000, 5000]);
    expect(gaveUp.status).toBe(429);
    expect(gaveUp.headers.get('retry-after')).toBe('5');
    const said = (await gaveUp.json()) as { ok: boolean; error: { kind: string; message: string; said: unknown } };
    expect(said).toMatchObject({ ok: false, error: { kind: 'rate-limited', said: { code: 'team.stillBusy', values: { minutes: 1 } } } });
    expect(said.error.message).toMatch(/^The team server asked you to slow down each time it was asked again for 1 minute: the request was not made\./);
    // A first refusal whose wait alone passes the patience is the server's own.
    slept.length = 0;
    const first = await waitingOutSlowDowns(always, { sleep, patienceMs: 4_000 });
    expect(slept).toEqual([]);
    expect(await first.text()).toBe('{"ok":false}');
    // An abort ends the wait at once.
    const stop = new AbortController();
    const waiting = waitingOutSlowDowns(always, { signal: stop.signal });
    stop.abort(new DOMException('stopped', 'AbortError'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});

describe('over HTTP, on a team server', () => {
  const ctx = useSimulator();
  let team: Team;
  beforeAll(async () => {
    // A burst of 5: signing in reads the session once (GET api/session), which counts too.
    team = await startTeam({ sim: ctx.sim.url, server: { requestLimits: { burst: 5, perSecond: 1, concurrent: 4 } } });
  });
  afterAll(async () => {
    await team?.close();
  });

  it('refuses a person over their allowance with 429 and Retry-After, reading nothing; others and later requests go through', async () => {
    const vic = await team.session('viewer-1');
    const pia = await team.session('preparer-1');
    for (let i = 0; i < 4; i++) expect((await team.post(vic, 'wallets.list', undefined)).status).toBe(200);
    // Over: refused before the body is read (an input no operation takes would otherwise be a 200 refusal of the schema).
    const over = await team.post(vic, 'wallets.add', { not: 'read' });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('1');
    const body = JSON.parse(over.body) as { ok: boolean; error: { kind: string; retryable: boolean; message: string; said: { code: string } } };
    expect(body).toMatchObject({ ok: false, error: { kind: 'rate-limited', retryable: true, said: { code: 'team.slowDown' } } });
    expect(body.error.message).toMatch(/try again in 1 second\. Nothing was changed\./);
    // A token of the same person shares the allowance; another person has their own.
    const token = team.core.people.createToken('viewer-1', 'viewer', 'cron', team.clock.t).token;
    expect((await team.bearer(token, 'wallets.list', undefined)).status).toBe(429);
    expect((await team.post(pia, 'wallets.list', undefined)).status).toBe(200);
    // A second later (the server's clock), one more.
    team.clock.t += 1000;
    expect((await team.bearer(token, 'wallets.list', undefined)).status).toBe(200);
    expect((await team.post(vic, 'wallets.list', undefined)).status).toBe(429);
    // Every request of theirs counts, not the operations only: the copy of the books, their session.
    expect((await team.raw('/api/replica', { headers: { Cookie: vic.cookie } })).status).toBe(429);
    expect((await team.raw('/api/session', { headers: { Cookie: vic.cookie } })).status).toBe(429);
  });
});

describe('the CLI’s client against a team server whose clock runs', () => {
  const ctx = useSimulator();
  let team: Team;
  beforeAll(async () => {
    // The real clock: the client waits the real Retry-After, and the bucket refills meanwhile.
    team = await startTeam({ sim: ctx.sim.url, server: { now: Date.now, requestLimits: { burst: 2, perSecond: 4, concurrent: 4 } } });
  });
  afterAll(async () => {
    await team?.close();
  });

  it('waits each refusal out and answers every request', async () => {
    const token = team.core.people.createToken('viewer-1', 'viewer', 'cron', Date.now()).token;
    const refusals: number[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const res = await realFetch(...args);
      if (res.status === 429) refusals.push(429);
      return res;
    };
    try {
      const core = await remoteCore(team.origin(), token);
      try {
        const answers = await Promise.all(Array.from({ length: 6 }, () => core.dispatch('wallets.list', undefined)));
        expect(answers.map((a) => a.ok)).toEqual([true, true, true, true, true, true]);
      } finally {
        await core.close();
      }
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(refusals.length).toBeGreaterThan(0);
  });
});
