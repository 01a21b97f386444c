/**
 * Attacks on the team server's sign-in through the OpenID Connect provider (docs/team.md), with
 * the server as its own process (`folioscope server --oidc-issuer …`, the client's secret in its
 * environment only) and a real provider (oidc-provider) in this process. An account linked to
 * nobody, a disabled person, a link to another issuer, a tampered or missing state, a second
 * attempt cookie, a replayed callback and a replayed code, a nonce or a PKCE challenge changed on
 * the way, the provider's refusal, and login CSRF (someone else's code and state planted in a
 * browser): each refused with a page that says what to do, and no session. The client's secret
 * is in no page, answer, log line or file of the data folder.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { CLIENT_ID, CLIENT_SECRET, follow, hop, Jar, loginAtProvider, seen, startProvider, type TestProvider } from '../support/oidc.ts';
import { tempDir } from '../support/store.ts';

const PASSWORD = 'correct horse battery';
const dir = tempDir();
const at = ['--data-dir', dir];
let provider: TestProvider;
let server: ReturnType<typeof startCli>;
let origin = '';
let port = '';
const callbackPath = '/sign-in/oidc/callback';

beforeAll(async () => {
  provider = await startProvider();
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = runCliSync([...at, ...args], { env });
    expect(r.status, r.stderr).toBe(0);
  };
  run(['server', 'init', '--name', 'olive'], { FOLIOSCOPE_OWNER_PASSWORD: PASSWORD });
  run(['users', 'add', 'pia', '--role', 'preparer', '--oidc-subject', 'pia-sub', '--oidc-issuer', provider.issuer]);
  run(['users', 'add', 'dora', '--role', 'viewer', '--oidc-subject', 'dora-sub', '--oidc-issuer', provider.issuer]);
  run(['users', 'disable', 'dora']);
  // Linked to the same subject at another provider: not this one's account.
  run(['users', 'add', 'walt', '--role', 'viewer', '--oidc-subject', 'walt-sub', '--oidc-issuer', 'https://id.elsewhere.example']);
  server = startCli([...at, 'server', '--port', '0', '--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID, '--oidc-name', 'Team ID'], {
    FOLIOSCOPE_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  });
  origin = await firstLine(server.child, 'server');
  port = new URL(origin).port;
  provider.register(`${origin}${callbackPath}`);
}, 120_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.done;
  await provider?.close();
});

const attemptCookie = () => `folio_oidc_${port}`;
const sessionCookie = () => `folio_session_${port}`;

/** A browser that started a sign-in: its jar (holding the attempt's cookie) and the provider's authorization URL. */
async function started(): Promise<{ jar: Jar; authorize: string }> {
  const jar = new Jar();
  const start = await hop(jar, `${origin}/sign-in/oidc`);
  expect(start.status).toBe(303);
  return { jar, authorize: start.location! };
}

/** The answer to a callback, and whether the browser came away with a session. */
async function callback(jar: Jar, url: string) {
  const answer = await hop(jar, url);
  const session = await hop(jar, `${origin}/api/session`);
  return { answer, signedIn: session.status === 200, session };
}

function refused(r: Awaited<ReturnType<typeof callback>>, status: number, says: RegExp) {
  expect(r.answer.status, r.answer.body).toBe(status);
  expect(r.answer.body).toMatch(says);
  expect(r.answer.body).not.toMatch(/<script/i);
  expect(r.signedIn).toBe(false);
}

