/**
 * Sign-in through the team's OpenID Connect provider (docs/team.md), end to end over real HTTP:
 * a real provider (oidc-provider) on 127.0.0.1:0 with one confidential client, the team server
 * in this process with that provider discovered (openid-client), and a browser played by fetch
 * with a cookie jar: the sign-in page's "Sign in with …", the provider's login and consent, the
 * callback, and the app's session with the linked person's role. A person without a password
 * (linked only) is refused a password sign-in as any wrong one is.
 */
import Database from 'better-sqlite3-multiple-ciphers';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverProvider } from '../../src/main/team/oidc.ts';
import { useSimulator } from '../support/sim.ts';
import { CLIENT_ID, CLIENT_SECRET, hop, Jar, loginAtProvider, startProvider, type TestProvider } from '../support/oidc.ts';
import { PASSWORD, startTeam, type Team } from '../support/team-http.ts';

const ctx = useSimulator();
let provider: TestProvider;
let team: Team;
const logged: string[] = [];

beforeAll(async () => {
  provider = await startProvider();
  const oidc = await discoverProvider({ issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, name: 'Team ID' });
  team = await startTeam({ sim: ctx.sim.url, server: { oidc, log: (line) => logged.push(line) } });
  provider.register(`${team.origin()}/sign-in/oidc/callback`);
  // pia signs in only through the provider (no password); olive has both.
  await team.core.people.add('pia', 'preparer', null, team.clock.t, { issuer: provider.issuer, subject: 'pia-at-team-id' });
  team.core.people.linkOidc('olive', { issuer: provider.issuer, subject: 'olive-sub' }, team.clock.t);
});
afterAll(async () => {
  await team?.close();
  await provider?.close();
});

/** A browser's whole sign-in through the provider as `subject`: the sign-in page's link, the provider, the callback. */
async function signInThroughProvider(jar: Jar, subject: string) {
  const page = await hop(jar, `${team.origin()}/sign-in`);
  const link = /<a class="provider" href="([^"]+)">Sign in with Team ID<\/a>/.exec(page.body);
  expect(link, page.body).not.toBeNull();
  const start = await hop(jar, new URL(link![1]!, team.origin()).href);
  expect(start.status).toBe(303);
  const callback = await loginAtProvider(jar, start.location!, subject);
  return { start, callback, answer: await hop(jar, callback) };
}

describe('team server: sign-in through the OpenID Connect provider', () => {
  it('starts with PKCE (S256), state and nonce, the redirect URI its own, the attempt in a short-lived Lax cookie', async () => {
    const jar = new Jar();
    const start = await hop(jar, `${team.origin()}/sign-in/oidc`);
    expect(start.status).toBe(303);
    const url = new URL(start.location!);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(`${team.origin()}/sign-in/oidc/callback`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('openid');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The secret is never in the browser's way.
    expect(start.location).not.toContain(CLIENT_SECRET);
    const res = await fetch(`${team.origin()}/sign-in/oidc`, { redirect: 'manual' });
    expect(res.headers.getSetCookie()[0]).toMatch(
      new RegExp(`^folio_oidc_${team.server.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=/; Max-Age=600$`),
    );
  });

  it('signs the linked person in with their role, as a password would: the session cookie Strict, the app served', async () => {
    const jar = new Jar();
    const { callback, answer } = await signInThroughProvider(jar, 'pia-at-team-id');
    expect(callback.startsWith(`${team.origin()}/sign-in/oidc/callback?`)).toBe(true);
    expect(new URL(callback).searchParams.get('code')).toBeTruthy();
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toContain('Signed in as pia.');
    expect(answer.body).toContain('<meta http-equiv="refresh" content="0; url=/">');
    expect(answer.body).not.toMatch(/<script/i);
    const res = await fetch(callback, { headers: { Cookie: jar.header(team.origin()) }, redirect: 'manual' });
    expect(res.status).toBe(400); // taken once (see the attacks for more)
    const session = await hop(jar, `${team.origin()}/api/session`);
    expect(session.status).toBe(200);
    expect(JSON.parse(session.body)).toMatchObject({ person: 'pia', role: 'preparer' });
    // The attempt's cookie is gone, the session's is there (a Strict one, as a password's).
    expect(jar.get(team.origin(), `folio_oidc_${team.server.port}`)).toBeUndefined();
    expect(jar.get(team.origin(), `folio_session_${team.server.port}`)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const app = await hop(jar, `${team.origin()}/`);
    expect(app.status).toBe(200);
    expect(app.body).toContain('<div id="app"');
    // The session acts as pia in the trail, with her role at the gate: a preparer may save a group.
    const csrf = (JSON.parse(session.body) as { csrf: string }).csrf;
    const saved = await team.post({ cookie: jar.header(team.origin()), csrf }, 'groups.save', { name: 'Signed in via the provider', wallets: [] });
    expect(saved.status).toBe(200);
    expect(JSON.parse(saved.body)).toMatchObject({ ok: true });
    expect(team.core.people.get('pia')).toMatchObject({ password: false, oidc: { issuer: provider.issuer, subject: 'pia-at-team-id' } });
    // Recorded as a good sign-in of pia's, from this address, as a password's is.
    const file = readdirSync(team.dataDir).find((f) => f.endsWith('.sqlite'))!;
    const db = new Database(join(team.dataDir, file), { readonly: true });
    try {
      expect(db.prepare(`SELECT name, address, ok FROM people_sign_in_attempts WHERE name = 'pia'`).all()).toEqual([
        { name: 'pia', address: '127.0.0.1', ok: 1 },
      ]);
    } finally {
      db.close();
    }
  });

  it('an owner linked beside their password signs in either way', async () => {
    const jar = new Jar();
    const { answer } = await signInThroughProvider(jar, 'olive-sub');
    expect(answer.status).toBe(200);
    expect(JSON.parse((await hop(jar, `${team.origin()}/api/session`)).body)).toMatchObject({ person: 'olive', role: 'owner' });
    expect((await team.signIn('olive')).status).toBe(303);
  });

  it('shows the provider beside the password form on the sign-in page, with no script and its CSP', async () => {
    const page = await team.raw('/sign-in');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a class="provider" href="/sign-in/oidc">Sign in with Team ID</a>');
    expect(page.body).toContain('<form method="post" action="/sign-in">');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; .*form-action 'self'/);
  });

  it('lets an attempt lapse after ten minutes on the server’s clock: the provider’s late answer signs nobody in', async () => {
    const jar = new Jar();
    const start = await hop(jar, `${team.origin()}/sign-in/oidc`);
    const back = await loginAtProvider(jar, start.location!, 'pia-at-team-id');
    team.clock.t += 10 * 60_000;
    const late = await hop(jar, back);
    expect(late.status).toBe(400);
    expect(late.body).toContain('took too long');
    expect((await hop(jar, `${team.origin()}/api/session`)).status).toBe(401);
    expect(logged.at(-1)).toBe('Sign-in through the provider refused: an attempt unknown, used or expired.');
  });

  it('refuses a password sign-in for a person who has none, as a wrong password (same answer)', async () => {
    for (const guess of ['', '!', PASSWORD, 'scrypt$32768$8$1$AAAA$AAAA']) {
      const res = await team.signIn('pia', guess || 'x');
      expect(res.status).toBe(401);
      expect(res.body).toContain('That name and password do not match.');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    team.clock.t += 16 * 60_000;
  });
});
