/**
 * Attacks on the team server's requests (docs/team.md "Security model"), each written as an
 * attacker writes it (raw sockets where a client would correct it): forged POSTs (CSRF), planted
 * and swapped credentials, Host and request-target tricks, paths out of the renderer's folder,
 * bodies without end, and forwarded headers from a peer that is not the proxy.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { useSimulator } from '../support/sim.ts';
import { type Answer, MIN, PASSWORD, startTeam, type Team } from '../support/team-http.ts';

const ctx = useSimulator();
let team: Team;
beforeAll(async () => {
  team = await startTeam({ sim: ctx.sim.url });
});
afterAll(async () => {
  await team?.close();
});

/** A request exactly as written, over a socket: what the server answered (status line and all). */
function socketRequest(port: number, text: string, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, host);
    let got = '';
    s.on('data', (d) => (got += String(d)));
    s.on('end', () => resolve(got));
    s.on('error', reject);
    s.write(text);
  });
}
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);

describe('team requests: forged POSTs (CSRF)', () => {
  it('refuses a page’s POST with Origin null, a sibling origin, a form’s or text body, or another session’s token', async () => {
    const b = await team.session('owner-1');
    const other = await team.session('viewer-1');
    expect((await team.post(b, 'app.info', undefined)).status).toBe(200);
    for (const origin of [
      'null',
      `http://localhost:${team.server.port}`,
      `http://127.0.0.1:${team.server.port + 1}`,
      `https://127.0.0.1:${team.server.port}`,
      '',
    ])
      expect((await team.post(b, 'settings.get', undefined, { Origin: origin })).status, origin).toBe(403);
    // What a cross-site form can send: no custom header.
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x'])
      expect(
        (
          await team.raw('/api/settings.update', {
            method: 'POST',
            body: '{"theme":"dark"}',
            headers: { 'Content-Type': type, Origin: team.origin(), Cookie: b.cookie },
          })
        ).status,
      ).toBe(403);
    // Another person's session's token, with this session's cookie.
    expect((await team.post(b, 'app.info', undefined, { 'X-Folio-CSRF': other.csrf })).status).toBe(403);
    // A method override is no POST: GET answers only session, events and downloads.
    expect((await team.raw('/api/settings.update', { headers: { Cookie: b.cookie, 'X-HTTP-Method-Override': 'POST', 'X-Folio-CSRF': b.csrf } })).status).toBe(
      405,
    );
    expect((await team.raw('/api/settings.update?_method=POST', { headers: { Cookie: b.cookie } })).status).toBe(405);
    for (const method of ['PUT', 'DELETE', 'PATCH'])
      expect((await team.raw('/api/settings.update', { method, headers: { Cookie: b.cookie, Origin: team.origin(), 'X-Folio-CSRF': b.csrf } })).status).toBe(
        405,
      );
  });

  it('refuses a sign-in posted with Origin null, without an Origin, or from a sibling (login CSRF)', async () => {
    for (const headers of [{ Origin: 'null' }, { Origin: `http://localhost:${team.server.port}` }])
      expect((await team.signIn('viewer-1', PASSWORD, headers)).status).toBe(403);
    const bare = await team.raw('/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'viewer-1', password: PASSWORD }).toString(),
    });
    expect(bare.status).toBe(403);
    expect(bare.headers['set-cookie']).toBeUndefined();
  });
});

