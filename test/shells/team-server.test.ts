/**
 * The team server (src/main/team, docs/team.md) in this process over real HTTP: sign-in and its
 * lock-out, sessions' limits, CSRF, API tokens, where it may listen, the key kept from every
 * answer, and the walk of every operation × every role. The server's clock is the test's
 * (`now`), so limits pass without sleeping.
 */
import Database from 'better-sqlite3-multiple-ciphers';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { MAX_SESSIONS_PER_PERSON, MAX_TOKENS_PER_PERSON } from '../../src/main/core/index.ts';
import { startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { bindProblem } from '../../src/main/team/security.ts';
import { CONTRACT } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { ROLES, roleAllows, type Role } from '../../src/shared/roles.ts';
import type { Keychain } from '../../src/main/core/secrets/index.ts';
import { KEY, SIM_NOW, useSimulator } from '../support/sim.ts';
import { readCacheIn } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
const MIN = 60_000;
const ctx = useSimulator();
let core: Core;
const dataDir = tempDir();
let server: TeamServer;
let t = SIM_NOW;
const noKeychain: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  core = await createCore({
    dataDir,
    shell: 'web',
    baseUrl: ctx.sim.url,
    env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: ctx.sim.url },
    keychain: noKeychain,
    cacheKeychain: noKeychain,
    scheduleEveryMs: 0,
    now: () => SIM_NOW,
  });
  await core.people.add('olive', 'owner', PASSWORD, t);
  for (const role of ROLES) await core.people.add(`${role}-1`, role, PASSWORD, t);
  server = await startTeamServer({ core, rendererDir: RENDERER, now: () => t, streamCheckMs: 60_000 });
});
afterAll(async () => {
  await server?.close();
  await core?.close();
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}
function raw(path: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: o.method ?? 'GET', headers: { Host: `127.0.0.1:${server.port}`, ...o.headers } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
const origin = () => `http://127.0.0.1:${server.port}`;
const cookieName = () => `folio_session_${server.port}`;

function signIn(name: string, password = PASSWORD): Promise<Answer> {
  return raw('/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin() },
    body: new URLSearchParams({ name, password }).toString(),
  });
}

interface Browser {
  cookie: string;
  csrf: string;
}
async function session(name: string): Promise<Browser> {
  const res = await signIn(name);
  expect(res.status).toBe(303);
  const set = String(res.headers['set-cookie']);
  const cookie = /^([^;]+)/.exec(set)![1]!;
  const s = await raw('/api/session', { headers: { Cookie: cookie } });
  expect(s.status).toBe(200);
  return { cookie, csrf: (JSON.parse(s.body) as { csrf: string }).csrf };
}
const post = (b: Browser, op: string, input: unknown, headers: Record<string, string> = {}) =>
  raw(`/api/${op}`, {
    method: 'POST',
    body: input === undefined ? '' : JSON.stringify(input),
    headers: { 'Content-Type': 'application/json', Origin: origin(), Cookie: b.cookie, 'X-Folio-CSRF': b.csrf, ...headers },
  });

describe('team server: sign-in', () => {
  it('serves a sign-in page with no script and a strict CSP, and sends a stranger there', async () => {
    const page = await raw('/sign-in');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<form method="post" action="/sign-in">');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['content-security-policy']).not.toMatch(/script-src/);
    expect((await raw('/sign-in.css')).status).toBe(200);
    // An idle connection is kept 30 s, not Node's 5 s: a server busy for seconds must not reset a
    // request a client has just sent on one (team/server.ts KEEP_ALIVE_MS).
    expect(page.headers['keep-alive']).toBe('timeout=30');
    const app = await raw('/');
    expect(app.status).toBe(303);
    expect(app.headers.location).toBe('/sign-in');
    expect((await raw('/api/session')).status).toBe(401);
    expect((await raw('/api/app.info', { method: 'POST', headers: { Origin: origin() } })).status).toBe(401);
  });

  it('signs in with the right password: an HttpOnly SameSite=Strict cookie (not Secure on loopback HTTP), then the app', async () => {
    const res = await signIn('viewer-1');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${cookieName()}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`));
    const app = await raw('/', { headers: { Cookie: cookie.split(';')[0]! } });
    expect(app.status).toBe(200);
    expect(app.body).toContain('<div id="app"');
  });

  it('refuses a wrong password and an unknown name alike, and a sign-in posted from another origin', async () => {
    const wrong = await signIn('viewer-1', 'not the password at all');
    const nobody = await signIn('nobody-here', 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(nobody.status).toBe(401);
    expect(wrong.body).toContain('That name and password do not match.');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const forged = await raw('/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
      body: new URLSearchParams({ name: 'viewer-1', password: PASSWORD }).toString(),
    });
    expect(forged.status).toBe(403);
  });

  it('locks a name out after 5 failures for 15 minutes, even for the right password, and lets it in after', async () => {
    await core.people.add('locky', 'viewer', PASSWORD, t);
    for (let i = 0; i < 5; i++) expect((await signIn('locky', `wrong password ${i}!`)).status).toBe(401);
    const locked = await signIn('locky');
    expect(locked.status).toBe(429);
    expect(locked.body).toContain('Too many failed sign-ins: try again in 15 minutes.');
    t += 14 * MIN;
    expect((await signIn('locky')).status).toBe(429);
    t += 1 * MIN + 1;
    expect((await signIn('locky')).status).toBe(303);
    // A good sign-in starts the count again.
    for (let i = 0; i < 4; i++) expect((await signIn('locky', `wrong password ${i}!`)).status).toBe(401);
    expect((await signIn('locky')).status).toBe(303);
  });

  it('a disabled person cannot sign in, and their sessions end at once', async () => {
    await core.people.add('dana', 'preparer', PASSWORD, t);
    const b = await session('dana');
    expect((await post(b, 'app.info', undefined)).status).toBe(200);
    core.people.disable('dana', t);
    expect((await post(b, 'app.info', undefined)).status).toBe(401);
    expect((await raw('/api/session', { headers: { Cookie: b.cookie } })).status).toBe(401);
    const again = await signIn('dana');
    expect(again.status).toBe(403);
    expect(again.body).toContain('disabled');
  });
});

describe('team server: sessions', () => {
  it('keeps a person’s 50 most recently used sessions: a sign-in past them ends the least used one', async () => {
    await core.people.add('sam', 'viewer', PASSWORD, t);
    const cookies: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_PERSON; i++) {
      t += 1;
      cookies.push((await session('sam')).cookie);
    }
    // The first is used again, so the second is now the least recently used.
    t += MIN;
    expect((await raw('/api/session', { headers: { Cookie: cookies[0]! } })).status).toBe(200);
    t += 1;
    const newest = (await session('sam')).cookie;
    expect((await raw('/api/session', { headers: { Cookie: cookies[1]! } })).status).toBe(401);
    for (const c of [cookies[0]!, cookies[2]!, cookies.at(-1)!, newest]) expect((await raw('/api/session', { headers: { Cookie: c } })).status).toBe(200);
    expect(readCacheIn(dataDir, (file) => file.prepare("SELECT count(*) AS n FROM people_sessions WHERE person = 'sam'").get())).toEqual({
      n: MAX_SESSIONS_PER_PERSON,
    });
  });

  it('refuses a person’s API token past 100, by the CLI’s face and a desktop’s sign-in, until one is revoked', async () => {
    await core.people.add('tia', 'viewer', PASSWORD, t);
    const ids = Array.from({ length: MAX_TOKENS_PER_PERSON }, (_, i) => core.people.createToken('tia', 'viewer', `cron ${i}`, t).id);
    expect(() => core.people.createToken('tia', 'viewer', 'one more', t)).toThrow(/tia has 100 API tokens, the most a person may have: revoke one/);
    const desktop = await raw('/api/device-token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'tia', password: PASSWORD, device: 'laptop' }),
    });
    expect(desktop.status).toBe(409);
    expect(JSON.parse(desktop.body)).toMatchObject({ ok: false, error: { said: { code: 'team.tooManyTokens', values: { max: 100 } } } });
    expect(core.people.tokens('tia')).toHaveLength(MAX_TOKENS_PER_PERSON);
    core.people.revokeToken('tia', ids[0]!, t);
    expect(core.people.createToken('tia', 'viewer', 'one more', t).token).toMatch(/^fst_/);
  });

  it('ends a session idle for 30 minutes', async () => {
    const b = await session('viewer-1');
    t += 29 * MIN;
    expect((await post(b, 'app.info', undefined)).status).toBe(200);
    t += 29 * MIN; // seen 29 minutes ago: still alive
    expect((await post(b, 'app.info', undefined)).status).toBe(200);
    t += 30 * MIN;
    expect((await post(b, 'app.info', undefined)).status).toBe(401);
  });

  it("writes a session's and a token's last use at most once a minute, so reading does not change the cache (kept views stay kept)", async () => {
    const b = await session('viewer-1');
    const token = core.people.createToken('viewer-1', 'viewer', 'reads', t);
    const bearer = () => raw('/api/app.info', { method: 'POST', headers: { Authorization: `Bearer ${token.token}` } });
    expect((await bearer()).status).toBe(200);
    // Another connection to the cache file sees every commit of the core's (what the kept views read).
    const file = readdirSync(dataDir).find((f) => f.endsWith('.sqlite'))!;
    const watcher = new Database(join(dataDir, file), { readonly: true });
    const version = () => watcher.pragma('data_version', { simple: true }) as number;
    try {
      const before = version();
      for (let i = 0; i < 3; i++) {
        t += 10_000;
        expect((await post(b, 'app.info', undefined)).status).toBe(200);
        expect((await bearer()).status).toBe(200);
      }
      expect(version()).toBe(before);
      t += 60_000;
      expect((await bearer()).status).toBe(200);
      expect(version()).not.toBe(before);
      expect(core.people.tokens('viewer-1').find((x) => x.id === token.id)!.lastUsedAt).toBe(new Date(t).toISOString());
    } finally {
      watcher.close();
    }
  });

  it('ends a busy session 12 hours after sign-in', async () => {
    const b = await session('viewer-1');
    const start = t;
    // Busy: a request every 25 minutes, never idle for 30.
    while (t + 25 * MIN < start + 12 * 60 * MIN) {
      t += 25 * MIN;
      expect((await post(b, 'app.info', undefined)).status).toBe(200);
    }
    expect(start + 12 * 60 * MIN - t).toBeLessThan(25 * MIN);
    t = start + 12 * 60 * MIN;
    expect((await post(b, 'app.info', undefined)).status).toBe(401);
  });

  it('signs out one session, and everywhere', async () => {
    const a = await session('viewer-1');
    const b = await session('viewer-1');
    const other = await session('auditor-1');
    const out = await post(a, 'sign-out', undefined);
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await post(a, 'app.info', undefined)).status).toBe(401);
    expect((await post(b, 'app.info', undefined)).status).toBe(200);
    const c = await session('viewer-1');
    expect((await post(c, 'sign-out-everywhere', undefined)).status).toBe(200);
    expect((await post(b, 'app.info', undefined)).status).toBe(401);
    expect((await post(other, 'app.info', undefined)).status).toBe(200);
  });
});

describe('team server: everyone sees an edit', () => {
  it("streams one person's edit to another person's open screen (their event stream), not only the editor's", async () => {
    const viewer = await session('viewer-1');
    const preparer = await session('preparer-1');
    const heard = new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: '/api/events', headers: { Host: `127.0.0.1:${server.port}`, Cookie: viewer.cookie } },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += String(c);
            if (text.includes('"scope":"counterparties"')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    // The stream is open once the server has said so: the edit is made after that.
    await new Promise<void>((resolve) => {
      const wait = () => (server.eventStreams() > 0 ? resolve() : setImmediate(wait));
      wait();
    });
    const saved = await post(preparer, 'counterparties.save', { address: '0x' + '7'.repeat(40), name: 'Grantee Y' });
    expect(saved.status).toBe(200);
    expect(await heard).toMatch(/event: data\.changed\ndata: \{"scope":"counterparties"/);
  });
});

describe('team server: CSRF', () => {
  it('refuses a POST without the CSRF header, with a wrong one, without an Origin or from another origin', async () => {
    const b = await session('owner-1');
    expect((await post(b, 'app.info', undefined)).status).toBe(200);
    expect((await post(b, 'app.info', undefined, { 'X-Folio-CSRF': '' })).status).toBe(403);
    expect((await post(b, 'app.info', undefined, { 'X-Folio-CSRF': b.csrf.slice(0, -2) + 'xx' })).status).toBe(403);
    expect((await post(b, 'app.info', undefined, { Origin: 'https://evil.example' })).status).toBe(403);
    const noHeader = await raw('/api/app.info', { method: 'POST', headers: { Origin: origin(), Cookie: b.cookie } });
    expect(noHeader.status).toBe(403);
    expect(JSON.parse(noHeader.body)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    const noOrigin = await raw('/api/app.info', { method: 'POST', headers: { Cookie: b.cookie, 'X-Folio-CSRF': b.csrf } });
    expect(noOrigin.status).toBe(403);
    // A sign-out is a POST like any other.
    expect((await raw('/api/sign-out', { method: 'POST', headers: { Origin: origin(), Cookie: b.cookie } })).status).toBe(403);
    expect((await post(b, 'app.info', undefined)).status).toBe(200);
  });
});

describe('team server: API tokens', () => {
  it('a token acts with its role, never above its owner, capped by the owner’s role when used, and dies with the owner', async () => {
    await core.people.add('pat', 'preparer', PASSWORD, t);
    expect(() => core.people.createToken('pat', 'owner', 'cron', t)).toThrow(/no higher than its owner/);
    expect(() => core.people.createToken('pat', 'approver', 'cron', t)).toThrow(/no higher than its owner/);
    const { token } = core.people.createToken('pat', 'viewer', 'cron', t);
    const bearer = (op: string, input: unknown) =>
      raw(`/api/${op}`, { method: 'POST', body: JSON.stringify(input), headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });
    // No cookie, no Origin, no CSRF header: a script's request.
    expect((await bearer('wallets.list', {})).status).toBe(200);
    const who = await raw('/api/session', { headers: { Authorization: `Bearer ${token}` } });
    expect(JSON.parse(who.body)).toEqual({ person: 'pat', role: 'viewer', csrf: null });
    // Pat may keep the books; the token, a viewer's, may not.
    const refused = await bearer('counterparties.save', { address: '0x0000000000000000000000000000000000000001', name: 'x' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    // A preparer's token, its owner made a viewer: a viewer's now.
    const { token: prep } = core.people.createToken('pat', 'preparer', 'books', t);
    core.people.setRole('pat', 'viewer', t);
    const capped = await raw('/api/session', { headers: { Authorization: `Bearer ${prep}` } });
    expect(JSON.parse(capped.body)).toMatchObject({ role: 'viewer' });
    core.people.disable('pat', t);
    expect((await bearer('wallets.list', {})).status).toBe(401);
    expect((await raw('/api/wallets.list', { method: 'POST', headers: { Authorization: 'Bearer fst_nonsense' } })).status).toBe(401);
  });
});

describe('team server: where it listens', () => {
  it('refuses a network address without TLS or a named proxy', async () => {
    expect(bindProblem({ host: '0.0.0.0', tls: false, behindProxy: undefined })).toMatch(/Refusing to serve 0\.0\.0\.0 over plain HTTP/);
    expect(bindProblem({ host: '0.0.0.0', tls: true, behindProxy: undefined })).toBeNull();
    expect(bindProblem({ host: '0.0.0.0', tls: false, behindProxy: '10.0.0.5' })).toBeNull();
    expect(bindProblem({ host: '0.0.0.0', tls: false, behindProxy: 'proxy.local' })).toMatch(/IP address/);
    expect(bindProblem({ host: '127.0.0.1', tls: false, behindProxy: undefined })).toBeNull();
    await expect(startTeamServer({ core, rendererDir: RENDERER, host: '0.0.0.0' })).rejects.toThrow(/over plain HTTP/);
  });

  it('answers a page that names another host (DNS rebinding) with 421', async () => {
    expect((await raw('/sign-in', { headers: { Host: `evil.example:${server.port}` } })).status).toBe(421);
  });
});

describe('team server: the service key', () => {
  it('is in no page, no API answer and no sign-in page', async () => {
    const b = await session('owner-1');
    const answers: string[] = [];
    for (const path of ['/', '/sign-in', '/sign-in.css', '/api/session']) answers.push((await raw(path, { headers: { Cookie: b.cookie } })).body);
    for (const op of ['app.info', 'key.status', 'settings.get', 'service.check', 'wallets.list'] as const)
      if (Object.hasOwn(CONTRACT, op)) answers.push((await post(b, op, op === 'wallets.list' ? {} : undefined)).body);
    expect(answers.join('\n')).not.toContain(KEY);
    expect(JSON.parse(answers[4]!)).toMatchObject({ ok: true });
  });
});

describe('team server: every operation × every role over HTTP', () => {
  it('refuses with 403 forbidden exactly what a role lacks, and never refuses what it has', async () => {
    const browsers = {} as Record<Role, Browser>;
    for (const role of ROLES) browsers[role] = await session(`${role}-1`);
    const wrong: string[] = [];
    const bodies: string[] = [];
    for (const op of OPERATION_NAMES) {
      const needs = CONTRACT[op].needs;
      for (const role of ROLES) {
        // An input no operation takes: an allowed role is refused by the schema (200 with its
        // envelope), so nothing is changed by the walk; a role without the permission never gets that far.
        const res = await post(browsers[role], op, 'walk');
        bodies.push(res.body);
        const allowed = roleAllows(role, needs);
        const kind = (JSON.parse(res.body) as { error?: { kind?: string } }).error?.kind;
        if (!allowed && (res.status !== 403 || kind !== 'forbidden')) wrong.push(`${op} as ${role}: ${res.status} ${kind} (needs ${needs})`);
        if (allowed && (res.status === 403 || kind === 'forbidden')) wrong.push(`${op} as ${role}: refused (needs ${needs})`);
      }
    }
    expect(wrong).toEqual([]);
    expect(bodies.join('\n')).not.toContain(KEY);
  });
});
