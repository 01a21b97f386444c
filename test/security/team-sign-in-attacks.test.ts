/**
 * Attacks on the team server's sign-in (docs/team.md "Sign-in"), over real HTTP: the lock-out
 * raced by parallel guesses, dodged by spelling the name differently or by claiming other
 * addresses; names told apart by the answer; a disabled or demoted person keeping what they had.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_FAILURES, NAME_FAILURES } from '../../src/main/core/people/index.ts';
import { useSimulator } from '../support/sim.ts';
import { MIN, PASSWORD, startTeam, type Team } from '../support/team-http.ts';

const ctx = useSimulator();
let team: Team;
beforeAll(async () => {
  team = await startTeam({
    sim: ctx.sim.url,
    people: [
      ['racy', 'viewer'],
      ['casey', 'viewer'],
      ['xavier', 'viewer'],
      ['known', 'viewer'],
      ['demi', 'preparer'],
    ],
  });
});
afterAll(async () => {
  await team?.close();
});

describe('team sign-in: the lock-out', () => {
  it('is not raced by guesses sent all at once: no more passwords are checked than the lock allows', async () => {
    // Each check of a password takes scrypt's tenth of a second; a lock read before the check and
    // a failure written after it let every guess in flight through. 12 at once, 5 allowed.
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => team.signIn('racy', `wrong guess number ${i}`)));
    const checked = answers.filter((a) => a.status === 401).length;
    const locked = answers.filter((a) => a.status === 429).length;
    expect(checked).toBeLessThanOrEqual(NAME_FAILURES);
    expect(checked + locked).toBe(12);
    expect((await team.signIn('racy')).status).toBe(429);
    // The right password among guesses in flight is not lost: after the lock, it signs in.
    team.clock.t += 16 * MIN;
    expect((await team.signIn('racy')).status).toBe(303);
  });

  it('is not raced for an address either: names sprayed all at once are checked no more than its bound', async () => {
    const answers = await Promise.all(Array.from({ length: ADDRESS_FAILURES + 8 }, (_, i) => team.signIn(`sprayed-${i}`, 'a sprayed guess, wrong')));
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(ADDRESS_FAILURES);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(8);
    team.clock.t += 16 * MIN;
  });

  it('counts the name however it is spelt: upper case, spaces around it', async () => {
    const spellings = ['casey', 'CASEY', ' Casey', 'casey  ', '\tcAsEy\n'];
    for (const name of spellings) expect((await team.signIn(name, 'not the password, no')).status).toBe(401);
    for (const name of ['casey', 'CASEY', ' casey ']) expect((await team.signIn(name)).status).toBe(429);
    // A look-alike of another script is another name, and no person: it signs nobody in.
    expect((await team.signIn('cаsey')).status).toBe(401); // a Cyrillic а: unknown, not locked, not signed in
    team.clock.t += 16 * MIN;
    expect((await team.signIn('CASEY')).status).toBe(303);
  });

  it('believes no X-Forwarded-For when not behind a proxy: claimed addresses do not reset the count', async () => {
    for (let i = 0; i < NAME_FAILURES; i++)
      expect((await team.signIn('xavier', `wrong ${i} password`, { 'X-Forwarded-For': `203.0.113.${i}`, 'X-Real-IP': `198.51.100.${i}` })).status).toBe(401);
    expect((await team.signIn('xavier', PASSWORD, { 'X-Forwarded-For': '192.0.2.77' })).status).toBe(429);
    // The failures were all counted against the socket's address, 127.0.0.1.
    team.clock.t += 16 * MIN;
  });
});

describe('team sign-in: telling names apart', () => {
  it('answers an unknown name exactly as a known one with a wrong password (status, body, headers)', async () => {
    const strip = (s: string) => s.replace(/value="[^"]*"/, 'value=""');
    const known = await team.signIn('known', 'a wrong password 1');
    const unknown = await team.signIn('unknown-person', 'a wrong password 1');
    const tooLong = await team.signIn('u'.repeat(300), 'a wrong password 1');
    expect(unknown.status).toBe(known.status);
    expect(tooLong.status).toBe(known.status);
    expect(strip(unknown.body)).toBe(strip(known.body));
    expect(strip(tooLong.body)).toBe(strip(known.body));
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    // Locked alike: an unknown name is counted and locked as a known one is.
    for (const name of ['known', 'ghost-person']) for (let i = 0; i < NAME_FAILURES; i++) await team.signIn(name, `wrong password ${i}!!`);
    const lockedKnown = await team.signIn('known', 'one more wrong one');
    const lockedGhost = await team.signIn('ghost-person', 'one more wrong one');
    expect([lockedKnown.status, lockedGhost.status]).toEqual([429, 429]);
    expect(strip(lockedGhost.body)).toBe(strip(lockedKnown.body));
    team.clock.t += 16 * MIN;
    // Timing, measured and printed, never asserted (the machine is shared): both verify one scrypt hash.
    const time = async (name: string) => {
      const start = performance.now();
      await team.signIn(name, 'another wrong password');
      return performance.now() - start;
    };
    const k: number[] = [];
    const u: number[] = [];
    for (let i = 0; i < 3; i++) {
      k.push(await time('known'));
      u.push(await time(`nobody-${i}`));
    }
    const median = (a: number[]) => a.sort((x, y) => x - y)[1]!.toFixed(0);
    console.log(`sign-in timing (ms, median of 3): known name ${median(k)}, unknown name ${median(u)}`);
    team.clock.t += 16 * MIN;
  });
});

describe('team sign-in: what a person had when demoted or disabled', () => {
  it('a demoted person’s open session acts with the new role at the next request', async () => {
    const b = await team.session('demi');
    const save = () => team.post(b, 'counterparties.save', { address: '0x0000000000000000000000000000000000000002', name: 'demo entry' });
    expect((await save()).status).toBe(200);
    team.core.people.setRole('demi', 'viewer', team.clock.t);
    expect((await save()).status).toBe(403);
    expect(JSON.parse((await team.raw('/api/session', { headers: { Cookie: b.cookie } })).body)).toMatchObject({ role: 'viewer' });
  });
});