describe('team requests: credentials planted, swapped or leaked', () => {
  it('a session id set before sign-in is never taken on: sign-in always makes a new one', async () => {
    const name = `folio_session_${team.server.port}`;
    const planted = `${name}=${'A'.repeat(43)}`;
    expect((await team.raw('/', { headers: { Cookie: planted } })).status).toBe(303);
    const signed = await team.signIn('viewer-1', PASSWORD, { Cookie: planted });
    const fresh = /^([^;]+)/.exec(String(signed.headers['set-cookie']))![1]!;
    expect(fresh).not.toBe(planted);
    expect((await team.raw('/api/session', { headers: { Cookie: planted } })).status).toBe(401);
    // An attacker's own valid session planted in the victim's browser is replaced at sign-in too.
    const attackers = await team.session('auditor-1');
    const victim = await team.signIn('approver-1', PASSWORD, { Cookie: attackers.cookie });
    const victims = /^([^;]+)/.exec(String(victim.headers['set-cookie']))![1]!;
    expect(victims).not.toBe(attackers.cookie);
    expect(JSON.parse((await team.raw('/api/session', { headers: { Cookie: victims } })).body)).toMatchObject({ person: 'approver-1' });
  });

  it("a session planted beside the victim's (another port's page, a narrower Path, sent first) is nobody's: never the attacker's", async () => {
    const attackers = await team.session('auditor-1');
    const victims = await team.session('approver-1');
    // A browser sends the cookie of the longer Path first: the planted one, then the victim's.
    const both = `${attackers.cookie}; ${victims.cookie}`;
    expect((await team.raw('/api/session', { headers: { Cookie: both } })).status).toBe(401);
    expect((await team.raw('/api/session', { headers: { Cookie: `${victims.cookie}; ${attackers.cookie}` } })).status).toBe(401);
    // The same session twice is still its own.
    expect(JSON.parse((await team.raw('/api/session', { headers: { Cookie: `${victims.cookie}; ${victims.cookie}` } })).body)).toMatchObject({
      person: 'approver-1',
    });
  });

  it('a token is no cookie and a session id no token; a bad token is not helped by a good cookie', async () => {
    const { token } = team.core.people.createToken('owner-1', 'viewer', 'x', team.clock.t);
    const b = await team.session('owner-1');
    const id = b.cookie.split('=')[1]!;
    expect((await team.raw('/api/session', { headers: { Cookie: `folio_session_${team.server.port}=${token}` } })).status).toBe(401);
    expect((await team.raw('/api/session', { headers: { Authorization: `Bearer ${id}` } })).status).toBe(401);
    expect((await team.raw('/api/session', { headers: { Authorization: `Bearer fst_${id}` } })).status).toBe(401);
    expect((await team.raw('/api/session', { headers: { Authorization: 'Bearer fst_nope', Cookie: b.cookie } })).status).toBe(401);
    expect((await team.raw('/api/session', { headers: { Authorization: `Basic ${Buffer.from(`owner-1:${PASSWORD}`).toString('base64')}` } })).status).toBe(401);
  });

  it('the session id is in no answer, header or redirect but its own Set-Cookie; the CSRF token only in api/session', async () => {
    const signed = await team.signIn('preparer-1');
    expect(signed.headers.location).toBe('/');
    const cookie = /^([^;]+)/.exec(String(signed.headers['set-cookie']))![1]!;
    const id = cookie.split('=')[1]!;
    const answers: Answer[] = [];
    for (const path of ['/', '/sign-in', '/index.html', '/api/session']) answers.push(await team.raw(path, { headers: { Cookie: cookie } }));
    const csrf = (JSON.parse(answers[3]!.body) as { csrf: string }).csrf;
    const b = { cookie, csrf };
    for (const op of ['app.info', 'settings.get', 'audit.list', 'sync.jobs']) answers.push(await team.post(b, op, op === 'audit.list' ? {} : undefined));
    const all = answers.map((a) => a.body + JSON.stringify(a.headers)).join('\n');
    expect(all).not.toContain(id);
    expect(
      answers
        .slice(4)
        .map((a) => a.body + JSON.stringify(a.headers))
        .join('\n'),
    ).not.toContain(csrf);
    for (const a of answers) expect(a.headers['referrer-policy']).toBe('same-origin');
    expect(answers[3]!.headers['cache-control']).toBe('no-store');
  });

  it('a session whose clock went back before its start ends', async () => {
    const b = await team.session('viewer-1');
    team.clock.t -= MIN;
    expect((await team.post(b, 'app.info', undefined)).status).toBe(401);
    team.clock.t += MIN;
  });
});

describe('team requests: what the pages’ side may reach', () => {
  it('no operation reaches the people, sessions or sign-in: the people face is not in the contract', async () => {
    expect(OPERATION_NAMES.filter((op) => /^(people|users|session|sign|token)/i.test(op))).toEqual([]);
    const b = await team.session('owner-1');
    for (const op of ['people.add', 'users.add', 'people.signIn', '__proto__', 'constructor', 'hasOwnProperty', 'sign-in']) {
      const res = await team.post(b, op, { name: 'mallory', role: 'owner', password: PASSWORD });
      expect(JSON.parse(res.body), op).toMatchObject({ ok: false, error: { kind: 'validation' } });
    }
    expect(team.core.people.get('mallory')).toBeNull();
  });

  it('shell.openExternal opens nothing on the server', async () => {
    const b = await team.session('viewer-1');
    const res = await team.post(b, 'shell.openExternal', { url: 'https://etherscan.io/tx/0x00' });
    expect(JSON.parse(res.body)).toEqual({ ok: true, result: false });
  });
});

