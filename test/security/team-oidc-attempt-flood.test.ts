/**
 * The provider sign-ins under way are kept in the server's memory, bounded (`oidcAttempts`). A
 * client that starts them by the thousand (anyone can GET /sign-in/oidc) must not push out a
 * colleague's attempt while they are at the provider's page: when full, the one dropped is the
 * oldest of the address holding the most.
 */
import { describe, expect, it } from 'vitest';
import { oidcAttempts, type OidcAttempt } from '../../src/main/team/oidc.ts';

const T = Date.UTC(2026, 10, 29, 9, 0);
const attempt = (state: string): OidcAttempt => ({ state, nonce: 'n', verifier: 'v', redirectUri: 'https://books.example.org/cb', startedAt: T });

describe('provider sign-ins under way', () => {
  it('a flood from one address pushes out its own attempts, never another address’s', () => {
    const attempts = oidcAttempts(8);
    const alice = attempts.put(attempt('alice'), T, '192.0.2.10');
    const bob = attempts.put(attempt('bob'), T, '2001:db8:1:2::/64');
    const flood = Array.from({ length: 500 }, (_, i) => attempts.put(attempt(`x${i}`), T, '198.51.100.7'));
    expect(attempts.size()).toBe(8);
    expect(attempts.take(alice, T)?.state).toBe('alice');
    expect(attempts.take(bob, T)?.state).toBe('bob');
    // The flood kept only its newest, and each is taken once.
    expect(attempts.take(flood[0]!, T)).toBeNull();
    expect(attempts.take(flood.at(-1)!, T)?.state).toBe('x499');
    expect(attempts.take(flood.at(-1)!, T)).toBeNull();
  });

  it('when every address holds one, the oldest goes', () => {
    const attempts = oidcAttempts(2);
    const first = attempts.put(attempt('a'), T, 'a');
    const second = attempts.put(attempt('b'), T, 'b');
    attempts.put(attempt('c'), T, 'c');
    expect(attempts.take(first, T)).toBeNull();
    expect(attempts.take(second, T)?.state).toBe('b');
  });
});