describe('team sign-in through the provider, attacked', () => {
  it('signs a linked person in (the baseline the refusals differ from)', async () => {
    const { jar, authorize } = await started();
    const r = await callback(jar, await loginAtProvider(jar, authorize, 'pia-sub'));
    expect(r.answer.status).toBe(200);
    expect(JSON.parse(r.session.body)).toMatchObject({ person: 'pia', role: 'preparer' });
  });

  it('refuses an account linked to nobody, never making a person, and says what an owner runs', async () => {
    const { jar, authorize } = await started();
    const r = await callback(jar, await loginAtProvider(jar, authorize, 'mallory-sub'));
    refused(r, 403, /not linked to anyone here\. Ask an owner to link it: folioscope users link-oidc NAME mallory-sub --oidc-issuer http:\/\/127\.0\.0\.1:\d+/);
    const list = runCliSync([...at, 'users', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((p) => p.name).sort()).toEqual(['dora', 'olive', 'pia', 'walt']);
  });

  it('refuses a disabled person', async () => {
    const { jar, authorize } = await started();
    refused(await callback(jar, await loginAtProvider(jar, authorize, 'dora-sub')), 403, /This account is disabled: ask an owner\./);
  });

  it("refuses a person linked at another issuer: this provider's subject of the same name is not theirs", async () => {
    const { jar, authorize } = await started();
    refused(await callback(jar, await loginAtProvider(jar, authorize, 'walt-sub')), 403, /not linked to anyone here/);
    // The operator was told at start.
    expect(server.out.stderr).toContain(
      `Linked to another issuer than ${provider.issuer}, so they cannot sign in through it: walt (https://id.elsewhere.example).`,
    );
  });

  it('refuses a tampered state, and the attempt is spent: the right state afterwards finds nothing', async () => {
    const { jar, authorize } = await started();
    const back = new URL(await loginAtProvider(jar, authorize, 'pia-sub'));
    const cookie = jar.get(origin, attemptCookie())!;
    const right = back.searchParams.get('state')!;
    back.searchParams.set('state', `${right.slice(0, -2)}xx`);
    refused(await callback(jar, back.href), 400, /could not be verified/);
    expect(server.out.stderr).toContain('unexpected "state" response parameter value');
    back.searchParams.set('state', right);
    jar.set(origin, attemptCookie(), cookie);
    refused(await callback(jar, back.href), 400, /was already used/);
    // And an answer without any state.
    const again = await started();
    const noState = new URL(await loginAtProvider(again.jar, again.authorize, 'pia-sub'));
    noState.searchParams.delete('state');
    refused(await callback(again.jar, noState.href), 400, /could not be verified/);
  });

  it("refuses an answer with no attempt cookie (a callback opened in another browser, or the cookie's time over)", async () => {
    const { jar, authorize } = await started();
    const back = await loginAtProvider(jar, authorize, 'pia-sub');
    jar.delete(origin, attemptCookie());
    refused(await callback(jar, back), 400, /not started in this browser/);
  });

  it('refuses two attempt cookies (one planted at a narrower path by a page on another port)', async () => {
    const victim = await started();
    const attacker = await started();
    const back = await loginAtProvider(attacker.jar, attacker.authorize, 'pia-sub');
    const answer = await fetch(back, {
      redirect: 'manual',
      headers: { Cookie: `${attemptCookie()}=${attacker.jar.get(origin, attemptCookie())}; ${attemptCookie()}=${victim.jar.get(origin, attemptCookie())}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.getSetCookie().join('\n')).not.toContain(sessionCookie());
  });

  it('refuses a replayed callback, and a replayed code under a fresh attempt (the provider redeems a code once)', async () => {
    const { jar, authorize } = await started();
    const back = await loginAtProvider(jar, authorize, 'pia-sub');
    const cookie = jar.get(origin, attemptCookie())!;
    expect((await hop(jar, back)).status).toBe(200);
    // The same answer again, the attempt's cookie put back: the attempt was taken once.
    const replay = new Jar();
    replay.set(origin, attemptCookie(), cookie);
    refused(await callback(replay, back), 400, /was already used/);
    // The code with a fresh attempt's state (as if the state were known): PKCE's verifier and the spent code both fail.
    const fresh = await started();
    const code = new URL(back).searchParams.get('code')!;
    const forged = new URL(`${origin}${callbackPath}`);
    forged.searchParams.set('code', code);
    forged.searchParams.set('state', new URL(fresh.authorize).searchParams.get('state')!);
    forged.searchParams.set('iss', provider.issuer);
    refused(await callback(fresh.jar, forged.href), 400, /could not be verified/);
  });

  it('refuses an ID token whose nonce is not the attempt’s (the nonce changed on the way to the provider)', async () => {
    const { jar, authorize } = await started();
    const changed = new URL(authorize);
    changed.searchParams.set('nonce', 'a-nonce-the-attacker-chose-0123456789abcdef');
    refused(await callback(jar, await loginAtProvider(jar, changed.href, 'pia-sub')), 400, /could not be verified/);
    expect(server.out.stderr).toMatch(/Sign-in through the provider refused: .*unexpected ID Token "nonce" claim value/);
  });

  it('refuses a code whose PKCE challenge was changed on the way (the verifier does not match)', async () => {
    const { jar, authorize } = await started();
    const changed = new URL(authorize);
    changed.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    refused(await callback(jar, await loginAtProvider(jar, changed.href, 'pia-sub')), 400, /could not be verified/);
  });

  it("says the provider's refusal (the person cancelled there) and signs nobody in", async () => {
    const { jar, authorize } = await started();
    const page = (await follow(jar, authorize, provider.issuer))[0]!;
    const abort = /<a href="([^"]+\/abort)">/.exec(page.body)?.[1];
    expect(abort, page.body.slice(0, 500)).toBeTruthy();
    const back = (await follow(jar, new URL(abort!.replace(/&amp;/g, '&'), provider.issuer).href, provider.issuer))[0]!.location!;
    expect(back.startsWith(`${origin}${callbackPath}?error=access_denied`)).toBe(true);
    refused(
      await callback(jar, back),
      403,
      /Team ID did not sign you in \(access_denied\): start again with &#34;Sign in with Team ID&#34;, or use your password\./,
    );
    // An `error` written into a link by anyone else (not this attempt's state) is not shown as the provider's word.
    const other = await started();
    const forged = `${origin}${callbackPath}?error=${encodeURIComponent('Call 555-0100 to restore your access')}&state=not-this-attempt`;
    const r = await callback(other.jar, forged);
    refused(r, 400, /could not be verified/);
    expect(r.answer.body).not.toContain('555-0100');
  });

  it("login CSRF: someone else's code and state, opened in a victim's browser, sign the victim in as nobody", async () => {
    // The attacker signs in at the provider as themselves and stops before the callback.
    const attacker = await started();
    const planted = await loginAtProvider(attacker.jar, attacker.authorize, 'pia-sub');
    // A victim with no sign-in under way …
    refused(await callback(new Jar(), planted), 400, /not started in this browser/);
    // … and one whose own sign-in is under way (their attempt's state is not the attacker's).
    const victim = await started();
    refused(await callback(victim.jar, planted), 400, /could not be verified/);
    // The victim's attempt is spent by it; the attacker's answer still names the attacker's attempt only.
    expect((await hop(victim.jar, `${origin}/api/session`)).status).toBe(401);
  });

  it("keeps the client's secret out of every page and answer, the server's output, and the data folder's files", () => {
    expect(seen.length).toBeGreaterThan(40);
    for (const answer of seen) expect(answer).not.toContain(CLIENT_SECRET);
    expect(server.out.stdout + server.out.stderr).not.toContain(CLIENT_SECRET);
    expect(server.out.stderr).toContain(`Sign-in with Team ID (${provider.issuer}): register ${origin}${callbackPath} as the client's redirect URI`);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.some((f) => f.name.endsWith('.sqlite') || f.name.endsWith('.db'))).toBe(true);
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name)).includes(Buffer.from(CLIENT_SECRET)), f.name).toBe(false);
  });
});