describe('team requests: hosts, targets, paths and bodies', () => {
  it('on loopback: a Host of another name, none, or one with userinfo is refused (DNS rebinding)', async () => {
    const port = team.server.port;
    for (const host of [`evil.example:${port}`, `127.0.0.1:${port}.evil.example`, `127.0.0.1:${port}@evil.example`, `localhost.:${port}`, '127.0.0.1'])
      expect(statusOf(await socketRequest(port, `GET /sign-in HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)), host).toBe(421);
    expect(statusOf(await socketRequest(port, `GET /sign-in HTTP/1.0\r\n\r\n`))).toBe(421);
    expect(statusOf(await socketRequest(port, `GET /sign-in HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`))).toBe(200);
  });

  it('an absolute-form request target is refused, whatever host it names', async () => {
    const port = team.server.port;
    for (const target of [`http://127.0.0.1:${port}/api/session`, 'http://evil.example/sign-in', '*'])
      expect(statusOf(await socketRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)), target).toBe(400);
  });

  it('no path reaches a file outside the built renderer, signed in or not', async () => {
    const b = await team.session('owner-1');
    const port = team.server.port;
    const targets = [
      '/../../../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/assets/..%2f..%2f..%2f..%2fpackage.json',
      '/assets/%2e%2e%5c%2e%2e%5cpackage.json',
      '//etc/passwd',
      '/%00',
      '/index.html%00.js',
      '/../package.json',
    ];
    for (const target of targets)
      for (const cookie of ['', `Cookie: ${b.cookie}\r\n`]) {
        const answer = await socketRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${cookie}Connection: close\r\n\r\n`);
        expect(answer, target).not.toMatch(/root:x:0:0|"devDependencies"/);
        expect([200, 303, 400, 404], target).toContain(statusOf(answer));
      }
  });

  it('bodies past a megabyte are refused, with a length or without one', async () => {
    const b = await team.session('owner-1');
    const big = 'x'.repeat(1024 * 1024 + 10);
    expect((await team.signIn('viewer-1', big)).status).toBe(413);
    expect(
      (await team.raw('/api/wallets.list', { method: 'POST', body: big, headers: { Origin: team.origin(), Cookie: b.cookie, 'X-Folio-CSRF': b.csrf } })).status,
    ).toBe(413);
    // Chunked, no length given: read up to the bound, then refused.
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: team.server.port,
          path: '/api/wallets.list',
          method: 'POST',
          headers: { Host: `127.0.0.1:${team.server.port}`, Origin: team.origin(), Cookie: b.cookie, 'X-Folio-CSRF': b.csrf, 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, body: '', headers: res.headers }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('y'.repeat(64 * 1024));
      req.end();
    });
    expect(answer.status).toBe(413);
  });
});

const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

describe('team requests: behind a proxy', () => {
  let proxied: Team;
  beforeAll(async () => {
    // Bound beyond loopback, believing 127.0.0.1 as its proxy; this machine's network address is "anyone else".
    proxied = await startTeam({ sim: ctx.sim.url, server: { host: '0.0.0.0', behindProxy: '127.0.0.1' } });
  });
  afterAll(async () => {
    await proxied?.close();
  });
  const viaProxy = (client: string, body: URLSearchParams, extra: Record<string, string> = {}) =>
    proxied.raw('/sign-in', {
      method: 'POST',
      headers: {
        Host: `127.0.0.1:${proxied.server.port}`,
        'X-Forwarded-For': client,
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'team.example',
        Origin: 'https://team.example',
        'Content-Type': 'application/x-www-form-urlencoded',
        ...extra,
      },
      body: body.toString(),
    });

  it('through the proxy saying https: the Secure __Host- cookie; the client is the last X-Forwarded-For entry, not one it wrote', async () => {
    const ok = await viaProxy('203.0.113.9', new URLSearchParams({ name: 'viewer-1', password: PASSWORD }));
    expect(ok.status).toBe(303);
    expect(String(ok.headers['set-cookie'])).toMatch(/^__Host-folio_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
    expect(ok.headers['strict-transport-security']).toBe('max-age=31536000');
    // 20 failures from one client that writes a new address of its own first each time: its address is locked all the same.
    for (let i = 0; i < 20; i++)
      expect((await viaProxy(`10.9.8.${i}, 198.51.100.7`, new URLSearchParams({ name: `sprayed-${i}`, password: 'not a real password' }))).status).toBe(401);
    expect((await viaProxy('10.9.9.9, 198.51.100.7', new URLSearchParams({ name: 'viewer-1', password: PASSWORD }))).status).toBe(429);
    // Another client of the same proxy is not locked out by it.
    expect((await viaProxy('198.51.100.8', new URLSearchParams({ name: 'viewer-1', password: PASSWORD }))).status).toBe(303);
    proxied.clock.t += 16 * MIN;
  });

  it('counts an IPv6 client by its /64: one network’s many addresses are one address to the lock-out', async () => {
    for (let i = 0; i < 20; i++)
      expect(
        (await viaProxy(`2001:db8:1:2::${(i + 1).toString(16)}`, new URLSearchParams({ name: `v6-sprayed-${i}`, password: 'not a real password' }))).status,
      ).toBe(401);
    expect((await viaProxy('2001:db8:1:2:ffff:ffff:ffff:fffe', new URLSearchParams({ name: 'viewer-1', password: PASSWORD }))).status).toBe(429);
    expect((await viaProxy('2001:0db8:0001:0002:0000:0000:0000:0abc', new URLSearchParams({ name: 'viewer-1', password: PASSWORD }))).status).toBe(429);
    // The next network is another client.
    expect((await viaProxy('2001:db8:1:3::1', new URLSearchParams({ name: 'viewer-1', password: PASSWORD }))).status).toBe(303);
    proxied.clock.t += 16 * MIN;
  });

  it.skipIf(!external)('a peer that is not the proxy is refused plain HTTP, however it forwards', async () => {
    for (const extra of ['', 'X-Forwarded-Proto: https\r\nX-Forwarded-For: 127.0.0.1\r\nX-Forwarded-Host: team.example\r\n'])
      expect(
        statusOf(
          await socketRequest(
            proxied.server.port,
            `GET /sign-in HTTP/1.1\r\nHost: ${external}:${proxied.server.port}\r\n${extra}Connection: close\r\n\r\n`,
            external,
          ),
        ),
      ).toBe(403);
  });
});
